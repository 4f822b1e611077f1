"""How long ``rulekit play`` takes to write its save file (atomically, with fsync), which it
does before every question to a person and after every answer.

    python benchmarks/bench_save.py [PACK] [--writes N]

Plays one random game of PACK to get a realistic list of decisions, then writes its save N
times into a temporary folder and prints the time per write, and the size of the file.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

from rulekit.pack.loader import load_pack
from rulekit.play.savefile import SavedGame, write_save


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pack", nargs="?", default="rednotice")
    parser.add_argument("--writes", type=int, default=200)
    args = parser.parse_args()
    game = load_pack(args.pack, {}).game
    state, rand, decisions = game.new_game(1), random.Random(1), []
    while state["result"] is None:
        decision = game.pending(state)[0]
        option = decision.sample(rand)
        decisions.append((decision.player, option.id))
        state = game.apply(state, {decision.player: option}, in_place=True)
    saved = SavedGame(pack=game.pack_id, version=game.version, pack_hash=game.pack_hash,
                      params=dict(game.params), seed=1, seats=dict.fromkeys(game.roles, "human"),
                      decisions=decisions)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.json"
        start = time.perf_counter()
        for _ in range(args.writes):
            write_save(path, saved)
        elapsed = time.perf_counter() - start
        size = path.stat().st_size
    print(f"{args.pack}: a game of {len(decisions)} decisions, save file {size / 1024:.1f} KB")
    print(f"write_save: {elapsed / args.writes * 1000:.2f} ms per write "
          f"({args.writes} writes)")


if __name__ == "__main__":
    main()
