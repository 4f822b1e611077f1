"""The ``rulekit`` command: validate packs, simulate games between agents, run scenario tests.

    rulekit validate PACK...
    rulekit simulate PACK [-n GAMES] [--seed S] [--agents ROLE=AGENT,...] [--param KEY=VALUE]...
                          [--workers W] [--max-rounds R] [--json]
    rulekit test PACK [--param KEY=VALUE]... [-k FILTER] [-v] [--require-coverage]
    rulekit play [PACK] [--seat ROLE=human|AGENT]... [--seed S] [--param KEY=VALUE]...
                        [--resume FILE] [--save FILE] [--fast] [--no-color]
    rulekit replay FILE [--as ROLE|all] [--all] [--pack PACK] [--no-color]
    rulekit map PACK [--param KEY=VALUE]... [--no-color]

Exit codes: 0 success, 1 an error (a broken pack, a failing scenario, a bad value), 2 a bad
command line, 130 interrupted. The engine is imported only when a command needs it, so that
``rulekit --help`` and friends start at once.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TextIO

from rulekit import __version__
from rulekit.errors import PackError, PackErrors, RulekitError, UsageError

if TYPE_CHECKING:
    from rulekit.simulate import SimulationResult

PROG = "rulekit"


# ---------------------------------------------------------------- helpers


def _out(text: str = "", file: TextIO | None = None) -> None:
    print(text, file=file if file is not None else sys.stdout)


def _err(text: str) -> None:
    print(text, file=sys.stderr)


def _count(value: str, minimum: int, what: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got '{value}'") from None
    if number < minimum:
        raise argparse.ArgumentTypeError(f"{what} must be at least {minimum}, got {number}")
    return number


def _games(value: str) -> int:
    return _count(value, 0, "the number of games")


def _positive(value: str) -> int:
    return _count(value, 1, "the value")


def _seed(value: str) -> int:
    try:
        return int(value, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer seed, got '{value}'") from None


def _percent(value: float) -> str:
    return f"{value * 100:.1f}%"


# ---------------------------------------------------------------- validate


def cmd_validate(args: argparse.Namespace) -> int:
    from rulekit.pack.loader import load_pack
    from rulekit.scenarios import load_scenarios

    invalid = 0
    for ref in args.packs:
        errors: list[PackError] = []
        try:
            pack = load_pack(ref)
            scenarios = load_scenarios(pack.scenario_files)
        except PackErrors as exc:
            errors = list(exc.errors)
        except PackError as exc:
            errors = [exc]
        except RulekitError as exc:
            invalid += 1
            _err(f"{ref}: {exc}")
            _err(f"{ref}: invalid")
            continue
        if errors:
            invalid += 1
            for error in errors:
                _err(str(error))
            noun = "error" if len(errors) == 1 else "errors"
            _err(f"{ref}: invalid ({len(errors)} {noun})")
            continue
        cards = len(pack.game.symbols.cards)
        _out(f"{ref}: ok ({cards} cards, {len(scenarios)} scenarios)")
    if len(args.packs) > 1:
        valid = len(args.packs) - invalid
        _out(f"{len(args.packs)} packs: {valid} valid, {invalid} invalid",
             sys.stderr if invalid else sys.stdout)
    return 1 if invalid else 0


# ---------------------------------------------------------------- simulate


def cmd_simulate(args: argparse.Namespace) -> int:
    from rulekit.agents import parse_agents
    from rulekit.pack.loader import parse_params
    from rulekit.simulate import simulate

    params = parse_params(args.param)
    agents = parse_agents(args.agents)
    result = simulate(args.pack, params, games=args.games, seed=args.seed, agents=agents,
                      workers=args.workers, max_rounds=args.max_rounds)
    if args.json:
        import json

        _out(json.dumps(result.to_dict(), sort_keys=False))
    else:
        _out(_simulation_table(result))
    return 0


def _simulation_table(result: SimulationResult) -> str:
    params = ", ".join(f"{k}={v}" for k, v in result.params.items())
    agents = ", ".join(f"{role}={spec}" for role, spec in result.agents.items())
    lines = [f"{result.pack} {result.version}: {result.games} games, seed {result.seed}",
             f"agents: {agents}"]
    if params:
        lines.append(f"params: {params}")
    lines.append("")
    width = max([len("outcome"), len("capped"), *(len(r) for r in result.wins)])
    lines.append(f"{'outcome':<{width}}  {'games':>7}  {'rate':>6}  95% CI")
    rates, cis = result.win_rate, result.ci95
    for role, count in result.wins.items():
        lo, hi = cis[role]
        lines.append(f"{role:<{width}}  {count:>7}  {_percent(rates[role]):>6}  "
                     f"{_percent(lo)} - {_percent(hi)}")
    for label, count in (("draws", result.draws), ("capped", result.capped)):
        rate = count / result.games if result.games else 0.0
        lines.append(f"{label:<{width}}  {count:>7}  {_percent(rate):>6}")
    lines.append("")
    lines.append(f"mean rounds: {result.mean_rounds:.2f}")
    workers = "1 worker" if result.workers == 1 else f"{result.workers} workers"
    lines.append(f"time: {result.seconds:.2f} s, {result.games_per_second:,.0f} games/s "
                 f"({workers})")
    return "\n".join(lines)


# ---------------------------------------------------------------- test


def cmd_test(args: argparse.Namespace) -> int:
    from rulekit.pack.loader import load_pack, parse_params
    from rulekit.scenarios import run_scenarios

    params = parse_params(args.param)
    pack = load_pack(args.pack, params)
    run = run_scenarios(pack, params, args.filter)
    for result in run.results:
        _out(str(result))
        if args.verbose:
            covers = ", ".join(result.scenario.covers) or "-"
            _out(f"     covers: {covers}; decisions played: {result.decisions}")
    if not run.results:
        if args.filter:
            _err(f"{PROG}: error: no scenario of {pack.id} has '{args.filter}' in its name")
            return 1
        _out(f"{pack.id} has no scenarios")
    else:
        _out(f"{run.passed} passed, {run.failed} failed")
    uncovered = _coverage_report(pack.rules, run.coverage(), args.verbose, args.filter)
    if run.failed:
        return 1
    if args.require_coverage:
        if not pack.rules:
            _err(f"{PROG}: warning: {pack.id} has no rules file; there is no coverage to require")
        elif uncovered:
            _err(f"{PROG}: error: {len(uncovered)} rule(s) not covered by a passing scenario")
            return 1
    return 0


def _coverage_report(rules: list[tuple[str, str]], coverage: dict[str, list[str]],
                     verbose: bool, name_filter: str | None = None) -> list[str]:
    """Print the rule coverage; return the uncovered rule ids."""
    if not rules:
        return []
    ids = [rule_id for rule_id, _ in rules]
    covered = [rule_id for rule_id in ids if coverage.get(rule_id)]
    uncovered = [rule_id for rule_id in ids if not coverage.get(rule_id)]
    partial = f" (by the scenarios matching -k '{name_filter}')" if name_filter else ""
    _out(f"rules covered: {len(covered)} of {len(ids)}{partial}")
    if uncovered:
        _out("uncovered rules:")
        texts = dict(rules)
        for rule_id in uncovered:
            text = texts.get(rule_id, "")
            if not verbose and len(text) > 70:
                text = text[:67] + "..."
            _out(f"  {rule_id}" + (f": {text}" if text else ""))
    if verbose and covered:
        _out("covered rules:")
        for rule_id in covered:
            _out(f"  {rule_id}: {', '.join(coverage[rule_id])}")
    unknown = [rule_id for rule_id in coverage if rule_id not in set(ids)]
    if unknown:
        _out(f"scenarios cover rule ids not in the rules file: {', '.join(unknown)}")
    return uncovered


# ---------------------------------------------------------------- play, replay, map


def cmd_play(args: argparse.Namespace) -> int:
    from pathlib import Path

    from rulekit.play import open_session
    from rulekit.play.screen import Screen

    screen = Screen(no_color=args.no_color, fast=args.fast)
    session = open_session(screen, args.pack, seats=args.seat, seed=args.seed,
                           params=args.param,
                           resume=Path(args.resume) if args.resume else None,
                           save=Path(args.save) if args.save else None)
    return session.run()


def cmd_replay(args: argparse.Namespace) -> int:
    from pathlib import Path

    from rulekit.play.replay import run_replay
    from rulekit.play.savefile import load_saved_pack, read_save
    from rulekit.play.screen import Screen

    path = Path(args.file)
    saved = read_save(path)
    loaded = load_saved_pack(saved, str(path), args.pack)
    screen = Screen(no_color=args.no_color)
    try:
        return run_replay(loaded, saved, str(path), screen, args.as_role, args.all)
    except KeyboardInterrupt:
        screen.blank()
        return 130


def cmd_map(args: argparse.Namespace) -> int:
    from rulekit.pack.loader import load_pack, parse_params
    from rulekit.play.render import Renderer
    from rulekit.play.screen import Screen

    game = load_pack(args.pack, parse_params(args.param)).game
    if args.out:
        import os
        import tempfile
        from pathlib import Path

        from rulekit.play.svgmap import render_svg

        out = Path(args.out)
        if out.suffix.lower() != ".svg":
            raise UsageError(f"cannot write '{out}': the map is drawn as SVG",
                             "give a file name ending in .svg")
        if not out.parent.is_dir():
            raise UsageError(f"cannot write '{out}': no folder '{out.parent}'")
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=out.parent,
                                         suffix=".tmp", delete=False) as handle:
            handle.write(render_svg(game))
        os.replace(handle.name, out)
        print(f"{out}: {len(game.symbols.board.nodes)} places, "
              f"{len(game.symbols.board.edges)} routes")
        return 0
    Screen(no_color=args.no_color).show(Renderer(game).map())
    return 0


# ---------------------------------------------------------------- parser and main


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG, description="A rules-as-data engine for two-player tabletop games.")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    validate = commands.add_parser(
        "validate", help="check packs and their scenario files",
        description="Load each pack and its scenario files and report every mistake found.")
    validate.add_argument("packs", nargs="+", metavar="PACK",
                          help="a pack folder, or the id of a shipped pack")
    validate.set_defaults(func=cmd_validate)

    simulate = commands.add_parser(
        "simulate", help="play many games between agents and count the wins",
        description="Play games between agents (random by default) and report each role's "
                    "win rate with a 95%% confidence interval.")
    simulate.add_argument("pack", metavar="PACK", help="a pack folder or a shipped pack id")
    simulate.add_argument("-n", "--games", type=_games, default=100, metavar="N",
                          help="number of games (default 100)")
    simulate.add_argument("--seed", type=_seed, default=0, metavar="S",
                          help="seed of the run; game i uses a seed derived from it (default 0)")
    simulate.add_argument("--agents", action="append", default=[], metavar="ROLE=AGENT,...",
                          help="agents by role: a built-in name (random) or package.module:Name;"
                               " other roles play at random")
    simulate.add_argument("-p", "--param", action="append", default=[], metavar="KEY=VALUE",
                          help="set a parameter of the pack (repeatable)")
    simulate.add_argument("-j", "--workers", type=_positive, default=1, metavar="W",
                          help="worker processes (default 1); the counts do not depend on it")
    simulate.add_argument("--max-rounds", type=_positive, default=1000, metavar="R",
                          help="stop a game after R rounds and count it as capped "
                               "(default 1000)")
    simulate.add_argument("--json", action="store_true", help="print one JSON object")
    simulate.set_defaults(func=cmd_simulate)

    test = commands.add_parser(
        "test", help="run a pack's scenario tests and report rule coverage",
        description="Run the scenarios of a pack; exit 1 if one fails.")
    test.add_argument("pack", metavar="PACK", help="a pack folder or a shipped pack id")
    test.add_argument("-p", "--param", action="append", default=[], metavar="KEY=VALUE",
                      help="set a parameter of the pack (repeatable)")
    test.add_argument("-k", dest="filter", metavar="FILTER", default=None,
                      help="run only scenarios whose name contains FILTER (any case)")
    test.add_argument("-v", "--verbose", action="store_true",
                      help="show what each scenario covers and the covered rules")
    test.add_argument("--require-coverage", action="store_true",
                      help="also exit 1 when a rule of the pack is not covered")
    test.set_defaults(func=cmd_test)

    play = commands.add_parser(
        "play", help="play a game at the terminal, against bots or each other",
        description="Play a pack at the terminal. By default you play the first role against "
                    "random bots; give several roles to people for a hot-seat game.")
    play.add_argument("pack", metavar="PACK", nargs="?", default=None,
                      help="a pack folder or a shipped pack id (with --resume: optional)")
    play.add_argument("--seat", action="append", default=[], metavar="ROLE=human|AGENT",
                      help="who plays a role: human, a built-in agent (random) or "
                           "package.module:Name (repeatable; other roles: random bots, "
                           "the first role a person if no seat is given)")
    play.add_argument("--seed", type=_seed, default=None, metavar="S",
                      help="seed of the game (default: a new one, shown at the start)")
    play.add_argument("-p", "--param", action="append", default=[], metavar="KEY=VALUE",
                      help="set a parameter of the pack (repeatable)")
    play.add_argument("--resume", metavar="FILE", default=None,
                      help="go on with a saved game")
    play.add_argument("--save", metavar="FILE", default=None,
                      help="where save writes (default: the --resume file, else "
                           "./rulekit-autosave-PACK.json); the finished game is written there")
    play.add_argument("--fast", action="store_true", help="do not pause after bots' moves")
    play.add_argument("--no-color", action="store_true", help="no colours")
    play.set_defaults(func=cmd_play)

    replay = commands.add_parser(
        "replay", help="step through a saved or finished game",
        description="Show a saved game's events one at a time (Enter), as one player saw "
                    "them or as everyone did.")
    replay.add_argument("file", metavar="FILE", help="a file written by rulekit play")
    replay.add_argument("--as", dest="as_role", metavar="ROLE", default="all",
                        help="whose view: a role, or all (every event; the default)")
    replay.add_argument("--all", action="store_true",
                        help="show every event at once instead of one per Enter")
    replay.add_argument("--pack", metavar="PACK", default=None,
                        help="the pack folder, if it cannot be found from the save")
    replay.add_argument("--no-color", action="store_true", help="no colours")
    replay.set_defaults(func=cmd_replay)

    map_ = commands.add_parser(
        "map", help="show a pack's map", description="Show the places and routes of a pack.")
    map_.add_argument("pack", metavar="PACK", help="a pack folder or a shipped pack id")
    map_.add_argument("-p", "--param", action="append", default=[], metavar="KEY=VALUE",
                      help="set a parameter of the pack (repeatable)")
    map_.add_argument("--no-color", action="store_true", help="no colours")
    map_.add_argument("--out", metavar="FILE.svg",
                      help="draw the map as a picture (SVG) into this file")
    map_.set_defaults(func=cmd_map)
    return parser


def _report(exc: RulekitError) -> None:
    if isinstance(exc, PackErrors):
        for error in exc.errors:
            _err(str(error))
        count = len(exc.errors)
        _err(f"{PROG}: error: {count} error{'' if count == 1 else 's'} in the pack")
    elif isinstance(exc, PackError) and exc.location is not None:
        _err(str(exc))
    else:
        _err(f"{PROG}: error: {exc}")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default: ``sys.argv[1:]``); return the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: Any = args.func(args)
        return int(code)
    except RulekitError as exc:
        _report(exc)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        _silence_stdout()
        return 1


def _silence_stdout() -> None:
    """After a closed pipe (``rulekit ... | head``), keep Python quiet at exit."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


if __name__ == "__main__":
    sys.exit(main())
