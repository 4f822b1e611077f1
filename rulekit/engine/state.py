"""A game state and its parts, typed as plain JSON data; and how to copy it."""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict, TypeVar, cast

from rulekit.engine.frozen import FrozenDict, thaw
from rulekit.model.program import Frame

__all__ = ["ChoiceEvent", "EndEvent", "Event", "Frame", "LogEvent", "Reason", "Refusal",
           "Result", "Rule", "Spec", "State", "Value", "copy_state", "read_only"]

Value = Any  # of the effect language: a number, a text, true or false, none, or a list
Reason = list[Any]  # a text of the pack with its fields: [text id, [field values]]
Rule = list[Any]  # an 'at most' rule of a subset choice: [limit, [1 or 0 for each item]]
Refusal = list[Any]  # a candidate a choice refuses, with why: [candidate, reason]


class Spec(TypedDict):
    """A pending decision, as a ``choose`` statement asks it."""

    player: str
    kind: Literal["one", "subset"]
    prompt: str
    items: list[Value]  # the candidates, in the order they are offered
    slot: int  # the local that takes the answer
    optional: NotRequired[bool]  # (one) it may be declined
    min: NotRequired[int]  # (subset) the fewest items
    max: NotRequired[int]  # (subset) the most items
    at_most: NotRequired[list[Rule]]  # (subset) its 'at most' rules
    ask: NotRequired[bool]  # asked even with one legal answer (it may tell a secret)
    ids: NotRequired[list[str]]  # the option id of each item
    refused: NotRequired[list[Refusal]]  # the candidates refused, and why
    labels: NotRequired[list[Reason]]  # the pack's label of each candidate
    min_why: NotRequired[Reason]
    max_why: NotRequired[Reason]
    at_most_why: NotRequired[list[Reason | None]]


class LogEvent(TypedDict):
    """A ``log`` line: its text id and its field values."""

    e: Literal["log"]
    to: str | None  # the role that sees it, or None for everyone
    at: int
    args: list[Value]
    round: int


class ChoiceEvent(TypedDict):
    """A player's answer, seen by that player only, or an anytime action taken."""

    e: Literal["choice"]
    to: str
    player: str
    option: str
    value: NotRequired[Value]
    label: NotRequired[str]  # an anytime action's
    round: int


class EndEvent(TypedDict):
    """The end of the game."""

    e: Literal["end"]
    to: None
    winner: str | None
    reason: str
    round: int


Event = LogEvent | ChoiceEvent | EndEvent


class Result(TypedDict):
    """How a game ended."""

    winner: str | None
    reason: str
    round: int


class State(TypedDict):
    """A game in progress, as plain data that JSON round-trips."""

    format: int
    pack: str
    seed: int
    rng: int  # the game's generator (engine/rng)
    round: int
    phase: str | None
    zones: dict[str, list[str]]  # each pile's cards, bottom first
    vars: dict[str, Value]
    stack: list[Frame]  # where the interpreter stands, innermost last
    pending: list[Spec]  # the decisions it waits for
    committed: dict[str, str]  # the answers given so far to ``pending``, by player
    log: list[Event]
    result: Result | None
    steps: int  # steps run so far, counted against the step budget between decisions
    quiet: NotRequired[bool]  # a game that builds no log lines (its choices are kept)


_E = TypeVar("_E", LogEvent, ChoiceEvent, EndEvent)


def read_only(event: _E) -> _E:
    """``event`` as a game with a log keeps it: read-only (``engine/frozen``)."""
    return cast(_E, FrozenDict(event))


_KNOWN = frozenset(State.__annotations__)


def copy_state(state: State) -> State:
    """A copy of a state that behaves as a deep copy, and shares what is never changed.

    **Once stored in a state, a value is never changed in place** (generated code keeps the rule,
    ``tests/test_state_copies.py`` checks it) except the dicts ``zones``, ``vars`` and
    ``committed``, the lists ``stack``, ``pending`` and ``log``, each frame, its locals (a loop's
    ``[items, position]``) and each zone's cards: those are copied.
    """
    new = state.copy()
    new["zones"] = {key: cards[:] for key, cards in state["zones"].items()}
    new["vars"] = state["vars"].copy()
    new["stack"] = [{"proc": frame["proc"], "pc": frame["pc"],
                     "locals": [value[:] if value.__class__ is list else value
                                for value in frame["locals"]]}
                    for frame in state["stack"]]
    new["pending"] = state["pending"][:]
    new["committed"] = state["committed"].copy()
    new["log"] = state["log"][:]
    for key in state.keys() - _KNOWN:  # (keys a caller added: copied whole)
        cast(dict[str, Any], new)[key] = thaw(state[key])  # type: ignore[literal-required]
    return new
