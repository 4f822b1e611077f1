"""Rollouts: the quick, random play a search runs after its tree, for ``depth`` decisions."""

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
    """The positions of a largest subset of ``decision``'s items, taken in random order."""
    order = list(range(len(decision.items)))
    rng.shuffle(order)
    return subset_in_order(decision, order, decision.max)


def subset_in_order(decision: Decision, order: list[int], size: int) -> list[int]:
    """The positions of at most ``size`` items, taken in ``order`` where the rules allow."""
    rules = [(limit, flags) for limit, flags in decision.spec.get("at_most", [])]
    used = [0] * len(rules)
    chosen: list[int] = []
    for i in order:
        if len(chosen) >= size:
            break
        if _take(i, rules, used):
            chosen.append(i)
    chosen.sort()
    return chosen


def _take(i: int, rules: list[tuple[int, list[int]]], used: list[int]) -> bool:
    """Whether item ``i`` fits the ``at most`` rules; if so, count it."""
    if any(flags[i] and used[r] >= limit for r, (limit, flags) in enumerate(rules)):
        return False
    for r, (_, flags) in enumerate(rules):
        used[r] += bool(flags[i])
    return True


def largest_option(decision: Decision, rng: random.Random) -> Option | None:
    """A largest subset as an option; None if it is too small."""
    chosen = largest_subset(decision, rng)
    if len(chosen) < decision.min:
        return None
    return decision.subset_option(chosen)


def rollout_choice(decision: Decision, rng: random.Random) -> Option:
    """The rollout policy's answer to ``decision``."""
    if decision.extras and rng.random() < ANYTIME:
        return rng.choice(decision.extras)
    if decision.kind == "subset":
        return _subset_choice(decision, rng)
    if not decision.optional:
        return decision.sample(rng)
    return _optional_choice(decision, rng)


def _subset_choice(decision: Decision, rng: random.Random) -> Option:
    """A largest subset :data:`LARGEST` of the time, else a uniform one."""
    if rng.random() < LARGEST:
        option = largest_option(decision, rng)
        if option is not None:
            return option
    return decision.sample(rng)


def _optional_choice(decision: Decision, rng: random.Random) -> Option:
    """``none`` :data:`DECLINE` of the time, else a uniform item."""
    if not decision.items or rng.random() < DECLINE:
        return decision.option(NONE_ID)
    option = decision.sample(rng)
    while option.id == NONE_ID:
        option = decision.sample(rng)
    return option


def rollout(game: Game, state: State, rng: random.Random, depth: int) -> None:
    """Play ``state`` in place, for at most ``depth`` decisions."""
    left = [depth]

    def choose(decision: Decision) -> Option:
        if left[0] <= 0:
            raise Capped
        left[0] -= 1
        return rollout_choice(decision, rng)

    try:
        playout(game, state, {role: choose for role in game.roles})
    except Exception as exc:  # the playout path's errors are plain Python ones
        raise GameRuntimeError(f"a rollout failed: {type(exc).__name__}: {exc}") from exc


__all__ = ["largest_option", "largest_subset", "rollout", "rollout_choice", "subset_in_order"]
