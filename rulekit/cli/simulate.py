"""``rulekit simulate PACK``: many games between agents, and who wins them."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from rulekit.cli.common import add_param_option, games, out, percent, positive, seed

if TYPE_CHECKING:
    from rulekit.simulate import SimulationResult


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "simulate", help="play many games between agents and count the wins",
        description="Play games between agents (random by default) and report each role's "
                    "win rate with a 95%% confidence interval.")
    parser.add_argument("pack", metavar="PACK", help="a pack folder or a shipped pack id")
    parser.add_argument("-n", "--games", type=games, default=100, metavar="N",
                        help="number of games (default 100)")
    parser.add_argument("--seed", type=seed, default=0, metavar="S",
                        help="seed of the run; game i uses a seed derived from it (default 0)")
    parser.add_argument("--agents", action="append", default=[], metavar="ROLE=AGENT,...",
                        help="agents by role: a built-in name (random) or package.module:Name;"
                             " other roles play at random")
    add_param_option(parser)
    parser.add_argument("-j", "--workers", type=positive, default=1, metavar="W",
                        help="worker processes (default 1); the counts do not depend on it")
    parser.add_argument("--max-rounds", type=positive, default=1000, metavar="R",
                        help="stop a game after R rounds and count it as capped "
                             "(default 1000)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from rulekit.agents import parse_agents
    from rulekit.pack.loader import parse_params
    from rulekit.simulate import simulate

    params = parse_params(args.param)
    agents = parse_agents(args.agents)
    result = simulate(args.pack, params, games=args.games, seed=args.seed, agents=agents,
                      workers=args.workers, max_rounds=args.max_rounds)
    if args.json:
        import json

        out(json.dumps(result.to_dict(), sort_keys=False))
    else:
        out(simulation_table(result))
    return 0


def simulation_table(result: SimulationResult) -> str:
    """The report of a simulation as a small text table."""
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
        lines.append(f"{role:<{width}}  {count:>7}  {percent(rates[role]):>6}  "
                     f"{percent(lo)} - {percent(hi)}")
    for label, count in (("draws", result.draws), ("capped", result.capped)):
        rate = count / result.games if result.games else 0.0
        lines.append(f"{label:<{width}}  {count:>7}  {percent(rate):>6}")
    lines.append("")
    lines.append(f"mean rounds: {result.mean_rounds:.2f}")
    workers = "1 worker" if result.workers == 1 else f"{result.workers} workers"
    lines.append(f"time: {result.seconds:.2f} s, {result.games_per_second:,.0f} games/s "
                 f"({workers})")
    return "\n".join(lines)
