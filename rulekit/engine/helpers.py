"""Small functions and signals that generated code calls at run time."""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypeVar, cast

from rulekit.limits import MAX_INT, MAX_LIST_ITEMS, MAX_TEXT_CHARS
from rulekit.model.program import MAIN

if TYPE_CHECKING:
    from rulekit.engine.vm import Runtime

_T = TypeVar("_T")


class StopGame(Exception):
    """Raised by generated code when the game has just ended."""


class EndRound(Exception):
    """Raised by generated code for ``end_round``; the interpreter unwinds to the flow."""


class BudgetExceeded(Exception):
    """Raised when a game runs past its step budget without a decision."""


def pile_name(key: str) -> str:
    """A pile's key as the pack writes it: ``hand.west`` is ``hand[west]``."""
    name, dot, index = key.partition(".")
    return f"{name}[{index}]" if dot else key


def move(src: list[str], dst: list[str], value: str | list[str], bottom: bool, src_key: str
         ) -> list[str]:
    """Move a card or a list of cards onto (or under) ``dst``; return the cards moved."""
    cards = [value] if value.__class__ is str else list(value)
    for card in cards:
        try:
            src.remove(card)
        except ValueError:
            raise LookupError(f"card '{card}' is not in zone '{pile_name(src_key)}'") from None
        if bottom:
            dst.insert(0, card)
        else:
            dst.append(card)
    return cards


def move_all(src: list[str], dst: list[str], bottom: bool, keep: bool = False) -> list[str]:
    """Move every card of ``src`` in order onto (or under) ``dst``; return them if ``keep``."""
    if src is dst:
        return []
    cards = list(src) if keep else []
    if bottom:
        dst[:0] = src
    else:
        dst.extend(src)
    src.clear()
    return cards


def draw(src: list[str], dst: list[str], count: int) -> list[str]:
    """Move up to ``count`` cards one by one from the top of ``src`` onto ``dst``; return them."""
    k = min(count, len(src))
    if k <= 0:
        return []
    taken = src[-k:]
    del src[-k:]
    taken.reverse()
    dst.extend(taken)
    return taken


def call(rt: Runtime, name: str, args: list[object]) -> None:
    """Push a frame for a procedure that may stop for decisions."""
    args.extend([None] * (rt.program.procs[name].nslots - len(args)))
    rt.stack.append({"proc": name, "pc": 0, "locals": args})


def end_round(rt: Runtime) -> None:
    """Unwind the frames to the flow and jump to the end of the round."""
    stack = rt.stack
    main = stack[0] if stack and stack[0]["proc"] == MAIN else None
    program = rt.program
    if main is None or not program.round_start_pc < main["pc"] <= program.round_end_pc:
        raise LookupError("end_round can only be used during the rounds, not in setup or "
                          "after the last round")
    del stack[1:]
    main["pc"] = program.round_end_pc


def no_item(key: str) -> None:
    """Raised when code names a numbered zone or variable out of range."""
    raise LookupError(missing(key))


def missing(key: object) -> str:
    """The message for a pile or value that does not exist, as the pack writes it."""
    if isinstance(key, str) and "." in key:  # the key of one pile: its name and index
        return f"{pile_name(key)} does not exist"
    return f"no such item: {key!r}"


def full(zone: str, capacity: int) -> None:
    """Raised when a move would overfill a zone with a capacity."""
    raise LookupError(f"zone '{zone}' holds at most {capacity} card"
                      f"{'' if capacity == 1 else 's'}")


def as_text(value: object) -> str:
    """A value as the effect language writes it: ``none``, ``true``, ``[1, 2]``."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(as_text(v) for v in value) + "]"
    return str(value)


def snapshot(value: _T) -> _T:
    """A copy of a list, so a log event keeps the cards as they were."""
    return cast(_T, list(value)) if isinstance(value, list) else value


def end_checks(rt: Runtime) -> None:
    """Run the pack's end conditions; the first that holds ends the game."""
    for condition, winner, reason in rt.program.end_checks:
        if condition(rt, []):
            rt.finish(winner, reason)
            raise StopGame


def over_budget(rt: Runtime) -> None:
    raise BudgetExceeded


# ------------------------------------------------------------------ sizes of values
# Bounds no real game reaches (rulekit/limits.py), so that no pack costs more than a moment.

INT_LIMIT = MAX_INT  # integers stay within -INT_LIMIT..INT_LIMIT
TEXT_LIMIT = MAX_TEXT_CHARS  # characters of a text
LIST_LIMIT = MAX_LIST_ITEMS  # items of a list


class LimitExceeded(ValueError):
    """A value grew past a size limit: a located run-time error."""


def checked(value: _T) -> _T:
    """``value``, or :class:`LimitExceeded` if it is too large."""
    if value.__class__ is int:
        if -INT_LIMIT <= value <= INT_LIMIT:  # type: ignore[operator]
            return value
        raise LimitExceeded("an integer is out of range: numbers must stay within "
                            f"-{INT_LIMIT:,} and {INT_LIMIT:,} (2^63 - 1)")
    if isinstance(value, str) and len(value) > TEXT_LIMIT:
        raise LimitExceeded(f"a text is too long: texts hold at most {TEXT_LIMIT:,} characters")
    if isinstance(value, list) and len(value) > LIST_LIMIT:
        raise LimitExceeded(f"a list is too long: lists hold at most {LIST_LIMIT:,} items")
    return value


def add(a: object, b: object) -> object:
    """``a + b`` (numbers, texts or lists), within the size limits."""
    if a.__class__ is int and b.__class__ is int:  # the usual case, in short
        total = operator.add(a, b)
        if -INT_LIMIT <= total <= INT_LIMIT:
            return total
    if isinstance(a, list) and isinstance(b, list) and len(a) + len(b) > LIST_LIMIT:
        return checked(a + b[:LIST_LIMIT + 1])  # (never builds a huge list to refuse it)
    if isinstance(a, str) and isinstance(b, str) and len(a) + len(b) > TEXT_LIMIT:
        return checked(a + b[:TEXT_LIMIT + 1])
    return checked(operator.add(a, b))


def sub(a: int, b: int) -> int:
    """``a - b``, within the size limits."""
    if a.__class__ is int and b.__class__ is int:
        difference = a - b
        if -INT_LIMIT <= difference <= INT_LIMIT:
            return difference
    return checked(a - b)


_PRODUCT_BITS = 2 * INT_LIMIT.bit_length()


def mul(a: int, b: int) -> int:
    """``a * b``, within the size limits; a far too large product is never built."""
    if a.__class__ is int and b.__class__ is int:
        if a.bit_length() + b.bit_length() > _PRODUCT_BITS:
            return checked(INT_LIMIT * 2)
        product = a * b
        if -INT_LIMIT <= product <= INT_LIMIT:
            return product
    return checked(a * b)


def each(rt: Runtime, items: _T) -> _T:
    """``items``, a list (or a text) walked or built: each item counts against the budget."""
    try:
        rt.ticks -= len(items)  # type: ignore[arg-type]
    except TypeError:  # a number, say, given where any value may stand
        return items
    if rt.ticks < 0:
        raise BudgetExceeded
    return items


def each_if(rt: Runtime, items: Sequence[_T], condition: Callable[[], object]
            ) -> Sequence[_T]:
    """All ``items`` if ``condition`` (that ignores them) holds, else none.

    The condition runs once, its steps counted as if it ran once per item.
    """
    rt.ticks -= len(items)
    if rt.ticks < 0:
        raise BudgetExceeded
    if not items:
        return items
    before = rt.ticks
    holds = condition()
    rt.ticks -= (len(items) - 1) * (before - rt.ticks)
    if rt.ticks < 0:
        raise BudgetExceeded
    return items if holds else ()
