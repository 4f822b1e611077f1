"""The belief's rescue moves the cards R's log is about to name where the other player can
choose them, also when the log names cards of several kinds (a Check cashed, then a token)."""

from __future__ import annotations

from rulekit.bots.belief.deal import gather, hidden_cards
from rulekit.pack.loader import load_pack


def test_a_named_card_is_gathered_even_if_another_named_card_fits_no_pile() -> None:
    """Angela's belief of a Red Notice game was lost in round 1: Jessah cashed a Check that
    every state kept in the deck, and the next event named one of her tokens; no single pile
    took both, so the Check was never swapped into Jessah's hand."""
    game = load_pack("rednotice").game
    state = game.new_game(0)
    hidden = hidden_cards(game, state, "angela")
    check = next(c for c in state["zones"]["check_deck"] if c in hidden)
    token = next(c for c in state["zones"]["stack.jessah"] if c in hidden)
    mapping = gather(game, state, "jessah", hidden, [check, token], [])
    assert mapping.get(check) in state["zones"]["checks.jessah"]
    assert token not in mapping
