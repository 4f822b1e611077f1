"""How the events a replayed branch logs compare with the events of an observer's log."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

Event = dict[str, Any]  # a log event, read as plain data (engine/state names its kinds)


def next_answer(target: list[Event], pos: int, role: str) -> str | None:
    """R's next answer in the rest of its log, if R answered again."""
    for event in target[pos:]:
        if event["e"] == "choice" and event.get("player") == role:
            return str(event["option"])
    return None


def card_pairs(shown: Any, wanted: Any, cards: dict[str, Any],
               pairs: list[tuple[str, str]]) -> bool:
    """Collect the (shown, wanted) pairs of different cards at the same place of two values;
    true if they differ only there."""
    if isinstance(shown, list) and isinstance(wanted, list) and len(shown) == len(wanted):
        only = True
        for a, b in zip(shown, wanted, strict=True):
            only = card_pairs(a, b, cards, pairs) and only
        return only
    if shown == wanted:
        return True
    if isinstance(shown, str) and isinstance(wanted, str) and shown in cards \
            and wanted in cards:
        if (shown, wanted) not in pairs:
            pairs.append((shown, wanted))
        return True
    return False


def cards_in(value: Any, cards: Collection[str], found: list[str]) -> None:
    """Collect the ids of ``cards`` that ``value`` names (in order, once each)."""
    if isinstance(value, list):
        for v in value:
            cards_in(v, cards, found)
    elif isinstance(value, str) and value in cards and value not in found:
        found.append(value)


def strings_in(value: Any, found: list[str]) -> None:
    """Collect the texts ``value`` holds (ids of cards, places...)."""
    if isinstance(value, list):
        for v in value:
            strings_in(v, found)
    elif isinstance(value, str) and value not in found:
        found.append(value)


def leaves(value: Any, found: list[Any]) -> None:
    """Collect the values ``value`` holds (itself, or the leaves of its lists)."""
    if isinstance(value, list):
        for v in value:
            leaves(v, found)
    elif value is not None:
        found.append(value)


def names(value: Any, named: list[str]) -> bool:
    """True if an answer's value is, or holds, only texts of ``named`` (and one at least)."""
    if isinstance(value, list):
        return bool(value) and all(v in named for v in value)
    return isinstance(value, str) and value in named


def same_kind(event: Mapping[str, Any], wanted: Mapping[str, Any]) -> bool:
    """The same kind of event from the same statement (its values may differ)."""
    if event["e"] != wanted["e"] or event["e"] == "choice":
        return False
    if event["e"] == "log":
        return bool(event["at"] == wanted["at"])
    return True
