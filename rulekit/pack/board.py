"""Read the ``map`` section of a pack: its regions, nodes and edges."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypedDict

from rulekit.errors import PackError, SchemaError, did_you_mean
from rulekit.model.symbols import Board, Symbols
from rulekit.pack.documents import known
from rulekit.source.document import JsonPath, YamlDocument

Properties = dict[str, object]
"""A component's id, name and other properties."""

Edge = list[str] | Mapping[str, object]
"""An edge: ``[A, B]``, or ``{from: A, to: B, ...}`` with properties."""


class MapSpec(TypedDict, total=False):
    """The ``map`` section."""

    regions: list[Properties]
    nodes: list[Properties]
    edges: list[Edge]


def read_board(doc: YamlDocument, spec: MapSpec, symbols: Symbols,
               errors: list[PackError]) -> None:
    """Add the components of the ``map`` section to ``symbols.board``."""
    reader = _BoardReader(doc, symbols, errors)
    for i, region in enumerate(spec.get("regions", [])):
        reader.add(("map", "regions", i), symbols.board.regions, _named(region))
    for i, node in enumerate(spec.get("nodes", [])):
        reader.node(i, node)
    for i, edge in enumerate(spec.get("edges", [])):
        reader.edge(i, edge)


def _named(props: Mapping[str, object]) -> Properties:
    """A component's properties, with its id as its name if it has none."""
    named = dict(props)
    named.setdefault("name", props["id"])
    return named


@dataclass
class _BoardReader:
    doc: YamlDocument
    symbols: Symbols
    errors: list[PackError]

    @property
    def board(self) -> Board:
        return self.symbols.board

    def node(self, i: int, node: Properties) -> None:
        """Add a node, with an error if its region is unknown."""
        props = _named(node)
        region = props.get("region")
        if region is not None:
            known(str(region), self.board.regions, "region",
                  self.doc.location(("map", "nodes", i, "region")), self.errors)
        self.add(("map", "nodes", i), self.board.nodes, props)
        self.board.adjacency[str(node["id"])] = []

    def edge(self, i: int, edge: Edge) -> None:
        """Add an edge between two known nodes, with its id and name."""
        a, b = ends = [str(end) for end in (edge if isinstance(edge, list)
                                             else [edge["from"], edge["to"]])]
        problem = self.edge_problem(a, b, ends, isinstance(edge, dict) and "id" in edge)
        if problem is not None:
            message, hint = problem
            self.errors.append(SchemaError(message, self.doc.location(("map", "edges", i)), hint))
            return
        nodes = self.board.nodes
        props = {} if isinstance(edge, list) else dict(edge)
        props.update({"from": a, "to": b})
        props.setdefault("id", f"{a}-{b}")
        props.setdefault("name", f"{nodes[a]['name']} - {nodes[b]['name']}")
        self.add(("map", "edges", i), self.board.edges, props)
        self.board.adjacency[a].append((b, str(props["id"])))
        self.board.adjacency[b].append((a, str(props["id"])))

    def edge_problem(self, a: str, b: str, ends: list[str], named: bool
                     ) -> tuple[str, str | None] | None:
        """What is wrong with an edge from ``a`` to ``b``; a second one needs an id (``named``)."""
        bad = [end for end in ends if end not in self.board.nodes]
        if bad:
            return f"unknown node '{bad[0]}'", did_you_mean(bad[0], self.board.nodes)
        if a == b:
            return f"the edge {a} - {b} joins a node to itself", None
        if self.board.edge_between(a, b) is not None and not named:
            return (f"the edge {a} - {b} is given twice",
                    "a second route between the same places needs an id of its own: "
                    f"{{from: {a}, to: {b}, id: {a}_{b}_2}}")
        return None

    def add(self, path: JsonPath, table: dict[str, Properties], props: Properties) -> None:
        """Add a component to its table, unless its id is taken."""
        ident = str(props["id"])
        kind = self.symbols.kind_of(ident)
        if kind is not None:  # (kept all the same, so that what names it is not unknown)
            self.errors.append(SchemaError(
                f"id '{ident}' is already used by a {kind}", self.doc.location(path),
                "cards, nodes, edges and regions need different ids"))
        table[ident] = props
