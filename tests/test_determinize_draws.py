"""Draws from a belief brought up to date: what each new deal may and must move."""

from __future__ import annotations

import random
from collections import defaultdict

from rulekit.bots.belief import Belief
from rulekit.bots.cards import Deal, redeal
from rulekit.engine.game import copy_state
from rulekit.pack.loader import load_pack
from tests.test_belief import contest_state


def test_a_deal_moves_each_card_to_every_unseen_place_of_its_kind_and_no_other() -> None:
    game = load_pack("carchase").game
    state = contest_state(game)
    deal = Deal(game, state, "law")
    kinds = game._card_kinds
    places: dict[str, set[tuple[str, int]]] = defaultdict(set)
    rand = random.Random(0)
    for _ in range(300):
        drawn = copy_state(state)
        redeal(game, drawn, "law", rand, deal)
        for key, pile in drawn["zones"].items():
            assert len(pile) == len(state["zones"][key])
            for index, card in enumerate(pile):
                places[card].add((key, index))
    assert state["zones"]["hand.fugitive"]  # the Law cannot see it: its cards are dealt again
    for card, where in places.items():
        kind_places = {(key, index) for key, pile in state["zones"].items()
                       for index, other in enumerate(pile) if kinds[other] == kinds[card]}
        assert where <= kind_places  # never where a card of another kind lay
    deck = state["zones"]["deck"]
    pooled = [card for pool in deal.pools for card in pool]
    for card in pooled:  # each card of a pool reaches every place of its pool
        same = {(key, i) for key, pile in state["zones"].items() for i, c in enumerate(pile)
                if c in pooled and kinds[c] == kinds[card]}
        assert places[card] == same, card
    assert any(card in deck for card in pooled)


def test_particles_with_the_same_cards_but_other_answers_watch_other_cards() -> None:
    """The layout a draw deals from is shared by particles with the same cards in the same
    places only if their pending decisions name the same cards."""
    game = load_pack("carchase").game
    state = contest_state(game)
    belief = Belief(game, "law", random.Random(1))
    hand = state["zones"]["hand.fugitive"]
    one, two = copy_state(state), copy_state(state)
    one["committed"] = {"fugitive": hand[0]}
    two["committed"] = {"fugitive": hand[1]}
    one["pending"] = two["pending"] = [s for s in state["pending"] if s["player"] == "law"]
    watched = [{card for _, _, card in belief._deal(s).watched} for s in (one, two)]
    assert watched == [{hand[0]}, {hand[1]}]
