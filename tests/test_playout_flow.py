"""The flow of a playout (setup, rounds of phases, what follows the last round) runs as one
plain function (``engine/rounds``): the games are those of the normal path, an ``end_round``
skips the rest of its round, and a failure (an ``end_round`` outside the rounds, rounds that
never ask anything) is the located error of a normal game.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulekit.engine.game import Game
from rulekit.engine.playout import playout
from rulekit.errors import GameRuntimeError
from rulekit.model.program import MAIN
from tests.helpers_lang import content, load
from tests.test_playout import check_playouts, normally, samplers

# Three phases; the second ends the round at times, before the third; the game may end in a
# phase (win), after the rounds (win), or with no winner.
PHASES = {
    "deal": 'log "round {round}"\ndraw 1 from deck to hand[a]',
    "cut": ('let k = choose a one of [1, 2, 3] prompt "k"\ntotal += k\n'
            'if k == 3 { log "cut at {round}"\n  end_round }'),
    "tail": ('let c = choose b one of hand[a] optional prompt "c"\n'
             'if c != none { move c from hand[a] to hand[b] }\n'
             'if total > 7 { win b "Many." }'),
}
AFTER = 'if count(hand[b]) > 2 { win a "Cards." }'


def flow_pack(tmp_path: Path) -> Game:
    text = content(setup="shuffle deck", phases=PHASES, rounds="5", after_rounds=AFTER)
    return load(tmp_path, text).game


def test_the_flow_of_a_playout_plays_the_games_of_the_normal_path(tmp_path: Path) -> None:
    game = flow_pack(tmp_path)
    assert MAIN in game.program.runs  # the flow runs as one function
    states = check_playouts(game, 3, decisions=True)
    ends = {state["result"]["reason"] for state in states}
    assert ends == {"Many.", "Cards.", "the last round is over"}


def _failure(game: Game) -> tuple[GameRuntimeError, GameRuntimeError]:
    """The error of a playout, and that of the same game played normally."""
    with pytest.raises(GameRuntimeError) as normal:
        normally(game, 0)
    with pytest.raises(GameRuntimeError) as info:
        playout(game, game.initial_state(0), samplers(0, game))
    return info.value, normal.value


def test_end_round_in_the_setup_of_a_playout_is_the_error_of_a_normal_game(
        tmp_path: Path) -> None:
    game = load(tmp_path, content(setup="end_round", phases=PHASES)).game
    error, normal = _failure(game)
    assert error.message == normal.message
    assert "end_round can only be used during the rounds" in error.message
    assert error.location == normal.location


def test_rounds_that_never_ask_run_out_of_steps_in_a_playout(tmp_path: Path) -> None:
    game = load(tmp_path, content(phases={"one": "pass", "two": "pass"},
                                  rounds="1000000000")).game
    error, normal = _failure(game)
    assert error.message == normal.message
    assert "without waiting for a decision" in error.message
    assert error.location == normal.location
