"""Random-vs-random games per second in one process, for a shipped pack (or any pack).

    python benchmarks/bench_random_games.py [PACK] [--games N] [--repeat R]

Prints the best of R runs (the least disturbed by other work on the machine), plus the load
time of the pack. The figures are what the issue tracker quotes; nothing here is a pass/fail test.
"""

from __future__ import annotations

import argparse
import random
import time

from rulekit.pack.loader import load_pack


def play(game, seed: int, rand: random.Random) -> int:  # type: ignore[no-untyped-def]
    state = game.new_game(seed)
    while state["result"] is None:
        actions = {d.player: d.sample(rand) for d in game.pending(state)}
        state = game.apply(state, actions, in_place=True)
    return int(state["round"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pack", nargs="?", default="carchase")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    started = time.perf_counter()
    game = load_pack(args.pack).game
    load_seconds = time.perf_counter() - started
    best = 0.0
    for run in range(args.repeat):
        rand = random.Random(run)
        started = time.perf_counter()
        rounds = sum(play(game, seed, rand) for seed in range(args.games))
        elapsed = time.perf_counter() - started
        rate = args.games / elapsed
        best = max(best, rate)
        print(f"run {run + 1}: {args.games} games in {elapsed:.2f} s = {rate:,.0f} games/s "
              f"(mean {rounds / args.games:.2f} rounds)")
    print(f"{args.pack}: load {load_seconds * 1000:.0f} ms; "
          f"best {best:,.0f} games/s in one process")


if __name__ == "__main__":
    main()
