"""Rollouts: the quick, rough play a search runs after its tree, on the fast playout path.

The rollout policy knows no game; it is random with two generic leanings, which make the
players of a rollout less aimless than uniform ones without costing a look-ahead:

- a subset choice ("play any of these cards") is answered most of the time with a *largest*
  subset the constraints allow (items taken in random order while they fit), otherwise with a
  uniform one;
- an optional choice is declined now and then, not as often as one option in ``n + 1``.

A rollout stops after ``depth`` decisions; the state is then left where it stopped (inside a
procedure), to be scored by an evaluation and thrown away. A rollout that meets an error of the
pack raises :class:`~rulekit.errors.GameRuntimeError` (without the place in the pack: a real
game that takes that line of play says where).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from rulekit.engine.decisions import NONE_ID, Decision, Option
from rulekit.engine.playout import Capped, playout
from rulekit.errors import GameRuntimeError

if TYPE_CHECKING:
    from rulekit.engine.game import Game, State

LARGEST = 0.75  # how often a subset choice is answered with a largest subset
DECLINE = 0.1  # how often an optional choice is declined
ANYTIME = 0.05  # how often an anytime action is taken where one is offered


def largest_subset(decision: Decision, rng: random.Random) -> list[int]:
    """The positions of a largest subset of ``decision``'s items (a subset choice) that its
    ``at most`` rules allow: items are taken in random order while they fit."""
    spec = decision.spec
    order = list(range(len(decision.items)))
    rng.shuffle(order)
    groups = [(limit, flags, [0]) for limit, flags in spec.get("at_most", ())]
    chosen: list[int] = []
    most = decision.max
    for i in order:
        if len(chosen) >= most:
            break
        if all(not flags[i] or used[0] < limit for limit, flags, used in groups):
            chosen.append(i)
            for _, flags, used in groups:
                used[0] += bool(flags[i])
    chosen.sort()
    return chosen


def largest_option(decision: Decision, rng: random.Random) -> Option | None:
    """A largest subset as an option (None if it is not a legal answer: too few items)."""
    chosen = largest_subset(decision, rng)
    if len(chosen) < decision.min:
        return None
    return decision.subset_option(chosen)  # (its size and 'at most' rules are kept)


def rollout_choice(decision: Decision, rng: random.Random) -> Option:
    """The rollout policy's answer to ``decision`` (see the module's docstring)."""
    if decision.extras and rng.random() < ANYTIME:
        return rng.choice(decision.extras)
    if decision.kind == "subset":
        if rng.random() < LARGEST:
            option = largest_option(decision, rng)
            if option is not None:
                return option
        return decision.sample(rng)
    if not decision.optional:
        return decision.sample(rng)
    if not decision.items or rng.random() < DECLINE:
        return decision.option(NONE_ID)
    option = decision.sample(rng)
    while option.id == NONE_ID:
        option = decision.sample(rng)
    return option


def rollout(game: Game, state: State, rng: random.Random, depth: int) -> None:
    """Play ``state`` (in place) with the rollout policy for at most ``depth`` decisions."""
    left = [depth]

    def choose(decision: Decision) -> Option:
        if left[0] <= 0:
            raise Capped
        left[0] -= 1
        return rollout_choice(decision, rng)

    try:
        playout(game, state, {role: choose for role in game.roles})
    except Exception as exc:  # the fast path's errors are plain Python ones
        raise GameRuntimeError(f"a rollout failed: {type(exc).__name__}: {exc}") from exc


__all__ = ["largest_option", "largest_subset", "rollout", "rollout_choice"]
