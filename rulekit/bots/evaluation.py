"""How good a state is for a role: from 0 (lost) to 1 (won)."""

from __future__ import annotations

import sys
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, cast

from rulekit.bots.learned import learned_evaluation, read_weights, weights_path
from rulekit.engine.state import State
from rulekit.engine.vm import Runtime

if TYPE_CHECKING:
    from rulekit.engine.game import Game

Evaluation = Callable[["Game", State, str], float]


def outcome(game: Game, state: State, role: str) -> float:
    """1 if ``role`` has won, 0 if another has, else 0.5."""
    result = state["result"]
    if result is None or result["winner"] is None:
        return 0.5
    return 1.0 if result["winner"] == role else 0.0


_LEARNED: weakref.WeakKeyDictionary[Game, Evaluation] = weakref.WeakKeyDictionary()


def pack_evaluation(game: Game) -> Evaluation:
    """The pack's ``flow.evaluate``, squashed into 0.05..0.95; else its learned one, if
    ``rulekit train`` left one; else :func:`outcome`."""
    scores = game.program.evaluate
    if not scores:
        found = _LEARNED.get(game)
        if found is None:
            found = _LEARNED[game] = learned(game)
        return found
    program = game.program

    def evaluate(game: Game, state: State, role: str) -> float:
        if state["result"] is not None:
            return outcome(game, state, role)
        score = scores.get(role)
        if score is None:
            return 0.5
        value = float(cast(int, score(Runtime(program, state), [])))  # (checked: an int)
        return 0.05 + 0.9 * (value / (10.0 + abs(value)) + 1.0) / 2.0
    return evaluate


def learned(game: Game) -> Evaluation:
    """The learned evaluation of ``game``'s pack, or :func:`outcome` (with a note if unfit)."""
    path = weights_path(game)
    weights, note = (None, None) if path is None else read_weights(path, game)
    if note:
        print(f"note: {note}", file=sys.stderr)
    return outcome if weights is None else learned_evaluation(game, weights)


__all__ = ["Evaluation", "learned", "outcome", "pack_evaluation"]
