"""Comparing what an observer is shown: observations, logs, and the states a belief keeps."""

from __future__ import annotations

import marshal
from typing import TYPE_CHECKING, Any

from rulekit.bots.belief.logs import Event
from rulekit.engine.frozen import FrozenList, thaw

if TYPE_CHECKING:
    from rulekit.engine.game import State

Key = bytes


def state_key(state: State) -> Key:
    """What tells two states of a game apart for the future (not the log, nor the generator).
    Every state of a game has the same piles and variables, in the same order: their values
    are enough. Written out by ``marshal`` (in C, four times quicker than ``repr``) in its
    version 2, which writes no references between objects: equal values, equal bytes."""
    values = [list(state["zones"].values()), list(state["vars"].values()), state["stack"],
              state["pending"], state["committed"], state["round"], state["phase"],
              state["result"]]
    try:
        return marshal.dumps(values, 2)
    except ValueError:  # a read-only list or dict (engine/frozen), which marshal refuses
        return marshal.dumps(thaw(values), 2)


def same_view(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """True if two observations agree on everything but their logs."""
    return len(a) == len(b) and all(k == "log" or (k in b and a[k] == b[k]) for k in a)


def continues(log: list[Event], seen: list[Event]) -> bool:
    """True if ``log`` begins with ``seen``. Two read-only views of logs (``Game.observe``)
    that hold the same event at the same place hold the same events before it: each view
    extends an earlier one with events of its own."""
    size = len(seen)
    if log is seen or size == 0:
        return True
    if size > len(log):
        return False
    if log.__class__ is FrozenList and seen.__class__ is FrozenList \
            and log[size - 1] is seen[size - 1]:
        return True
    return log[:size] == seen


def hashable(value: Any) -> Any:
    """``value`` with its lists as tuples."""
    if isinstance(value, list):
        return tuple(hashable(v) for v in value)
    return value


def plain(value: Any) -> Any:
    """A plain copy of a (read-only) observed value: lists and dicts."""
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value
