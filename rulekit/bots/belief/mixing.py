"""The kinds of card a player cannot tell apart, carried along the game's history.

Kinds that lie together in a pile a player cannot see stay one after a draw from it, unless
the step tells them apart: it does if it plays otherwise with two cards of them exchanged.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rulekit.bots.belief.compare import Key, state_key
from rulekit.bots.belief.deal import (
    Mixed,
    kind_groups,
    merged_kinds,
    relabel,
    relabel_id,
    unseen_cards,
)

if TYPE_CHECKING:
    from rulekit.engine.game import Game, State
    from rulekit.engine.hidden import Kind
    from rulekit.engine.state import Event

Play = Callable[["State", "dict[str, str] | None"], "State | None"]


def carried(game: Game, role: str, parent: State, mixed: Mixed,
            actions: dict[str, str] | None, child: State, play: Play) -> Mixed:
    """The groups of kinds still one to ``role`` after the step from ``parent`` to ``child``."""
    before = kind_groups(merged_kinds(game, parent, role, mixed))
    if not before:
        return ()
    after = merged_kinds(game, child, role)
    spare = _spare(game, role, parent, child)
    groups: list[tuple[Kind, ...]] = []
    for group in before:
        kept = _kept(role, group, after, spare, parent, actions, child, play)
        if len(kept) > 1:
            groups.append(kept)
    return tuple(groups)


def _kept(role: str, group: tuple[Kind, ...], after: dict[Kind, Kind], spare: dict[Kind, str],
          parent: State, actions: dict[str, str] | None, child: State, play: Play
          ) -> tuple[Kind, ...]:
    """The kinds of ``group`` the step keeps one with its first kind that has a spare card (a
    kind with none keeps no card unseen through the step: nothing tells it apart)."""
    first = next((kind for kind in group if kind in spare), None)
    if first is None:
        return group

    def stays_one(kind: Kind) -> bool:
        if kind == first or kind not in spare:
            return True
        if kind in after and after[kind] == after.get(first):  # still together in a pile
            return True
        return _same_if_exchanged(role, (spare[first], spare[kind]), parent, actions, child,
                                  play)

    return tuple(kind for kind in group if stays_one(kind))


def _spare(game: Game, role: str, parent: State, child: State) -> dict[Kind, str]:
    """A card of each kind that ``role`` sees neither before nor after the step."""
    after = unseen_cards(game, child, role)
    spare: dict[Kind, str] = {}
    for card, kind in unseen_cards(game, parent, role).items():
        if card in after:
            spare.setdefault(kind, card)
    return spare


def _same_if_exchanged(role: str, pair: tuple[str, str], parent: State,
                       actions: dict[str, str] | None, child: State, play: Play) -> bool:
    """Whether the step looks the same to ``role`` with the two cards of ``pair`` exchanged."""
    a, b = pair
    swap = {a: b, b: a}
    again = play(relabel(parent, swap),
                 None if actions is None else {r: relabel_id(x, swap) for r, x in actions.items()})
    if again is None:
        return False
    start = len(parent["log"])
    return _as_seen(role, relabel(again, swap)) == _as_seen(role, child) \
        and _seen(role, again["log"][start:]) == _seen(role, child["log"][start:])


def _as_seen(role: str, state: State) -> Key:
    """``state`` but what others are asked: a new deal asks them again on their new cards."""
    mine = state.copy()
    mine["pending"] = [spec for spec in state["pending"] if spec["player"] == role]
    mine["committed"] = {}
    return state_key(mine)


def _seen(role: str, events: list[Event]) -> list[Event]:
    return [event for event in events if event["to"] in (None, role)]
