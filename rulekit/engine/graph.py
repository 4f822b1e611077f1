"""The map built-ins (``neighbors``, ``edge``, ``distance``...), worked out once per board."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rulekit.model.symbols import Board

# Maps of at most this many nodes keep the distances they work out.
CACHED_NODES = 400


Lists = dict[str, tuple[str, ...]]


def _tables(board: Board) -> tuple[Lists, Lists, Lists]:
    """Each node's neighbours and edges, and each region's nodes, in map order."""
    neighbors = {node: tuple(dict.fromkeys(other for other, _ in links))  # each once
                 for node, links in board.adjacency.items()}
    touching = {node: tuple(edge for _, edge in links) for node, links in board.adjacency.items()}
    members = {region: tuple(node for node, props in board.nodes.items()
                             if props.get("region") == region)
               for region in board.regions}
    return neighbors, touching, members


def graph_functions(board: Board) -> dict[str, Callable[..., Any]]:
    """The map built-ins (neighbors, edge, distance...) over one board."""
    nodes, edges, regions = tuple(board.nodes), tuple(board.edges), tuple(board.regions)
    neighbors, touching, members = _tables(board)

    between = {(a, b): edge for a, links in board.adjacency.items() for b, edge in reversed(links)}
    # The distances from each node met so far, on maps of at most CACHED_NODES nodes.
    known: dict[str, dict[str, int]] = {}
    cached = len(nodes) <= CACHED_NODES

    def distance(a: str, b: str) -> int:
        seen = known.get(a) if cached else None
        if seen is None:
            seen = {a: 0}
            frontier = [a]
            while frontier:
                if not cached and b in seen:
                    return seen[b]
                following = []
                for node in frontier:
                    for other in neighbors.get(node, ()):
                        if other not in seen:
                            seen[other] = seen[node] + 1
                            following.append(other)
                frontier = following
            if cached:
                known[a] = seen
        return seen.get(b, -1)

    return {
        "nodes": lambda: list(nodes),
        "edges": lambda: list(edges),
        "regions": lambda: list(regions),
        "neighbors": lambda node: list(neighbors.get(node, ())),
        "edge": lambda a, b: between.get((a, b)),
        "edges_of": lambda node: list(touching.get(node, ())),
        "ends": lambda edge: [board.edges[edge]["from"], board.edges[edge]["to"]],
        "nodes_in": lambda region: list(members.get(region, ())),
        "distance": distance,
    }


def graph_walks(board: Board) -> dict[str, Any]:
    """Map built-ins for code that only walks their lists: the same tuples for every call."""
    neighbors, touching, within = _tables(board)
    return {
        "nodes": tuple(board.nodes),
        "edges": tuple(board.edges),
        "regions": tuple(board.regions),
        "neighbors": lambda node: neighbors.get(node, ()),
        "edges_of": lambda node: touching.get(node, ()),
        "nodes_in": lambda region: within.get(region, ()),
    }
