"""A new game starts from the pack's setup, whatever earlier games of the same Game did.

``Game.initial_state`` copies each zone's starting cards from a table made once per Game: a
game that moves, shuffles or empties its piles must leave the next game's start as it was.
"""

from __future__ import annotations

import json

import pytest

from rulekit.engine.rng import derive
from rulekit.pack.loader import load_pack
from rulekit.sim.simulation import play_game


@pytest.mark.parametrize("pack", ["carchase", "rednotice"])
def test_a_game_leaves_the_next_games_start_as_it_was(pack: str) -> None:
    game = load_pack(pack).game
    before = json.dumps(game.initial_state(7))
    state = game.initial_state(7)
    for cards in state["zones"].values():  # a game that changes its piles in place
        cards.reverse()
        cards.append("x")
    play_game(game, derive(0, 1))  # and whole games, played out
    after = game.initial_state(7)
    assert json.dumps(after) == before
    assert json.dumps(load_pack(pack).game.initial_state(7)) == before  # as a fresh Game's
    assert any(after["zones"].values()), "some pile starts with cards"
