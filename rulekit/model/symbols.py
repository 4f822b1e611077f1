"""What a pack declares, as the effect-language checker and compiler see it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rulekit.errors import Location
from rulekit.source.snippet import Snippet


@dataclass
class ZoneDecl:
    """A pile of cards; with ``per``, one pile per role, node, edge or region."""

    name: str
    per: str | int | None = None
    visibility: str = "public"
    initial: str | list[str] | None = None
    location: Location | None = None
    owner: str | None = None  # the role that sees an 'owner' zone that is not per role
    capacity: int | None = None  # most cards the pile may hold (1: a slot)
    on_enter: str | None = None  # a procedure called with each card that enters the zone

    @property
    def per_role(self) -> bool:
        return self.per == "role"


@dataclass
class VarDecl:
    """A variable; with ``per``, one value per role, node, edge or region."""

    name: str
    initial: Any = 0
    per: str | int | None = None
    minimum: int | None = None
    maximum: int | None = None
    visibility: str = "public"
    location: Location | None = None
    owner: str | None = None
    on_change: str | None = None  # a procedure called with the new value after each change
    declared_type: str | None = None  # the 'type' key; otherwise inferred from 'initial'

    @property
    def per_role(self) -> bool:
        return self.per == "role"

    @property
    def type(self) -> str:
        return self.declared_type or value_type(self.initial)


@dataclass
class AnytimeDecl:
    """An action a role may take at any of its decisions; or a card's, while it lies in a zone."""

    id: str
    role: str
    label: str
    procedure: str
    when: str | None = None
    location: Location | None = None
    when_code: Snippet | None = None
    card: str | None = None  # a card's action: the card, its code's parameter ``card``
    zone_test: Snippet | None = None  # a card's action: the test that it lies in its zone


@dataclass
class Board:
    """A map: nodes with properties, edges between them, regions grouping nodes."""

    nodes: dict[str, dict[str, Any]] = field(default_factory=dict)
    edges: dict[str, dict[str, Any]] = field(default_factory=dict)
    regions: dict[str, dict[str, Any]] = field(default_factory=dict)
    adjacency: dict[str, list[tuple[str, str]]] = field(default_factory=dict)

    def neighbors(self, node: str) -> list[str]:
        return [other for other, _ in self.adjacency.get(node, ())]

    def edge_between(self, a: str, b: str) -> str | None:
        for other, edge in self.adjacency.get(a, ()):
            if other == b:
                return edge
        return None


@dataclass
class ProcDecl:
    """A procedure of the pack: its parameters and its code."""

    name: str
    params: list[tuple[str, str]]
    snippet: Snippet
    nslots: int = 0
    location: Location | None = None


@dataclass
class FuncDecl(ProcDecl):
    """A function of the pack: a procedure's parts, and the type of its body."""

    result: str = "any"  # found by the checker


@dataclass
class Symbols:
    """Every name a pack declares."""

    roles: list[str]
    cards: dict[str, dict[str, Any]]
    zones: dict[str, ZoneDecl]
    variables: dict[str, VarDecl]
    parameters: dict[str, int]
    functions: dict[str, FuncDecl] = field(default_factory=dict)
    procedures: dict[str, ProcDecl] = field(default_factory=dict)
    phases: list[str] = field(default_factory=list)
    board: Board = field(default_factory=Board)
    anytime: list[AnytimeDecl] = field(default_factory=list)
    _property_types: dict[str, tuple[tuple[int, ...], dict[str, str]]] = field(
        default_factory=dict, init=False, repr=False, compare=False)

    def components(self) -> dict[str, dict[str, Any]]:
        """Every card, node, edge and region by id, with its properties."""
        return {**self.cards, **self.board.nodes, **self.board.edges, **self.board.regions}

    def kind_of(self, component: str) -> str | None:
        """'card', 'node', 'edge' or 'region' for a component id; None if unknown."""
        board = self.board
        for kind, table in (("card", self.cards), ("node", board.nodes),
                            ("edge", board.edges), ("region", board.regions)):
            if component in table:
                return kind
        return None

    def index_domain(self, per: str | int) -> list[str]:
        """The ids a ``per`` zone or variable is indexed by; ``per: 4`` counts 1 to 4."""
        if isinstance(per, int):
            return [str(i) for i in range(1, per + 1)]
        return {"role": self.roles, "node": list(self.board.nodes),
                "edge": list(self.board.edges), "region": list(self.board.regions)}[per]

    def properties(self, kind: str) -> dict[str, str]:
        """Property names of one kind of component with their types."""
        board = self.board
        # components are only ever added to the tables: their sizes tell whether any changed
        sizes = (len(self.roles), len(self.cards), len(board.nodes), len(board.edges),
                 len(board.regions))
        known = self._property_types.get(kind)
        if known is None or known[0] != sizes:
            known = self._property_types[kind] = (sizes, self._find_properties(kind))
        return dict(known[1])

    def _find_properties(self, kind: str) -> dict[str, str]:
        table = {"card": self.cards, "node": self.board.nodes, "edge": self.board.edges,
                 "region": self.board.regions}[kind]
        props: dict[str, str] = {"id": "text", "name": "text"}
        if kind == "node" and self.board.regions:
            props["region"] = "region"
        for item in table.values():
            for key, value in item.items():
                if key in ("id", "name") or (kind == "node" and key == "region"):
                    continue
                found = self.reference_type(value)
                if key not in props:
                    props[key] = found
                elif props[key] != found:
                    props[key] = "any"
        return props

    def reference_type(self, value: object) -> str:
        """A property value's type; a text naming a role, card, node... is of that kind."""
        if isinstance(value, str):
            if value in self.roles:
                return "role"
            return self.kind_of(value) or "text"
        return value_type(value)


def value_type(value: object) -> str:
    """The checker's type of a plain value."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "list"
    return "any"


def index_type(per: str | int) -> str:
    """The type of the index of a ``per`` zone or variable."""
    return "int" if isinstance(per, int) else per


def describe_per(per: str | int) -> str:
    """How messages name what a zone or variable is indexed by."""
    return f"number from 1 to {per}" if isinstance(per, int) else per
