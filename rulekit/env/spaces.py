"""A pack's fixed action indexes, and its observations as fixed-size vectors of numbers."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from rulekit.engine.decisions import NONE_ID
from rulekit.engine.game import Game
from rulekit.engine.observe import Observation
from rulekit.errors import UsageError
from rulekit.model.symbols import VarDecl

Vector = npt.NDArray[np.float32]
ID_KINDS = ("role", "card", "node", "edge", "region")
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


class Encoder:
    """Observations as vectors: piles as card counts, values, the question being asked."""

    def __init__(self, game: Game, actions: Actions) -> None:
        symbols = game.symbols
        self.actions = actions
        self.phases = {phase: i for i, phase in enumerate(symbols.phases)}
        self.cards = {card: i for i, card in enumerate(symbols.cards)}
        self.piles = [(pile.key, pile.visibility != "hidden") for pile in game.layout.piles]
        self.values = [(key, decl) for decl in symbols.variables.values()
                       for key in game.layout.keys_of(decl.name, decl.per)]
        board = symbols.board
        kinds = {"role": game.roles, "card": list(symbols.cards), "node": list(board.nodes),
                 "edge": list(board.edges), "region": list(board.regions)}
        self.kinds = {kind: {name: i for i, name in enumerate(ids)}
                      for kind, ids in kinds.items()}
        entries: list[tuple[str, float, float]] = [
            ("round", 0.0, BIG), ("over", 0, 1), ("won", 0, 1), ("lost", 0, 1),
            *((f"phase {phase}", 0, 1) for phase in self.phases)]
        most = float(max(len(self.cards), 1))
        for key, shown in self.piles:
            entries += [(key, 0, most), *((f"{key}: {card}", 0, most)
                                          for card in self.cards if shown)]
        ids = actions.names[actions.first_id:actions.first_value]
        for key, decl in self.values:
            low, high = self._bounds(decl)
            kind = decl.type
            entries += [(key, low, high)] if kind in ("int", "bool") else \
                [(f"{key}: {name}", low, high) for name in self.kinds.get(kind, ids)]
        entries += [("asked", 0, 1), ("subset", 0, 1), ("optional", 0, 1)]
        for part in ("offered", "taken", "asked now"):
            entries += [(f"{part}: {name}", 0, 1) for name in actions.names]
        entries += [(f"value {k + 1}", -BIG, BIG) for k in range(actions.value_slots)]
        self.names = [name for name, _, _ in entries]  # what each number of a vector shows
        self.low = np.array([low for _, low, _ in entries], dtype=np.float32)
        self.high = np.array([high for _, _, high in entries], dtype=np.float32)
        scratch = np.zeros(max(actions.ids, 1), dtype=np.float32)
        for decl in symbols.variables.values():  # a first value it cannot show: said now
            self._value(scratch, 0, decl, decl.initial, True)

    def _bounds(self, decl: VarDecl) -> tuple[float, float]:
        """The lowest and highest number showing a value."""
        kind = decl.type
        if kind == "int":  # (the engine keeps a value within its declared bounds)
            return (-BIG if decl.minimum is None else float(decl.minimum),
                    BIG if decl.maximum is None else float(decl.maximum))
        return 0.0, 1.0 if kind == "bool" or kind in ID_KINDS else BIG

    def vector(self, obs: Observation) -> Vector:
        """``obs`` as numbers."""
        out = np.zeros(len(self.low), dtype=np.float32)
        result = obs["result"]
        out[0] = obs["round"]
        if result is not None:
            out[1] = 1
            out[2 if result["winner"] == obs["role"] else 3] = result["winner"] is not None
        phase = self.phases.get(obs["phase"])
        if phase is not None:
            out[4 + phase] = 1
        i = 4 + len(self.phases)
        zones = obs["zones"]
        for key, shown in self.piles:
            pile = zones[key]
            out[i] = pile["count"]
            if shown:
                for card in pile.get("cards") or ():
                    if card is not None:
                        out[i + 1 + self.cards[card]] += 1
                i += len(self.cards)
            i += 1
        seen = obs["vars"]
        for key, decl in self.values:
            i += self._value(out, i, decl, seen.get(key), key in seen)
        self._question(out, i, obs)
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

    def _value(self, out: Vector, i: int, decl: VarDecl, value: object, seen: bool) -> int:
        """Write one value at ``out[i:]``; how many numbers it takes."""
        kind = decl.type
        if kind in ("int", "bool"):
            out[i] = float(value) if seen and isinstance(value, int) else 0.0
            return 1
        if kind in ID_KINDS:
            found = self.kinds[kind].get(value) if isinstance(value, str) else None
            if found is not None:
                out[i + found] = 1
            return len(self.kinds[kind])
        if seen and value is not None:
            for item in value if isinstance(value, list) else [value]:
                found = self.actions.index.get(item) if isinstance(item, str) else None
                if found is None or found < self.actions.first_id:
                    where = f" ({decl.location})" if decl.location else ""
                    raise UsageError(
                        f"the variable '{decl.name}'{where} holds {item!r}, which an observation "
                        "vector cannot show: it shows a text or a list by the role, card and "
                        "board ids in it",
                        f"keep ids in '{decl.name}', or split it into variables of type int or "
                        "bool")
                out[i + found - self.actions.first_id] += 1
        return self.actions.ids

    def _question(self, out: Vector, i: int, obs: Observation) -> None:
        decisions = obs["decisions"]
        if not decisions:
            return
        spec = decisions[0]
        size = self.actions.size
        out[i:i + 3] = (1, spec["kind"] == "subset", bool(spec.get("optional")))
        i += 3
        indexes = self.actions.of_items(spec["items"], spec["prompt"])
        out[[i + k for k in indexes]] = 1
        i += 3 * size
        for item, k in zip(spec["items"], indexes, strict=True):
            if k >= self.actions.first_value and isinstance(item, int):
                out[i + k - self.actions.first_value] = item
