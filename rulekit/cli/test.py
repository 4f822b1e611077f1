"""``rulekit test PACK``: a pack's scenario tests, and the rules they cover."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from rulekit.cli.common import PROG, Commands, add_param_option, err, out

if TYPE_CHECKING:
    from rulekit.pack.loader import LoadedPack

Coverage = dict[str, list[str]]  # rule id -> the passing scenarios that cover it


def register(commands: Commands) -> None:
    parser = commands.add(
        "test", run, pack=True,
        help="run a pack's scenario tests and report rule coverage",
        description="Run the scenarios of a pack; exit 1 if one fails.")
    add_param_option(parser)
    parser.add_argument("-k", dest="filter", metavar="FILTER", default=None,
                        help="run only scenarios whose name contains FILTER (any case)")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="show what each scenario covers and the covered rules")
    parser.add_argument("--require-coverage", action="store_true",
                        help="also exit 1 when a rule of the pack is not covered")
    parser.add_argument("--with-base", action="store_true",
                        help="for a variant, also run the scenarios of the pack it extends "
                             "against it (reported apart; they do not change the exit status)")


def run(args: argparse.Namespace) -> int:
    """Run the scenarios, print results and coverage; 1 if one fails."""
    from rulekit.pack.loader import load_pack, parse_params
    from rulekit.scenarios.runner import run_scenarios

    params = parse_params(args.param)
    pack = load_pack(args.pack, params)
    scenarios = run_scenarios(pack, params, args.filter)
    for result in scenarios.results:
        out(str(result))
        if args.verbose:
            covers = ", ".join(result.scenario.covers) or "-"
            out(f"     covers: {covers}; decisions played: {result.decisions}")
    if scenarios.results:
        out(f"{scenarios.passed} passed, {scenarios.failed} failed")
    elif args.filter and not args.with_base:
        err(f"{PROG}: error: no scenario of {pack.id} has '{args.filter}' in its name")
        return 1
    elif args.filter:
        out(f"no scenario of {pack.id} has '{args.filter}' in its name")
    else:
        out(f"{pack.id} has no scenarios")
    coverage = scenarios.coverage()
    if args.with_base:
        for rule, names in _base_report(pack, params, args.filter).items():
            coverage.setdefault(rule, []).extend(names)
    uncovered = _coverage_report(pack.rules, coverage, args.verbose, args.filter)
    if scenarios.failed:
        return 1
    if not args.require_coverage:
        return 0
    if not pack.rules:
        err(f"{PROG}: warning: {pack.id} has no rules file; there is no coverage to require")
        return 0
    if uncovered:
        err(f"{PROG}: error: {len(uncovered)} rule(s) not covered by a passing scenario")
        return 1
    return 0


def _base_report(pack: LoadedPack, params: dict[str, str], name_filter: str | None
                 ) -> Coverage:
    """Run the base pack's scenarios against a variant, print them apart; the rules covered."""
    from rulekit.scenarios.runner import run_scenarios

    if pack.base_id is None:
        err(f"{PROG}: warning: {pack.id} extends no pack; --with-base has nothing to run")
        return {}
    base_run = run_scenarios(pack, params, name_filter, pack.base_scenario_files)
    out(f"scenarios of the base pack {pack.base_id}, run against {pack.id}:")
    for result in base_run.results:
        out(f"  {result}".replace("\n", "\n  "))
    out(f"base: {base_run.passed} passed, {base_run.failed} failed"
        + (" (a variant may change what they assert)" if base_run.failed else ""))
    return {rule: [f"{pack.base_id}: {name}" for name in names]
            for rule, names in base_run.coverage().items()}


def _coverage_report(rules: list[tuple[str, str]], coverage: Coverage, verbose: bool,
                     name_filter: str | None) -> list[str]:
    """Print the rule coverage; return the uncovered rule ids."""
    if not rules:
        return []
    texts = dict(rules)  # (the loader keeps each rule id once)
    covered = [rule_id for rule_id in texts if coverage.get(rule_id)]
    uncovered = [rule_id for rule_id in texts if not coverage.get(rule_id)]
    partial = f" (by the scenarios matching -k '{name_filter}')" if name_filter else ""
    out(f"rules covered: {len(covered)} of {len(texts)}{partial}")
    if uncovered:
        out("uncovered rules:")
    for rule_id in uncovered:
        text = texts[rule_id]
        if not verbose and len(text) > 70:
            text = text[:67] + "..."
        out(f"  {rule_id}" + (f": {text}" if text else ""))
    if verbose and covered:
        out("covered rules:")
        for rule_id in covered:
            out(f"  {rule_id}: {', '.join(coverage[rule_id])}")
    unknown = [rule_id for rule_id in coverage if rule_id not in texts]
    if unknown:
        out(f"scenarios cover rule ids not in the rules file: {', '.join(unknown)}")
    return uncovered
