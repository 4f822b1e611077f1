"""How the events a replayed branch logs compare with the events of an observer's log."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import TYPE_CHECKING, NamedTuple, TypeGuard

if TYPE_CHECKING:
    from rulekit.engine.state import Event


def next_answer(target: list[Event], pos: int, role: str) -> str | None:
    """``role``'s next answer in ``target`` from ``pos`` on, if it answered again."""
    for event in target[pos:]:
        if event["e"] == "choice" and event.get("player") == role:
            return str(event["option"])
    return None


def card_pairs(shown: object, wanted: object, cards: Collection[str],
               pairs: list[tuple[str, str]]) -> bool:
    """Collect the ``(shown, wanted)`` pairs of differing cards. True if only cards differ."""
    if isinstance(shown, list) and isinstance(wanted, list) and len(shown) == len(wanted):
        return _pairs_in_lists(shown, wanted, cards, pairs)
    if shown == wanted:
        return True
    if not (_is_card(shown, cards) and _is_card(wanted, cards)):
        return False
    if (shown, wanted) not in pairs:
        pairs.append((shown, wanted))
    return True


def _pairs_in_lists(shown: list[object], wanted: list[object], cards: Collection[str],
                    pairs: list[tuple[str, str]]) -> bool:
    return all([card_pairs(a, b, cards, pairs) for a, b in zip(shown, wanted, strict=True)])


def _is_card(value: object, cards: Collection[str]) -> TypeGuard[str]:
    return isinstance(value, str) and value in cards


def cards_in(value: object, cards: Collection[str], found: list[str]) -> None:
    """Collect the ids of ``cards`` that ``value`` names, in order, once each."""
    if isinstance(value, list):
        for v in value:
            cards_in(v, cards, found)
    elif _is_card(value, cards) and value not in found:
        found.append(value)


def strings_in(value: object, found: list[str]) -> None:
    """Collect the texts ``value`` holds: ids of cards, places and the like."""
    if isinstance(value, list):
        for v in value:
            strings_in(v, found)
    elif isinstance(value, str) and value not in found:
        found.append(value)


def leaves(value: object, found: list[object]) -> None:
    """Collect the values ``value`` holds: itself, or the leaves of its lists."""
    if isinstance(value, list):
        for v in value:
            leaves(v, found)
    elif value is not None:
        found.append(value)


def names(value: object, named: list[str]) -> bool:
    """Whether an answer's value is, or holds, only texts of ``named`` (one at least)."""
    if isinstance(value, list):
        return bool(value) and all(v in named for v in value)
    return isinstance(value, str) and value in named


def same_kind(event: Mapping[str, object], wanted: Mapping[str, object]) -> bool:
    """Whether two events are of the same kind and statement (their values may differ)."""
    if event["e"] != wanted["e"] or event["e"] == "choice":
        return False
    if event["e"] == "log":
        return event["at"] == wanted["at"]
    return True


SAME, CARDS, OTHER = 0, 1, 2  # how an event differs from the one R saw
ASTRAY = 3  # the step's events leave R's log after naming other cards: only a renaming may fit
AHEAD = 4  # events of R's log read ahead for the cards and places they name


class Matched(NamedTuple):
    """How a replayed step's events continue R's log."""

    pos: int  # the new position in R's log
    differ: int  # SAME, CARDS, OTHER or ASTRAY: the most any event differs
    pairs: list[tuple[str, str]]  # (card named, card R saw) where they differ


def difference(event: Mapping[str, object], wanted: Mapping[str, object],
               cards: Collection[str], pairs: list[tuple[str, str]]) -> int | None:
    """How ``event`` differs from ``wanted``: :data:`SAME`, :data:`CARDS`, :data:`OTHER` or None."""
    if event == wanted:
        return SAME
    if not same_kind(event, wanted):
        return None
    return CARDS if card_pairs(event.get("args"), wanted.get("args"), cards, pairs) else OTHER
