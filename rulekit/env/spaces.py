"""A pack's fixed action indexes, and its observations as fixed-size vectors of numbers."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

import numpy as np
import numpy.typing as npt

from rulekit.engine.decisions import NONE_ID
from rulekit.engine.game import Game
from rulekit.engine.observe import Observation
from rulekit.errors import UsageError
from rulekit.model.symbols import VarDecl

Vector = npt.NDArray[np.float32]
BIG = float(2**31)  # the bounds of a number with no declared minimum or maximum


class Actions:
    """The action indexes of a game: ``none``, the anytime actions, the ids, then value slots."""

    def __init__(self, game: Game, value_slots: int) -> None:
        symbols = game.symbols
        board = symbols.board
        names = [NONE_ID, *dict.fromkeys("!" + decl.id for decl in symbols.anytime)]
        self.first_id = len(names)
        names += dict.fromkeys([*game.roles, *symbols.cards, *board.nodes, *board.edges,
                                *board.regions])
        self.ids = len(names) - self.first_id
        self.index = {name: i for i, name in enumerate(names)}
        self.first_value = len(names)
        self.value_slots = value_slots
        self.names = names + [f"value {k + 1}" for k in range(value_slots)]
        self.size = len(self.names)

    def of_items(self, items: Sequence[object], prompt: str) -> list[int]:
        """The action index of each item of a question."""
        indexes: list[int] = []
        values = 0
        for item in items:
            found = self.index.get(item) if isinstance(item, str) else None
            if found is None or found < self.first_id:
                if values == self.value_slots:
                    raise UsageError(
                        f"the question '{prompt}' offers more than {self.value_slots} items "
                        "that are not roles, cards or board ids",
                        f"make the environment with value_slots={len(items)}")
                found = self.first_value + values
                values += 1
            indexes.append(found)
        return indexes


Fill = Callable[[Vector, Observation], None]  # writes an observation's numbers of one field


class Encoder:
    """Observations as vectors: piles as card counts, values, the question being asked."""

    def __init__(self, game: Game, actions: Actions) -> None:
        symbols = game.symbols
        board = symbols.board
        self.actions = actions
        self.entries: list[tuple[str, float, float]] = []  # each number's name and bounds
        self.fields: list[tuple[slice, Fill]] = []  # the vector's fields, in order
        phases = {phase: i for i, phase in enumerate(symbols.phases)}
        self._add([("round", 0.0, BIG), ("over", 0, 1), ("won", 0, 1), ("lost", 0, 1),
                   *((f"phase {phase}", 0, 1) for phase in phases)], partial(_header, phases))
        cards = {card: i for i, card in enumerate(symbols.cards)}
        most = float(max(len(cards), 1))
        for pile in game.layout.piles:
            shown = cards if pile.visibility != "hidden" else {}
            self._add([(pile.key, 0, most), *((f"{pile.key}: {card}", 0, most) for card in shown)],
                      partial(_pile, pile.key, shown))
        kinds = {"role": game.roles, "card": list(symbols.cards), "node": list(board.nodes),
                 "edge": list(board.edges), "region": list(board.regions)}
        for decl in symbols.variables.values():
            for key in game.layout.keys_of(decl.name, decl.per):
                self._add_value(key, decl, kinds.get(decl.type))
        self._add([("asked", 0, 1), ("subset", 0, 1), ("optional", 0, 1),
                   *((f"{part}: {name}", 0, 1) for part in ("offered", "taken", "asked now")
                     for name in actions.names),
                   *((f"value {k + 1}", -BIG, BIG) for k in range(actions.value_slots))],
                  partial(_question, actions))
        self.names = [name for name, _, _ in self.entries]  # what each number of a vector shows
        self.low = np.array([low for _, low, _ in self.entries], dtype=np.float32)
        self.high = np.array([high for _, _, high in self.entries], dtype=np.float32)

    def _add(self, entries: list[tuple[str, float, float]], fill: Fill) -> None:
        """Lay out the next field of the vector: its numbers, and what fills them."""
        start = len(self.entries)
        self.entries += entries
        self.fields.append((slice(start, len(self.entries)), fill))

    def _add_value(self, key: str, decl: VarDecl, ids: list[str] | None) -> None:
        """Lay out one variable's value: a number, one id of a kind, or counts of ids."""
        if decl.type == "bool":
            self._add([(key, 0, 1)], partial(_number, key))
        elif decl.type == "int":  # (the engine keeps a value within its declared bounds)
            low = -BIG if decl.minimum is None else float(decl.minimum)
            high = BIG if decl.maximum is None else float(decl.maximum)
            self._add([(key, low, high)], partial(_number, key))
        elif ids is not None:
            index = {name: i for i, name in enumerate(ids)}
            self._add([(f"{key}: {name}", 0, 1) for name in ids], partial(_one_of, key, index))
        else:
            names = self.actions.names[self.actions.first_id:self.actions.first_value]
            # a first value it cannot show: said now
            _count_ids(self.actions, decl, np.zeros(len(names), dtype=np.float32), decl.initial)
            self._add([(f"{key}: {name}", 0, BIG) for name in names],
                      partial(_ids, self.actions, key, decl))

    def vector(self, obs: Observation) -> Vector:
        """``obs`` as numbers."""
        out = np.zeros(len(self.entries), dtype=np.float32)
        for where, fill in self.fields:
            fill(out[where], obs)
        return out

    def answering(self, vector: Vector, indexes: Sequence[int], taken: Sequence[int],
                  at: int) -> Vector:
        """A copy of ``vector`` marking a subset's items taken so far and the one asked now."""
        out = vector.copy()
        size = self.actions.size
        i = len(out) - self.actions.value_slots - 2 * size
        for k in taken:
            out[i + indexes[k]] = 1
        if at < len(indexes):
            out[i + size + indexes[at]] = 1
        return out


def _header(phases: dict[str, int], out: Vector, obs: Observation) -> None:
    """The round; whether the game is over, won or lost by the observer; the phase."""
    out[0] = obs["round"]
    result = obs["result"]
    if result is not None:
        out[1] = 1
        out[2 if result["winner"] == obs["role"] else 3] = result["winner"] is not None
    phase = phases.get(obs["phase"])
    if phase is not None:
        out[4 + phase] = 1


def _pile(key: str, cards: dict[str, int], out: Vector, obs: Observation) -> None:
    """A pile's count, then how many of each of ``cards`` it shows."""
    pile = obs["zones"][key]
    out[0] = pile["count"]
    if cards:
        for card in pile.get("cards") or ():
            if card is not None:
                out[1 + cards[card]] += 1


def _number(key: str, out: Vector, obs: Observation) -> None:
    """An int or bool value, 0 if unseen."""
    value = obs["vars"].get(key)
    if isinstance(value, int):
        out[0] = value


def _one_of(key: str, index: dict[str, int], out: Vector, obs: Observation) -> None:
    """A value that is one id of a kind, marked at its place in ``index``."""
    value = obs["vars"].get(key)
    found = index.get(value) if isinstance(value, str) else None
    if found is not None:
        out[found] = 1


def _ids(actions: Actions, key: str, decl: VarDecl, out: Vector, obs: Observation) -> None:
    """A text or list value, as the ids in it."""
    _count_ids(actions, decl, out, obs["vars"].get(key))


def _count_ids(actions: Actions, decl: VarDecl, out: Vector, value: object) -> None:
    """Count each id ``value`` holds; a UsageError for an item that is not an id."""
    if value is None:
        return
    for item in value if isinstance(value, list) else [value]:
        found = actions.index.get(item) if isinstance(item, str) else None
        if found is None or found < actions.first_id:
            where = f" ({decl.location})" if decl.location else ""
            raise UsageError(
                f"the variable '{decl.name}'{where} holds {item!r}, which an observation "
                "vector cannot show: it shows a text or a list by the role, card and "
                "board ids in it",
                f"keep ids in '{decl.name}', or split it into variables of type int or "
                "bool")
        out[found - actions.first_id] += 1


def _question(actions: Actions, out: Vector, obs: Observation) -> None:
    """The question asked: its kind, the items offered, and the value items' numbers."""
    decisions = obs["decisions"]
    if not decisions:
        return
    spec = decisions[0]
    out[0:3] = (1, spec["kind"] == "subset", bool(spec.get("optional")))
    indexes = actions.of_items(spec["items"], spec["prompt"])
    out[[3 + k for k in indexes]] = 1
    values = 3 + 3 * actions.size - actions.first_value
    for item, k in zip(spec["items"], indexes, strict=True):
        if k >= actions.first_value and isinstance(item, int):
            out[values + k] = item
