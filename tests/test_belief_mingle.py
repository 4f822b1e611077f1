"""The cards a belief deals again: kinds stay one through draws, and apart once sorted.

On the Mingle pack a holder draws two of three cards (two A, one B) from a shuffled deck the
watcher cannot see. Whatever the holder drew, the deck's last card may be of either type. With
``sort`` the B card is first set aside face down, in public: the deck then holds only A cards.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from rulekit.bots.belief import Belief
from rulekit.engine.game import Game, State
from rulekit.pack.loader import load_pack

MINGLE = Path(__file__).parent / "packs" / "mingle"


def types_drawn(sort: int, seed: int) -> Counter[tuple[str, str]]:
    """The types a belief's draws put in each hidden pile, at the watcher's decision."""
    game: Game = load_pack(MINGLE, {"sort": sort}).game
    state: State = game.new_game(seed)
    belief = Belief(game, "watcher", random.Random(seed), seeds=1)  # one deal to start from
    belief.update(game.observe(state, "watcher"))
    kinds = game.layout.card_kind
    rng = random.Random(seed)
    found: Counter[tuple[str, str]] = Counter()
    for _ in range(60):
        drawn = belief.sample(rng)
        for key in ("deck", "aside", "hand.holder"):
            found.update((key, str(kinds[card].type)) for card in drawn["zones"][key])
    return found


@pytest.mark.parametrize("seed", range(12))
def test_the_last_card_of_a_deck_drawn_from_may_be_of_either_type(seed: int) -> None:
    found = types_drawn(0, seed)
    assert found[("deck", "A")] > 0 and found[("deck", "B")] > 0


@pytest.mark.parametrize("seed", range(6))
def test_cards_sorted_in_public_stay_apart(seed: int) -> None:
    found = types_drawn(1, seed)
    assert found[("deck", "B")] == found[("hand.holder", "B")] == found[("aside", "A")] == 0
    assert found[("deck", "A")] == found[("aside", "B")] == 60
