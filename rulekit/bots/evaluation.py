"""How good a state is for a role: from 0 (lost) to 1 (won)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, cast

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


def pack_evaluation(game: Game) -> Evaluation:
    """The pack's ``flow.evaluate``, squashed into 0.05..0.95, or :func:`outcome` if none."""
    scores = game.program.evaluate
    if not scores:
        return outcome
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


__all__ = ["Evaluation", "outcome", "pack_evaluation"]
