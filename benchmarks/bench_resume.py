"""What a resumed game costs before it goes on: the replay of its save, and the beliefs of a
bot seat and of the table catching up with the game.

    python benchmarks/bench_resume.py [PACK] [--role ROLE] [--rounds 3 6 9] [--games N]

For each round, N random games (seeds 0, 1, ...) are saved when ``ROLE`` is first asked in
that round, as ``rulekit play`` writes them. Each save is then resumed as ``rulekit play
--resume`` does: ``rebuild`` (the states, and ``ROLE``'s observations at its decisions), a
belief of ``ROLE`` with a bot seat's caps and one with the table's (``play/table``),
each following the past, then the observation now. Figures per round: the decisions saved,
the median CPU time of each step (ms), and how many of those beliefs end lost; for
comparison, the same beliefs built from the last observation alone (what a resume did
before it kept the past). Nothing here is a pass/fail test: the script prints figures.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from rulekit.bots.belief import Belief, follow_past
from rulekit.engine.game import Game, State
from rulekit.pack.loader import load_pack
from rulekit.play.restore import rebuild, seen_at_decisions
from rulekit.play.savefile import SavedGame
from rulekit.play.table import BELIEF_CAPS


def saved_game(game: Game, seed: int, role: str, rounds: int) -> SavedGame | None:
    """A random game of ``game`` saved when ``role`` is first asked in round ``rounds`` (None
    if it ends before)."""
    rand = random.Random(seed)
    state = game.new_game(seed)
    decisions: list[tuple[str, str]] = []
    while not (state["round"] >= rounds and game.decision_for(state, role) is not None):
        if state["result"] is not None:
            return None
        decision = game.pending(state)[0]
        option = decision.sample(rand)
        decisions.append((decision.player, option.id))
        state = game.apply(state, {decision.player: option}, in_place=True)
    return SavedGame(pack=game.pack_id, version=game.version, pack_hash=game.pack_hash,
                     params=dict(game.params), seed=seed, seats={}, decisions=decisions)


def caught_up(game: Game, role: str, state: State, past: list[dict[str, Any]] | None,
              caps: dict[str, int]) -> tuple[float, bool]:
    """CPU seconds for a belief of ``role`` to follow ``past`` (if given) and the observation
    of ``state``, and whether it ends lost."""
    started = time.process_time()
    belief = Belief(game, role, random.Random(1), **caps)
    follow_past(belief, list(past) if past is not None else None)
    belief.update(game.observe(state, role))
    return time.process_time() - started, belief.lost


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pack", nargs="?", default="rednotice")
    parser.add_argument("--role", help="the seat resumed (default: the pack's last role)")
    parser.add_argument("--rounds", type=int, nargs="+", default=[3, 6, 9])
    parser.add_argument("--games", type=int, default=4)
    args = parser.parse_args()
    game = load_pack(args.pack).game
    role = args.role or game.roles[-1]
    print(f"{args.pack}, {role} resumed; medians over the games saved, CPU ms; lost beliefs")
    print("round  games  decisions  rebuild   bot: past / alone (lost)   "
          "table: past / alone (lost)")
    for rounds in args.rounds:
        saves = [s for s in (saved_game(game, seed, role, rounds)
                             for seed in range(args.games)) if s is not None]
        if not saves:
            print(f"{rounds:>5}  no game reaches round {rounds}")
            continue
        rebuilt, figures = [], {"bot": ([], [], 0, 0), "table": ([], [], 0, 0)}
        for saved in saves:
            started = time.process_time()
            states = rebuild(game, saved, "bench")
            past = seen_at_decisions(game, states, saved.decisions, role, 0, len(saved.decisions))
            rebuilt.append(time.process_time() - started)
            state = states[-1]
            for name, caps in (("bot", {}), ("table", BELIEF_CAPS)):
                past_s, alone_s, past_lost, alone_lost = figures[name]
                seconds, lost = caught_up(game, role, state, past, caps)
                past_s.append(seconds)
                seconds_alone, lost_alone = caught_up(game, role, state, None, caps)
                alone_s.append(seconds_alone)
                figures[name] = (past_s, alone_s, past_lost + lost, alone_lost + lost_alone)
        cells = []
        for name in ("bot", "table"):
            past_s, alone_s, past_lost, alone_lost = figures[name]
            cells.append(f"{statistics.median(past_s) * 1e3:7.0f} / "
                         f"{statistics.median(alone_s) * 1e3:5.0f} ({past_lost}/{alone_lost})")
        decisions = statistics.median(len(s.decisions) for s in saves)
        print(f"{rounds:>5}  {len(saves):>5}  {decisions:>9.0f}  "
              f"{statistics.median(rebuilt) * 1e3:6.1f}   {cells[0]:<26} {cells[1]}")


if __name__ == "__main__":
    main()
