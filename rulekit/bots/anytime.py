"""Anytime actions that lead nowhere (a detour putting off the opponent), kept from choices."""

from __future__ import annotations

import random
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING

from rulekit.bots.belief import same_view
from rulekit.engine.decisions import Decision, Option
from rulekit.engine.observe import Observation

if TYPE_CHECKING:
    from rulekit.bots.agent import View
    from rulekit.engine.game import State

MARGIN = 0.02  # how much better than the best other option an anytime action must score


def unless_idle(best: Option, tried: list[Option], decision: Decision,
                value: Callable[[Option], float]) -> Option:
    """``best``, or the best of the question's own options if ``best`` gains no :data:`MARGIN`."""
    extras = {o.id for o in decision.extras}
    if best.id not in extras:
        return best
    own = [o for o in tried if o.id not in extras]
    if not own:
        return best
    other = max(own, key=value)
    return best if value(best) > value(other) + MARGIN else other


_IGNORED = frozenset({"log", "steps", "rng", "seed"})  # what a detour may change


def _position(state: State) -> str:
    """Where a game stands: all but its log and counters."""
    return repr([value for key, value in state.items() if key not in _IGNORED])


class Detours:
    """The anytime actions each player took along one line of play, by state."""

    __slots__ = ("taken",)

    def __init__(self) -> None:
        self.taken: dict[str, dict[str, set[str]]] = {}  # player -> position -> actions

    def barred(self, state: State, decision: Decision) -> set[str]:
        """The anytime actions ``decision``'s player may not take at ``state``."""
        taken = self.taken.get(decision.player)
        if not taken or not decision.extras:
            return set()
        return taken.get(_position(state), set())

    def took(self, state: State, decision: Decision, option_id: str) -> None:
        """Note ``decision``'s answer at ``state``, if it is an anytime action."""
        if any(o.id == option_id for o in decision.extras):
            taken = self.taken.setdefault(decision.player, {})
            taken.setdefault(_position(state), set()).add(option_id)


_seen: weakref.WeakKeyDictionary[random.Random, tuple[Observation, set[str]]] = \
    weakref.WeakKeyDictionary()  # per seat: where it last took anytime actions, and which


def idle_here(view: View) -> set[str]:
    """The anytime actions this seat took where it saw what it sees now."""
    found = _seen.get(view.rng)
    if found is None or not same_view(found[0], view.observation):
        return set()
    return found[1]


def remember(view: View, decision: Decision, option: Option) -> Option:
    """Note ``option`` if it is an anytime action; return it."""
    if any(o.id == option.id for o in decision.extras):
        _seen[view.rng] = (view.observation, idle_here(view) | {option.id})
    return option


def own_options(decision: Decision, barred: set[str]) -> list[Option]:
    """``decision``'s options but the anytime actions in ``barred``."""
    options = decision.options()
    return [o for o in options if o.id not in barred] or options if barred else options


__all__ = ["MARGIN", "Detours", "idle_here", "own_options", "remember", "unless_idle"]
