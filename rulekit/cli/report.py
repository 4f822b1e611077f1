"""``rulekit report PACK``: a designer's report of many games, as one HTML page or JSON."""

from __future__ import annotations

import argparse
from pathlib import Path

from rulekit.cli.common import Commands, add_param_option, err, games, out, progress_bar, seed
from rulekit.cli.simulate import add_run_options


def register(commands: Commands) -> None:
    parser = commands.add(
        "report", run, pack=True,
        help="a designer's report: cards, skill, tension, in pictures",
        description="Play games between agents as simulate does, and write one self-contained "
                    "HTML page: win rates across a sweep, game lengths and end reasons, the "
                    "tension over the rounds, how much skill matters and which cards decide "
                    "games. See docs/simulator.md.")
    parser.add_argument("-n", "--games", type=games, default=1000, metavar="N",
                        help="number of games per run (default 1000)")
    parser.add_argument("--seed", type=seed, default=0, metavar="S",
                        help="seed of the run; game i uses a seed derived from it (default 0)")
    add_param_option(parser)
    add_run_options(parser)
    parser.add_argument("--skill-games", type=games, default=0, metavar="K",
                        help="games per match to measure skill: the strong agent against "
                             "the weak one in each role, and each against itself "
                             "(default 0: not measured)")
    parser.add_argument("--strong", default="heuristic", metavar="AGENT",
                        help="the strong agent of the skill matches (default heuristic)")
    parser.add_argument("--weak", default="random", metavar="AGENT",
                        help="the weak agent of the skill matches (default random)")
    parser.add_argument("-o", "--out", type=Path, metavar="FILE",
                        help="the HTML file to write (default PACK-report.html; "
                             "with --json, none unless given)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="no progress bar, no line about the file written")


def run(args: argparse.Namespace) -> int:
    """Play the games, then write the page and print JSON as asked."""
    import json

    from rulekit.bots.registry import parse_agents
    from rulekit.cli.simulate import count_runs
    from rulekit.pack.params import parse_params
    from rulekit.report.collect import make_report
    from rulekit.report.page import write_report

    params = parse_params(args.param)
    agents = parse_agents(args.agents)
    total = args.games * count_runs(args, params) + 4 * args.skill_games
    with progress_bar(total, "games", args.quiet) as progress:
        report = make_report(args.pack, params, args.games, args.seed, agents, args.sweep,
                             args.workers, args.max_rounds, scheduler=args.scheduler,
                             progress=progress, skill_games=args.skill_games,
                             strong=args.strong, weak=args.weak)
    target = args.out if args.out is not None or args.json else \
        Path(f"{report['pack']}-report.html")
    if target is not None:
        write_report(report, target)
        if not args.quiet and not args.json:
            err(f"report written to {target}")
    if args.json:
        out(json.dumps(report))
    return 0
