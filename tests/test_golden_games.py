"""Golden games: the final states of random games of each shipped pack stay byte for byte the same.

A change meant only to make the engine faster must not change any game. Each pack plays
``GAMES`` random games (seeds ``derive(GOLDEN_SEED, i)``, each seat drawing from its own
generator, as ``rulekit simulate`` does); the SHA-256 of the JSON of every final state (log
included) is folded into one digest per pack, kept in ``golden_games.json``.

When a change alters games on purpose (a new rule, a fix of the language), regenerate the file
and say so in the commit message:

    python tests/test_golden_games.py --write
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from rulekit.engine.game import Game
from rulekit.engine.rng import derive
from rulekit.pack.loader import load_pack
from rulekit.sim.simulation import seat_rng

GOLDEN_FILE = Path(__file__).with_name("golden_games.json")
GOLDEN_SEED = 2024
GAMES = {"carchase": 300, "rednotice": 200}


def final_state(game: Game, seed: int, *, quiet: bool = False) -> dict[str, Any]:
    """The final state of a random game from ``seed``."""
    rngs = {role: seat_rng(seed, role) for role in game.roles}
    state = game.new_game(seed, quiet=quiet)
    while state["result"] is None:
        actions = {d.player: d.sample(rngs[d.player]) for d in game.pending(state)}
        state = game.apply(state, actions, in_place=True)
    return state


def digests(pack: str) -> dict[str, Any]:
    """The digest of the final states (log included) and winner counts of a pack's games."""
    game = load_pack(pack).game
    whole = hashlib.sha256()
    wins: dict[str, int] = {}
    for i in range(GAMES[pack]):
        state = final_state(game, derive(GOLDEN_SEED, i))
        whole.update(hashlib.sha256(json.dumps(state).encode()).digest())
        winner = str(state["result"]["winner"])
        wins[winner] = wins.get(winner, 0) + 1
    return {"games": GAMES[pack], "wins": dict(sorted(wins.items())),
            "sha256": whole.hexdigest()}


@pytest.mark.slow
@pytest.mark.parametrize("pack", sorted(GAMES))
def test_random_games_end_as_before(pack: str) -> None:
    expected = json.loads(GOLDEN_FILE.read_text())[pack]
    assert digests(pack) == expected, (
        "the games of this pack changed; if that is meant, run "
        "'python tests/test_golden_games.py --write' and say why in the commit")


@pytest.mark.parametrize(("pack", "games"), [("carchase", 100), ("rednotice", 20)])
def test_quiet_games_go_as_games_with_a_log(pack: str, games: int) -> None:
    game = load_pack(pack).game
    for i in range(games):
        seed = derive(GOLDEN_SEED, i)
        loud, quiet = final_state(game, seed), final_state(game, seed, quiet=True)
        assert loud["log"] and not [e for e in quiet["log"] if e["e"] != "choice"]
        assert quiet.pop("quiet") is True
        # A quiet game builds no log texts: it counts fewer steps, and plays the same.
        assert quiet.pop("steps") <= loud.pop("steps")
        del loud["log"], quiet["log"]
        assert quiet == loud


def main() -> None:
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python tests/test_golden_games.py --write")
    figures = {pack: digests(pack) for pack in sorted(GAMES)}
    GOLDEN_FILE.write_text(json.dumps(figures, indent=2) + "\n")
    print(f"wrote {GOLDEN_FILE}")


if __name__ == "__main__":
    main()
