"""Moves and draws in playouts: the same cards end in the same order as in a normal game, and
a card that is not where a move takes it from is the located error of a normal game.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulekit.engine.game import Game
from rulekit.engine.playout import playout
from rulekit.errors import GameRuntimeError
from tests.helpers_lang import content, load, locate
from tests.test_playout import check_playouts, normally, samplers

# Every kind of move: one card and a list of cards, onto and under a zone, all the cards of a
# zone onto and under another (and onto itself), draws of more cards than a zone holds.
MOVES = """\
    let k = choose a one of [0, 1, 2, 5] prompt "k"
    draw k from deck to hand[a]
    let c = choose b one of hand[a] optional prompt "c"
    if c != none { move c from hand[a] to hand[b] bottom }
    let s = choose a subset of hand[a] prompt "s"
    move s from hand[a] to discard
    let t = choose b subset of hand[b] prompt "t"
    move t from hand[b] to deck bottom
    if count(deck) < 2 { move all from discard to deck bottom }
    if count(hand[b]) > 2 { move all from hand[b] to discard }
    move all from hand[a] to hand[a]
    if count(discard) > 3 { move all from discard to deck }
    total = count(deck) * 10 + count(discard)
"""


def moves_pack(tmp_path: Path) -> Game:
    text = content(setup="shuffle deck", phases={"main": MOVES}, rounds="6",
                   after_rounds='if total > 30 { win a "Deep." } else { win b "Shallow." }')
    return load(tmp_path, text).game


def test_moves_of_every_kind_play_the_games_of_the_normal_path(tmp_path: Path) -> None:
    check_playouts(moves_pack(tmp_path), 13, decisions=True)


def test_a_card_moved_from_where_it_is_not_in_a_playout_is_the_error_of_a_normal_game(
        tmp_path: Path) -> None:
    main = ('let c = choose a one of deck prompt "c"\nmove c from deck to hand[a]\n'
            "move c from deck to discard")
    text = content(phases={"main": main})
    game = load(tmp_path, text).game
    with pytest.raises(GameRuntimeError) as normal:
        normally(game, 0)
    with pytest.raises(GameRuntimeError) as info:
        playout(game, game.initial_state(0), samplers(0, game))
    assert info.value.message == normal.value.message
    assert "is not in zone 'deck'" in info.value.message
    loc = info.value.location
    assert loc == normal.value.location
    assert loc is not None and (loc.line, loc.column) == locate(text, "move c from deck to d")
