"""Checks on the Red Notice world map (games/rednotice/map.yaml).

The file is read with ``yaml.safe_load`` only: the rest of the pack (and so the pack loader's
view of it) may not exist yet.
"""
from __future__ import annotations

import re
from collections import Counter, deque
from pathlib import Path

import pytest
import yaml

MAP_FILE = Path(__file__).resolve().parent.parent / "games" / "rednotice" / "map.yaml"
REGION_COLOURS = {
    "north_america": "blue",
    "south_america": "green",
    "europe": "yellow",
    "africa": "orange",
    "asia": "red",
    "oceania": "purple",
}
ID_RE = re.compile(r"^[a-z][a-z0-9_]*$")


@pytest.fixture(scope="module")
def world() -> dict:
    with MAP_FILE.open(encoding="utf-8") as handle:
        doc = yaml.safe_load(handle)
    assert isinstance(doc, dict) and "map" in doc, "map.yaml needs a top-level 'map' section"
    return doc["map"]


@pytest.fixture(scope="module")
def region_of(world) -> dict[str, str]:
    return {node["id"]: node["region"] for node in world["nodes"]}


@pytest.fixture(scope="module")
def edges(world) -> list[tuple[str, str]]:
    result = []
    for edge in world["edges"]:
        ends = edge if isinstance(edge, list) else [edge["from"], edge["to"]]
        assert len(ends) == 2, f"an edge joins exactly two nodes: {edge!r}"
        result.append((ends[0], ends[1]))
    return result


@pytest.fixture(scope="module")
def adjacency(world, edges) -> dict[str, set[str]]:
    adj: dict[str, set[str]] = {node["id"]: set() for node in world["nodes"]}
    for a, b in edges:
        adj[a].add(b)
        adj[b].add(a)
    return adj


def _reachable(adj: dict[str, set[str]], start: str, removed: frozenset = frozenset()) -> set[str]:
    seen = {start}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for there in adj[here]:
            if there not in seen and there not in removed:
                seen.add(there)
                queue.append(there)
    return seen


def test_exactly_the_six_regions_with_distinct_colours(world):
    regions = world["regions"]
    ids = [region["id"] for region in regions]
    assert sorted(ids) == sorted(REGION_COLOURS)
    assert len(ids) == len(set(ids))
    colours = {region["id"]: region.get("color") for region in regions}
    assert colours == REGION_COLOURS
    assert len(set(colours.values())) == 6


def test_every_region_and_node_has_a_name(world):
    for item in world["regions"] + world["nodes"]:
        assert isinstance(item.get("name"), str) and item["name"].strip(), item


def test_four_to_six_cities_per_region(world):
    counts = Counter(node["region"] for node in world["nodes"])
    for region in REGION_COLOURS:
        assert 4 <= counts[region] <= 6, f"{region} has {counts[region]} cities"


def test_every_node_region_exists(world):
    regions = {region["id"] for region in world["regions"]}
    for node in world["nodes"]:
        region = node.get("region")
        assert region in regions, f"{node['id']} has unknown region {region!r}"


def test_ids_unique_and_valid(world):
    ids = [item["id"] for item in world["regions"] + world["nodes"]]
    duplicates = [ident for ident, n in Counter(ids).items() if n > 1]
    assert not duplicates, f"duplicate ids: {duplicates}"
    for ident in ids:
        assert isinstance(ident, str) and ID_RE.match(ident), f"invalid id {ident!r}"


def test_edges_join_two_known_different_nodes(edges, region_of):
    for a, b in edges:
        assert a in region_of, f"unknown node {a!r}"
        assert b in region_of, f"unknown node {b!r}"
        assert a != b, f"edge {a}-{b} joins a node to itself"


def test_no_duplicate_edges(edges):
    seen: set[frozenset] = set()
    for a, b in edges:
        key = frozenset((a, b))
        assert key not in seen, f"route {a}-{b} is given twice"
        seen.add(key)


def test_edge_ids_are_unique(edges, region_of):
    edge_ids = [f"{a}-{b}" for a, b in edges]
    assert len(edge_ids) == len(set(edge_ids))
    assert not set(edge_ids) & set(region_of)


def test_graph_is_connected(adjacency):
    start = next(iter(adjacency))
    assert _reachable(adjacency, start) == set(adjacency)


def test_every_city_has_two_to_five_routes(adjacency):
    for city, neighbours in adjacency.items():
        assert 2 <= len(neighbours) <= 5, f"{city} has {len(neighbours)} routes"


def test_every_continent_links_to_at_least_two_others(edges, region_of):
    links: dict[str, set[str]] = {region: set() for region in REGION_COLOURS}
    for a, b in edges:
        ra, rb = region_of[a], region_of[b]
        if ra != rb:
            links[ra].add(rb)
            links[rb].add(ra)
    for region, others in links.items():
        assert len(others) >= 2, f"{region} links only to {sorted(others)}"


def test_each_continent_has_two_gateway_cities(edges, region_of):
    gateways: dict[str, set[str]] = {region: set() for region in REGION_COLOURS}
    for a, b in edges:
        if region_of[a] != region_of[b]:
            gateways[region_of[a]].add(a)
            gateways[region_of[b]].add(b)
    for region, cities in gateways.items():
        assert len(cities) >= 2, f"{region} has intercontinental routes only from {sorted(cities)}"


def test_no_single_city_cuts_the_map(adjacency):
    """Removing any one city leaves the other cities connected (no continent hangs on one city)."""
    for city in adjacency:
        rest = set(adjacency) - {city}
        start = next(iter(rest))
        assert _reachable(adjacency, start, frozenset({city})) == rest, (
            f"removing {city} splits the map")
