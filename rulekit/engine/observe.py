"""What one player may know of a state: the observation.

This is the definition of the game's hidden information. An observation is plain data that
JSON round-trips; every part of it is a read-only copy (``engine/frozen``), so a caller
cannot change the game through it.
"""

from __future__ import annotations

from typing import Any

from rulekit.engine.frozen import FrozenDict, FrozenList, freeze
from rulekit.engine.state import State
from rulekit.errors import UsageError

Keys = list[tuple[str, str | None, str]]  # (key, owner, visibility) of each pile or value


Observation = dict[str, Any]
"""Everything one role may know of a state."""


def sees(visibility: str, owner: str | None, role: str) -> bool:
    """Whether ``role`` sees a pile or a value of this visibility and owner whole."""
    return visibility == "public" or (visibility == "owner" and owner == role)


def observe(pack_id: str, roles: list[str], zone_keys: Keys, var_keys: Keys,
            card_owner: dict[str, Any], state: State, role: str) -> Observation:
    """Everything ``role`` may know of ``state``, and nothing else."""
    if role not in roles:
        raise UsageError(f"unknown role '{role}'")
    zones: dict[str, Any] = {}
    for key, owner, visibility in zone_keys:
        cards = state["zones"][key]
        if sees(visibility, owner, role):
            zones[key] = FrozenDict(cards=FrozenList(cards), count=len(cards))
        elif visibility == "card_owner":
            mine = [card if card_owner.get(card) == role else None for card in cards]
            zones[key] = FrozenDict(cards=FrozenList(mine), count=len(cards))
        else:
            zones[key] = FrozenDict(count=len(cards))
    values = state["vars"]
    shown = {key: freeze(values[key]) for key, owner, visibility in var_keys
             if sees(visibility, owner, role)}
    committed = state["committed"]
    waiting = [spec for spec in state["pending"] if spec["player"] not in committed]
    log = state["log"]
    result = state["result"]
    return {
        "pack": pack_id,
        "role": role,
        "round": state["round"],
        "phase": state["phase"],
        "zones": FrozenDict(zones),
        "vars": FrozenDict(shown),
        "decisions": [freeze(spec) for spec in waiting if spec["player"] == role],
        "waiting_for": [spec["player"] for spec in waiting],
        "log": FrozenList(freeze(event) for event in log
                          if event["to"] is None or event["to"] == role),
        "result": None if result is None else dict(result),
    }
