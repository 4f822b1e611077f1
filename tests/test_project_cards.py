"""``bots/cards.project_cards``: a state's cards made to show what an observation shows."""

from __future__ import annotations

import random
from typing import Any

from rulekit.bots.belief.deal import project_cards
from rulekit.engine.game import Game, copy_state
from rulekit.pack.loader import load_pack


def _game_and_states(count: int) -> tuple[Game, list[dict[str, Any]]]:
    game = load_pack("carchase").game
    rand = random.Random(3)
    state = game.new_game(7)
    states: list[dict[str, Any]] = []
    while state["result"] is None and len(states) < count:
        states.append(copy_state(state))
        state = game.apply(state, {d.player: d.sample(rand) for d in game.pending(state)})
    return game, states


def test_a_state_is_made_to_show_each_observation_it_is_projected_on() -> None:
    game, states = _game_and_states(12)
    for state in states:
        observation = game.observe(state, "law")
        assert project_cards(copy_state(state), observation) == 0  # it shows it already
        hand, deck = state["zones"]["hand.law"], state["zones"]["deck"]
        if not hand or not deck:
            continue
        swapped = copy_state(state)  # a card the Law sees traded with one it cannot see
        swapped["zones"]["hand.law"][0], swapped["zones"]["deck"][-1] = deck[-1], hand[0]
        assert game.observe(swapped, "law")["zones"] != observation["zones"]
        assert project_cards(swapped, observation) >= 1
        assert game.observe(swapped, "law")["zones"] == observation["zones"]
        short = copy_state(state)  # a pile of another size than the one shown
        short["zones"]["deck"] = short["zones"]["deck"][1:]
        assert project_cards(short, observation) == -1


def test_each_observation_is_read_anew_not_the_one_before() -> None:
    """The piles an observation shows are kept for the next state projected on the same one:
    another observation (of another state, or of another role) is read again."""
    game, states = _game_and_states(6)
    first, later = states[1], states[5]
    seen_first = game.observe(first, "law")
    assert project_cards(copy_state(first), seen_first) == 0
    seen_later = game.observe(later, "law")
    assert project_cards(copy_state(first), seen_later) != 0  # the Law saw other cards
    assert project_cards(copy_state(later), seen_later) == 0
    seen_by_fugitive = game.observe(later, "fugitive")
    moved = copy_state(later)
    hand, deck = moved["zones"]["hand.fugitive"], moved["zones"]["deck"]
    hand[0], deck[-1] = deck[-1], hand[0]
    assert project_cards(moved, seen_by_fugitive) >= 1
    assert game.observe(moved, "fugitive")["zones"] == seen_by_fugitive["zones"]
