"""The cost of the belief and of ``determinize`` along random games, in one process.

    python benchmarks/bench_belief.py PACK [--games N] [--max-round R] [--calls K]
                                           [--caps P,F,K] [--json]

Random players play ``N`` games (seeds 0, 1, ...), up to round ``R``. Figures:

- ``update_ms``: one ``Belief.update`` per decision of each role, as a bot's ``view.belief``
  makes it (default caps, or ``--caps PARTICLES,FRONTIER,KEEP``): the median, mean and
  largest, in milliseconds;
- ``determinize_us``: ``determinize(game, state, role, rng)`` called ``K`` times on each state
  met, for each role that decides there, as a search bot does once per iteration (successive
  states of one game, so a call follows the game from the last one): the median over states of
  the mean time of one call, in microseconds; ``determinize_first_us`` is the median of the
  first call on each state (the one that follows the new part of the game), and
  ``determinize_repeat_us`` that of the later ones;
- ``deal_us``: one new deal of the cards a role cannot see (``redeal``, its places found
  once), ``K`` times on each state for each role that decides there: the median over states
  of the mean time of one deal, in microseconds.

Times are the process's CPU time. Nothing here is a pass/fail test: the script prints figures.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

from rulekit.bots.belief import Belief
from rulekit.bots.belief.deal import Deal, redeal
from rulekit.bots.determinize import determinize
from rulekit.engine.game import Game, copy_state
from rulekit.pack.loader import load_pack


def states_of(game: Game, seed: int, max_round: int) -> list[dict[str, Any]]:
    """The states of one random game where someone decides, in order."""
    rng = random.Random(seed)
    state = game.new_game(seed)
    found = []
    while not game.is_over(state) and state["round"] <= max_round:
        found.append(state)
        state = game.apply(state, {d.player: d.sample(rng) for d in game.pending(state)})
    return found


def updates(game: Game, games: list[list[dict[str, Any]]], caps: dict[str, int]
            ) -> list[float]:
    """Seconds of each belief update, one per decision of each role."""
    times = []
    for seed, states in enumerate(games):
        for role in game.roles:
            belief = Belief(game, role, random.Random(seed), **caps)
            for state in states:
                if game.decision_for(state, role) is None:
                    continue
                observation = game.observe(state, role)
                started = time.process_time()
                belief.update(observation)
                times.append(time.process_time() - started)
    return times


def determinizations(game: Game, games: list[list[dict[str, Any]]], calls: int
                     ) -> tuple[list[float], list[float], list[float]]:
    """Seconds per call (mean over ``calls``), first calls, later calls, per state and role."""
    mean, first, later = [], [], []
    rand, kept = random.Random(3), {}
    for states in games:
        for state in states:
            for decision in game.pending(state):
                times = []
                for _ in range(calls):
                    started = time.process_time()
                    determinize(game, state, decision.player, rand, kept)
                    times.append(time.process_time() - started)
                mean.append(sum(times) / len(times))
                first.append(times[0])
                later += times[1:]
    return mean, first, later


def deals(game: Game, games: list[list[dict[str, Any]]], calls: int) -> list[float]:
    """Seconds per new deal (mean over ``calls``), per state and role that decides there."""
    spent = []
    rand = random.Random(4)
    for states in games:
        for state in states:
            for decision in game.pending(state):
                dealt = copy_state(state)
                deal = Deal(game, dealt, decision.player)
                started = time.process_time()
                for _ in range(calls):
                    redeal(game, dealt, decision.player, rand, deal)
                spent.append((time.process_time() - started) / calls)
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pack", nargs="?", default="carchase")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--max-round", type=int, default=99)
    parser.add_argument("--calls", type=int, default=20,
                        help="determinize calls per state and role (a bot's iterations)")
    parser.add_argument("--caps", default=None,
                        help="the belief's particles,frontier,keep for update_ms")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    game = load_pack(args.pack).game
    games = [states_of(game, seed, args.max_round) for seed in range(args.games)]
    caps = {} if args.caps is None else dict(
        zip(("particles", "frontier", "keep"), map(int, args.caps.split(",")), strict=True))
    spent = updates(game, games, caps)
    mean, first, later = determinizations(game, games, args.calls)
    figures: dict[str, Any] = {
        "pack": game.pack_id,
        "games": args.games,
        "states": sum(len(s) for s in games),
        "updates": len(spent),
        "caps": caps or "default",
        "update_ms": {"median": round(statistics.median(spent) * 1e3, 2),
                      "mean": round(statistics.mean(spent) * 1e3, 2),
                      "max": round(max(spent) * 1e3, 1)},
        "calls_per_state": args.calls,
        "determinize_us": round(statistics.median(mean) * 1e6, 1),
        "determinize_first_us": round(statistics.median(first) * 1e6, 1),
        "determinize_repeat_us": round(statistics.median(later) * 1e6, 1) if later else None,
        "deal_us": round(statistics.median(deals(game, games, args.calls)) * 1e6, 2),
    }
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key:>22}: {value}")


if __name__ == "__main__":
    main()
