"""Comparing what an observer is shown: observations, logs, and the states a belief keeps."""

from __future__ import annotations

import marshal
from collections.abc import Hashable
from typing import TYPE_CHECKING

from rulekit.engine.frozen import thaw
from rulekit.engine.observe import Observation

if TYPE_CHECKING:
    from rulekit.engine.game import State
    from rulekit.engine.state import Event

Key = bytes


def state_key(state: State) -> Key:
    """What tells two states of a game apart: all but the log and the generator."""
    values = [list(state["zones"].values()), list(state["vars"].values()), state["stack"],
              state["pending"], state["committed"], state["round"], state["phase"],
              state["result"]]
    try:
        return marshal.dumps(values, 2)
    except ValueError:  # a read-only list or dict (engine/frozen), which marshal refuses
        return marshal.dumps(thaw(values), 2)


def same_view(a: Observation, b: Observation) -> bool:
    """Whether two observations agree on everything but their logs."""
    return len(a) == len(b) and all(k == "log" or (k in b and a[k] == b[k]) for k in a)


def continues(log: list[Event], seen: list[Event]) -> bool:
    """Whether ``log`` begins with ``seen``."""
    return len(seen) <= len(log) and log[:len(seen)] == seen


def hashable(value: object) -> Hashable:
    """``value`` with its lists made tuples."""
    if isinstance(value, list):
        return tuple(hashable(v) for v in value)
    return value


def plain(value: object) -> object:
    """A plain copy of a read-only observed value: lists and dicts."""
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value
