"""Anytime actions (options offered beside a question) that lead nowhere, for the agents.

An anytime action opens a question of its own; declining there goes back to the question it
interrupted, with nothing changed. A search that scores the state where it stops prefers such a
detour wherever the opponent's next move is bad news: the detour puts that move off beyond what
the search looks at (a horizon effect), so taking the action and declining it again and again
looked best and a game did not move on. Three rules stop that:

- :func:`unless_idle`: at the root, an anytime action must score :data:`MARGIN` more than the
  best of the question's own options;
- :class:`Detours` (inside a search): an anytime action is not offered again to a player back
  at a state where it took that action earlier in the same line of play;
- :func:`idle_here` / :func:`remember` (at the table): a seat back at a question where it took
  an anytime action, seeing exactly what it saw then (its log aside), is not offered it again.
"""

from __future__ import annotations

import random
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rulekit.bots.belief import same_view
from rulekit.engine.decisions import Decision, Option

if TYPE_CHECKING:
    from rulekit.bots.agent import View
    from rulekit.engine.game import State

MARGIN = 0.02  # how much better than the best other option an anytime action must score


def unless_idle(best: Option, tried: list[Option], decision: Decision,
                value: Callable[[Option], float]) -> Option:
    """``best``, unless it is an anytime action that does not score :data:`MARGIN` more than
    the best of the decision's own options: then that one."""
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
    """What tells where a game stands apart, for coming back to it (not the log or counters)."""
    return repr([value for key, value in state.items() if key not in _IGNORED])


class Detours:
    """The anytime actions each player took along one line of play, by the state where it took
    them: back at that state, the player is not offered them again. A state's position is
    worked out only where an anytime action is taken, or offered to a player that took one."""

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
        """Notes ``decision``'s answer at ``state`` (not yet applied), if it is an anytime
        action."""
        if any(o.id == option_id for o in decision.extras):
            taken = self.taken.setdefault(decision.player, {})
            taken.setdefault(_position(state), set()).add(option_id)


# Per seat (its generator belongs to one game and seat): the observation at which it last took
# anytime actions, and which.
_seen: weakref.WeakKeyDictionary[random.Random, tuple[dict[str, Any], set[str]]] = \
    weakref.WeakKeyDictionary()


def idle_here(view: View) -> set[str]:
    """The anytime actions the seat of ``view`` took where it sees exactly what it sees now:
    it went round and came back, they are not to be taken again here."""
    found = _seen.get(view.rng)
    if found is None or not same_view(found[0], view.observation):
        return set()
    return found[1]


def remember(view: View, decision: Decision, option: Option) -> Option:
    """Notes ``option`` (returned) if it is an anytime action the seat takes now."""
    if any(o.id == option.id for o in decision.extras):
        _seen[view.rng] = (view.observation, idle_here(view) | {option.id})
    return option


def own_options(decision: Decision, barred: set[str]) -> list[Option]:
    """``decision``'s options but the anytime actions in ``barred``."""
    options = decision.options()
    return [o for o in options if o.id not in barred] or options if barred else options


__all__ = ["MARGIN", "Detours", "idle_here", "own_options", "remember", "unless_idle"]
