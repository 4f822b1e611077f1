"""A game's layout: its piles and values, and what each role cannot see."""

from __future__ import annotations

import pytest

from rulekit.engine.hidden import HiddenPile, Kind
from rulekit.pack.loader import load_pack


def test_the_law_cannot_see_the_deck_nor_the_fugitives_hand() -> None:
    layout = load_pack("carchase").game.layout
    assert layout.hidden_piles["law"] == (HiddenPile("deck", False),
                                          HiddenPile("hand.fugitive", False))
    assert [value.key for value in layout.values if not value.seen_by("law")] == []


def test_jessah_cannot_see_angelas_place_checks_and_identities() -> None:
    game = load_pack("rednotice").game
    layout = game.layout
    hidden = dict(layout.hidden_piles["jessah"])
    assert {"checks.angela", "drawn.angela", "identities", "stack.jessah"} <= hidden.keys()
    assert not {"checks.jessah", "drawn.jessah", "face_up.1"} & hidden.keys()
    assert hidden["face_down.1"] is True  # a face-down pile shows Jessah her own tokens
    assert [v.key for v in layout.values if not v.seen_by("jessah")] == \
        ["angela_at", "triggered", "ignore_barriers"]
    assert layout.card_kind["j_tok_pow"] == Kind("token", "jessah")
    assert layout.card_owner["a_tok_4"] == "angela"
    assert layout.keys_of("face_down", 8) == [f"face_down.{i}" for i in range(1, 9)]
    state = game.initial_state(0)
    assert state["vars"] == layout.initial_values
    assert list(state["zones"]) == [pile.key for pile in layout.piles]
    assert state["zones"]["box"][-1] == "act_01"  # the first card listed lies on top


def test_the_layout_is_read_only() -> None:
    layout = load_pack("carchase").game.layout
    with pytest.raises(TypeError):
        layout.card_owner["x"] = "law"
    with pytest.raises(TypeError):
        layout.hidden_piles["law"] = ()
