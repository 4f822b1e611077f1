"""A belief follows a card played by name that its deal had put in the observer's own hand.

On the Own Hand pack the watcher draws a card it sees, and no line names it; then the holder
plays a card by name, or passes without a word. A deal may have given the watcher the card
the holder plays: the belief must exchange the two, not follow the silent pass.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rulekit.bots.belief import Belief
from rulekit.pack.loader import load_pack

OWN_HAND = Path(__file__).parent / "packs" / "ownhand"


@pytest.mark.parametrize("seed", range(12))
def test_a_card_played_from_a_hidden_hand_is_found_in_the_observers_own(seed: int) -> None:
    game = load_pack(OWN_HAND).game
    belief = Belief(game, "watcher", random.Random(seed), particles=1, frontier=1, seeds=1)
    state = game.new_game(seed)
    belief.update(game.observe(state, "watcher"))
    state = game.apply(state, {"watcher": "now"})
    played = state["zones"]["hand.holder"][0]
    state = game.apply(state, {"holder": played})
    belief.update(game.observe(state, "watcher"))
    assert not belief.lost and belief.restarts == 0
    drawn = belief.sample(random.Random(seed))
    assert drawn["zones"]["played"] == [played]
    assert drawn["zones"]["hand.watcher"] == state["zones"]["hand.watcher"]
