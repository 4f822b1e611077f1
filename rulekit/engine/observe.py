"""What one player may know of a state: the definition of the game's hidden information.

An observation is plain data that JSON round-trips, every part a read-only copy.
"""

from __future__ import annotations

from typing import Any

from rulekit.engine.frozen import FrozenDict, FrozenList, freeze
from rulekit.engine.hidden import PUBLIC, Layout, Place
from rulekit.engine.state import State
from rulekit.errors import UsageError

Observation = dict[str, Any]
"""Everything one role may know of a state."""


def observe(pack_id: str, layout: Layout, state: State, role: str) -> Observation:
    """Everything ``role`` may know of ``state``, and nothing else."""
    if role not in layout.hidden_piles:
        raise UsageError(f"unknown role '{role}'")
    values = state["vars"]
    committed = state["committed"]
    waiting = [spec for spec in state["pending"] if spec["player"] not in committed]
    result = state["result"]
    return {
        "pack": pack_id,
        "role": role,
        "round": state["round"],
        "phase": state["phase"],
        "zones": FrozenDict({pile.key: _pile(layout, pile, state["zones"][pile.key], role)
                             for pile in layout.piles}),
        "vars": FrozenDict({value.key: freeze(values[value.key]) for value in layout.values
                            if value.seen_by(role)}),
        "decisions": [freeze(spec) for spec in waiting if spec["player"] == role],
        "waiting_for": [spec["player"] for spec in waiting],
        "log": FrozenList(freeze(event) for event in state["log"]
                          if event["to"] is None or event["to"] == role),
        "result": None if result is None else dict(result),
    }


def public_part(layout: Layout, observation: Observation) -> Observation:
    """What every player sees of a role's observation: :data:`PUBLIC`'s observation."""
    zones = observation["zones"]
    return {
        **observation,
        "role": PUBLIC,
        "zones": FrozenDict({pile.key: _public_pile(pile, zones[pile.key])
                             for pile in layout.piles}),
        "vars": FrozenDict({value.key: observation["vars"][value.key]
                            for value in layout.values if value.seen_by(PUBLIC)}),
        "decisions": [],
        "log": FrozenList(event for event in observation["log"] if event["to"] is None),
    }


def _public_pile(pile: Place, seen: FrozenDict) -> FrozenDict:
    """What every player sees of a pile that one role sees as ``seen``."""
    if pile.seen_by(PUBLIC):
        return seen
    if pile.visibility == "card_owner":
        return FrozenDict(cards=FrozenList([None] * seen["count"]), count=seen["count"])
    return FrozenDict(count=seen["count"])


def _pile(layout: Layout, pile: Place, cards: list[str], role: str) -> FrozenDict:
    """What ``role`` sees of a pile: its cards, the ones it owns, or a count."""
    if pile.seen_by(role):
        return FrozenDict(cards=FrozenList(cards), count=len(cards))
    if pile.visibility == "card_owner":
        owner = layout.card_owner.get
        mine = [card if owner(card) == role else None for card in cards]
        return FrozenDict(cards=FrozenList(mine), count=len(cards))
    return FrozenDict(count=len(cards))
