"""How bots use their anytime actions (one-shot abilities, paid actions), per pack and role.

    python benchmarks/bench_one_shots.py PACK [--games N] [--agent SPEC] [--against SPEC]
                                         [--role ROLE]

Each role in turn (or ``--role`` alone) is played by ``--agent`` (default
``normal:iterations=1000``) against ``--against`` (default ``random``; a scripted player is
``baselines:RedNoticeAngela``) over games 0..N-1 of ``rulekit simulate`` with seed 0. For each
anytime action of that role: in how many games it was offered, in how many it was taken (and
how often in all), how many of the seat's decisions offered it before it was first taken, and
the rounds from its first offer to its first use. Figures only.
"""

from __future__ import annotations

import argparse
import collections
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path

from rulekit.bots.agent import View, choose_function
from rulekit.bots.registry import load_agent
from rulekit.engine.decisions import Decision, Option
from rulekit.pack.loader import load_pack
from rulekit.sim.simulation import play_game

sys.path.insert(0, str(Path(__file__).resolve().parent))  # baselines.py, a plug-in agent


@dataclass
class Uses:
    """One anytime action over the games: when it was offered, when taken."""

    offered_games: int = 0
    used_games: int = 0
    uses: int = 0
    waits: list[int] = field(default_factory=list)  # decisions offered before the first use
    rounds: list[int] = field(default_factory=list)  # rounds from first offer to first use


class Watched:
    """An agent that notes, per game, where its anytime actions were offered and taken."""

    def __init__(self, spec: str) -> None:
        self.choose_with = choose_function(load_agent(spec))
        self.game: list[tuple[int, list[str], str]] = []  # (round, offered, answer id)

    def choose(self, view: View, decision: Decision) -> Option | str:
        answer = self.choose_with(view, decision)
        answer_id = answer.id if isinstance(answer, Option) else str(answer)
        offered = [o.id for o in decision.extras]
        self.game.append((int(view.observation["round"]), offered, answer_id))
        return answer


def tally(uses: dict[str, Uses], game: list[tuple[int, list[str], str]]) -> None:
    """Add one game's record to ``uses``."""
    first: dict[str, tuple[int, int]] = {}  # action -> (round first offered, decisions)
    used: set[str] = set()
    for round_, offered, answer in game:
        for action in offered:
            if action not in used:
                start, seen = first.get(action, (round_, 0))
                first[action] = (start, seen + 1)
        if answer in offered:
            entry = uses[answer]
            entry.uses += 1
            if answer not in used:
                used.add(answer)
                entry.used_games += 1
                entry.waits.append(first[answer][1] - 1)
                entry.rounds.append(round_ - first[answer][0])
    for action in first:
        uses[action].offered_games += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pack")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--agent", default="normal:iterations=1000")
    parser.add_argument("--against", default="random",
                        help="any agent spec, such as baselines:RedNoticeAngela")
    parser.add_argument("--role", help="only this role (default: each in turn)")
    args = parser.parse_args()
    game = load_pack(args.pack).game
    for role in [args.role] if args.role else game.roles:
        other = next(r for r in game.roles if r != role)
        uses: dict[str, Uses] = collections.defaultdict(Uses)
        for seed in range(args.games):
            watched = Watched(args.agent)
            play_game(game, seed, {role: watched, other: args.against})
            tally(uses, watched.game)
        for action, u in sorted(uses.items()):
            waits = f"{statistics.median(u.waits):.0f}" if u.waits else "-"
            rounds = f"{statistics.median(u.rounds):.0f}" if u.rounds else "-"
            print(f"{args.pack} {role} ({args.agent} vs {args.against}, {args.games} games): "
                  f"{action}: offered in {u.offered_games} games, taken in {u.used_games} "
                  f"({u.uses} times); median decisions offered before use {waits}, "
                  f"rounds {rounds}", flush=True)


if __name__ == "__main__":
    main()
