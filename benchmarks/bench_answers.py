"""The quick answers of random seats (``rt.choose_one``, ``rt.choose_subset``) against the
spec's path (``rt.answer``), in turns in one process.

    python benchmarks/bench_answers.py PACK [--games N] [--turns T]

The pack is compiled twice: as it is, and with ``lang.choicecode.QUICK`` off (every choice of
playout code calls ``rt.answer`` with its spec maker, as before the quick answers). Both play
the same random games as ``rulekit simulate`` does (``play_game``), N games a turn, in turns, so
that other work on a shared machine disturbs both alike. Prints games/s by CPU time
(``time.process_time``) for each, the median of the turns, and the median of the ratios of
the turns. Nothing here is a pass/fail test.
"""

from __future__ import annotations

import argparse
import statistics
import time

from rulekit.engine.game import Game
from rulekit.engine.rng import derive
from rulekit.lang import choicecode
from rulekit.pack.loader import load_pack
from rulekit.sim.simulation import play_game


def compiled(pack: str, quick: bool) -> Game:
    """The pack's game, its playout code written with quick answers or without."""
    saved = choicecode.QUICK
    choicecode.QUICK = quick
    try:
        game = load_pack(pack).game
        if game.program.build_playout is not None:  # (playout code is written when first met)
            game.program.build_playout()
    finally:
        choicecode.QUICK = saved
    return game


def rate(game: Game, first: int, games: int) -> float:
    started = time.process_time()
    for i in range(first, first + games):
        play_game(game, derive(0, i))
    return games / (time.process_time() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pack")
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--turns", type=int, default=8)
    args = parser.parse_args()
    games = {"spec": compiled(args.pack, False), "quick": compiled(args.pack, True)}
    if games["spec"].program is games["quick"].program:
        raise SystemExit("the pack was compiled once only: nothing to compare")
    for game in games.values():
        rate(game, 0, 3)  # warm up
    rates: dict[str, list[float]] = {name: [] for name in games}
    for turn in range(args.turns):
        order = list(games) if turn % 2 == 0 else list(reversed(games))
        for name in order:
            rates[name].append(rate(games[name], 1000 + turn * args.games, args.games))
    for name, figures in rates.items():
        print(f"{name:>5}: {statistics.median(figures):8.1f} games/s "
              f"(turns: {', '.join(f'{f:.0f}' for f in figures)})")
    ratios = [q / s for q, s in zip(rates["quick"], rates["spec"], strict=True)]
    print(f"quick / spec: {statistics.median(ratios):.3f}")


if __name__ == "__main__":
    main()
