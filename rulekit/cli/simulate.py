"""``rulekit simulate PACK``: many games between agents, and who wins them."""

from __future__ import annotations

import argparse
from collections.abc import Mapping

from rulekit.cli.common import Commands, add_param_option, games, out, positive, progress_bar, seed


def register(commands: Commands) -> None:
    parser = commands.add(
        "simulate", run, pack=True,
        help="play many games between agents and count the wins",
        description="Play games between agents (random by default) and report each role's "
                    "win rate with a 95% confidence interval, how the games end, how long "
                    "they last and who decided first. See docs/simulator.md.")
    parser.add_argument("-n", "--games", type=games, default=100, metavar="N",
                        help="number of games (default 100)")
    parser.add_argument("--seed", type=seed, default=0, metavar="S",
                        help="seed of the run; game i uses a seed derived from it (default 0)")
    add_param_option(parser)
    add_run_options(parser)
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print one JSON object")
    output.add_argument("--csv", action="store_true",
                        help="print CSV: a header and one row per run (per combination)")
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="no progress bar (there is none either when standard error is "
                             "not a terminal)")


def add_run_options(parser: argparse.ArgumentParser) -> None:
    """Add the options of the games' agents, sweeps and workers, shared with ``report``."""
    parser.add_argument("--agents", action="append", default=[], metavar="ROLE=AGENT,...",
                        help="agents by role: a built-in name (random) or package.module:Name;"
                             " other roles play at random")
    parser.add_argument("--sweep", action="append", default=[], metavar="KEY=V1,V2,...",
                        help="run once per value of a parameter (a list, or a range A..B or "
                             "A..B/STEP); repeat to sweep a grid; one row per combination")
    parser.add_argument("-j", "--workers", type=positive, default=1, metavar="W",
                        help="processes playing games (default 1: this one alone); "
                             "the counts do not depend on it")
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="run the games on a Dask cluster: a scheduler's address "
                             "(tcp://host:8786), or 'local' for a cluster of W processes on "
                             "this machine; needs rulekit[dask]; the counts do not change")
    parser.add_argument("--max-rounds", type=positive, default=1000, metavar="R",
                        help="stop a game after R rounds and count it as capped "
                             "(default 1000)")


def run(args: argparse.Namespace) -> int:
    """Play the games, or those of each combination of swept values; print the report."""
    import json

    from rulekit.bots.registry import parse_agents
    from rulekit.pack.params import parse_params
    from rulekit.sim.simulation import sweep
    from rulekit.sim.tables import csv_report, sweep_table, text_report

    params = parse_params(args.param)
    agents = parse_agents(args.agents)
    settings = (args.games, args.seed, agents, args.workers, args.max_rounds)
    with progress_bar(args.games * count_runs(args, params), "games", args.quiet) as progress:
        keys, results = sweep(args.pack, args.sweep, params, *settings,
                              scheduler=args.scheduler, progress=progress)
    if args.csv:
        out(csv_report(results, keys))
    elif args.json:
        data = {"sweep": keys, "runs": [r.to_dict() for r in results]} if args.sweep else \
            results[0].to_dict()
        out(json.dumps(data))
    else:
        out(sweep_table(results, keys) if args.sweep else text_report(results[0]))
    return 0


def count_runs(args: argparse.Namespace, params: Mapping[str, str]) -> int:
    """The runs of a sweep, checked first so that the bar knows its length."""
    from rulekit.sim.simulation import checked_sweeps
    from rulekit.sim.sweep import combinations

    return len(combinations(checked_sweeps(args.pack, args.sweep, params)))
