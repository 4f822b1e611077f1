"""Generic features of a state, read from what a pack declares: numbers a learned evaluation
weighs (per zone, card counts and properties; per variable that may change what follows, its
value; distances; the round).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rulekit.engine.graph import graph_functions
from rulekit.model.program import zone_key

if TYPE_CHECKING:
    from rulekit.engine.game import Game
    from rulekit.engine.state import State

MAX_CATEGORIES = 8  # a text property with more values than this is not counted by value
SKIPPED_PROPERTIES = frozenset({"id", "name", "text"})


class Features:
    """The feature names of a game, and each state's values for them."""

    def __init__(self, game: Game) -> None:
        symbols = game.symbols
        self._card_parts, part_names = _card_parts(game)
        self.names: list[str] = []
        self._piles: list[tuple[str, int]] = []  # (pile key, offset of its group)
        for decl in symbols.zones.values():
            groups = [(zone_key(decl.name, role), [zone_key(decl.name, role)])
                      for role in symbols.roles] if decl.per_role else \
                [(decl.name, game.layout.keys_of(decl.name, decl.per))]
            for group, keys in groups:
                self._piles += [(key, len(self.names)) for key in keys]
                self.names += [f"{group}: {part}" for part in part_names]
        self._values: list[tuple[str, int, Callable[[object], float]]] = []
        pieces: list[str] = []
        live = game.program.live_vars
        for var in symbols.variables.values():
            if live is not None and var.name not in live:
                continue  # (it records the past: nothing to come reads it)
            keys = [zone_key(var.name, r) for r in symbols.roles] if var.per_role else \
                game.layout.keys_of(var.name, var.per)
            if var.type == "node":
                pieces += keys if var.per is None or var.per_role else []
                continue
            readers = _readers(var.type, symbols.roles)
            apart = var.per is None or var.per_role  # else the values are added up
            for j, key in enumerate(keys):
                offset = len(self.names) + (j * len(readers) if apart else 0)
                self._values += [(key, offset + i, read) for i, (_, read) in enumerate(readers)]
            self.names += [f"{name}{suffix}" for name in (keys if apart else [var.name])
                           for suffix, _ in readers]
        self._pairs = [(a, b) for i, a in enumerate(pieces) for b in pieces[i + 1:]]
        self.names += [f"distance {a} {b}" for a, b in self._pairs]
        self._distance = graph_functions(symbols.board)["distance"]
        self.names.append("round")

    def __call__(self, state: State) -> list[float]:
        values = [0.0] * len(self.names)
        zones, parts = state["zones"], self._card_parts
        for key, offset in self._piles:
            for card in zones.get(key, ()):
                for i, amount in parts[card]:
                    values[offset + i] += amount
        variables = state["vars"]
        for key, index, read in self._values:
            values[index] += read(variables.get(key))
        at = len(values) - 1 - len(self._pairs)
        for a, b in self._pairs:
            first, second = variables.get(a), variables.get(b)
            if isinstance(first, str) and isinstance(second, str):
                values[at] = float(self._distance(first, second))
            at += 1
        values[-1] = float(state["round"])
        return values


def _card_parts(game: Game) -> tuple[dict[str, list[tuple[int, float]]], list[str]]:
    """What each card adds to its pile's features, and the names of those features."""
    cards = game.symbols.cards
    types = game.symbols.properties("card")
    numbers = [p for p, t in types.items() if t == "int" and p not in SKIPPED_PROPERTIES]
    kinds = {p: sorted({str(c[p]) for c in cards.values() if p in c})
             for p, t in types.items() if t == "text" and p not in SKIPPED_PROPERTIES}
    kinds = {p: values for p, values in kinds.items() if 1 < len(values) <= MAX_CATEGORIES}
    names = ["cards"] + [f"sum of {p}" for p in numbers] + \
        [f"{p} {value}" for p, values in kinds.items() for value in values]
    parts: dict[str, list[tuple[int, float]]] = {}
    for card_id, card in cards.items():
        part = [(0, 1.0)] + [(1 + i, float(card[p])) for i, p in enumerate(numbers)
                             if isinstance(card.get(p), int)]
        if kinds:
            part += [(names.index(f"{p} {card[p]}"), 1.0) for p in kinds if p in card]
        parts[card_id] = part
    return parts, names


def _number(value: object) -> float:
    return float(value) if isinstance(value, int | float) else 0.0


def _length(value: object) -> float:
    return float(len(value)) if isinstance(value, list | tuple | str) else 0.0


def _readers(kind: str, roles: list[str]) -> list[tuple[str, Callable[[object], float]]]:
    """How a variable of type ``kind`` becomes features: a name's suffix and a reader each."""
    if kind in ("int", "bool"):
        return [("", _number)]
    if kind == "list":
        return [(" length", _length)]
    if kind == "role":
        return [(f" is {role}", lambda value, role=role: float(value == role))  # type: ignore[misc]
                for role in roles]
    return []


__all__ = ["Features"]
