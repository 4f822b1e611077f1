"""Of answers to a choice of cards found as good, the search plays the best one step ahead.

At a Car Chase exchange, discarding a card the Law can play or one it cannot changes its
chances by less than the noise of the Fugitive's unseen hand. Scored on the same drawn
states, the answers differ by the cards alone, and the Law keeps the cards it needs.
"""

from __future__ import annotations

import random

import pytest

from rulekit.bots import belief as beliefs
from rulekit.bots import ismcts
from rulekit.bots.agent import View
from rulekit.engine.game import Game, State
from rulekit.pack.loader import load_pack
from rulekit.sim.simulation import seat_rng

PLAYABLE = {"I", "C", "P", "L"}  # the card types the Law plays in its contests


def exchange(game: Game, seed: int) -> State:
    """A game of ``seed`` at the Law's first exchange (a choice of cards made alone)."""
    state = game.new_game(seed)
    rand = random.Random(seed)
    while not game.pending(state)[0].prompt.startswith("Discard"):
        state = game.apply(state, {d.player: d.sample(rand) for d in game.pending(state)})
    return state


def wasted(game: Game, seed: int) -> int:
    """Points of the Law's playable cards discarded while it kept cards it cannot play."""
    state = exchange(game, seed)
    (decision,) = game.pending(state)
    view = View.of(game, "law", seat_rng(seed, "law"), state, kept=beliefs.SeatBelief())
    option = ismcts.IsmctsAgent(iterations=400).choose(view, decision)
    cards = game.symbols.cards
    out = set(option.value if isinstance(option.value, list) else [])
    kept = [c for c in decision.items if c not in out]
    if all(cards[str(c)]["type"] in PLAYABLE for c in kept):
        return 0
    return sum(int(cards[str(c)]["score"]) for c in out if cards[str(c)]["type"] in PLAYABLE
               and int(cards[str(c)]["score"]) >= 5)


@pytest.mark.parametrize("seeds", [range(0, 6), range(6, 12)])
def test_the_law_keeps_strong_cards_it_can_play_rather_than_useless_ones(
        seeds: range) -> None:
    game = load_pack("carchase").game
    assert sum(wasted(game, seed) for seed in seeds) == 0
