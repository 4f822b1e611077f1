"""``rulekit map PACK --out FILE.svg`` draws a pack's map."""

from __future__ import annotations

import math
import os
import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from rulekit.cli import main
from rulekit.pack.loader import load_pack
from rulekit.play.svgmap import render_svg

SVG = "{http://www.w3.org/2000/svg}"


def test_the_world_map_is_drawn_with_every_city_and_route() -> None:
    game = load_pack("rednotice").game
    root = ET.fromstring(render_svg(game))
    circles = root.findall(f"{SVG}circle")
    routes = root.findall(f"{SVG}g")
    assert len(routes) == len(game.symbols.board.edges) == 50
    # one dot per city, one per continent in the legend
    assert len(circles) == len(game.symbols.board.nodes) + len(game.symbols.board.regions)
    texts = {t.text for t in root.iter(f"{SVG}text")}
    assert {"Paris", "Tokyo", "Rio de Janeiro", "Oceania"} <= texts
    dashed = [route for route in routes if route.get("stroke-dasharray")]
    assert len(dashed) == 19  # the routes between continents
    for circle in circles:
        assert 0 <= float(circle.get("cx", -1)) <= 1200
        assert 0 <= float(circle.get("cy", -1)) <= 700


def _world() -> tuple[ET.Element, dict[str, tuple[float, float]]]:
    root = ET.fromstring(render_svg(load_pack("rednotice").game))
    dots = {c.findtext(f"{SVG}title") or "": (float(c.get("cx", 0)), float(c.get("cy", 0)))
            for c in root.findall(f"{SVG}circle") if c.get("stroke")}
    return root, dots


def _points(shape: ET.Element) -> list[tuple[float, float]]:
    """Points along a line, or along a quadratic curve (``M x y Q cx cy x y``)."""
    if shape.tag == f"{SVG}line":
        a = (float(shape.get("x1", 0)), float(shape.get("y1", 0)))
        b = (float(shape.get("x2", 0)), float(shape.get("y2", 0)))
        return [(a[0] + (b[0] - a[0]) * t / 50, a[1] + (b[1] - a[1]) * t / 50)
                for t in range(51)]
    x1, y1, cx, cy, x2, y2 = map(float, re.findall(r"-?[\d.]+", shape.get("d", "")))
    return [((1 - t) ** 2 * x1 + 2 * (1 - t) * t * cx + t * t * x2,
             (1 - t) ** 2 * y1 + 2 * (1 - t) * t * cy + t * t * y2)
            for t in (k / 50 for k in range(51))]


def test_no_route_passes_over_a_place_it_does_not_visit() -> None:
    root, dots = _world()
    routes = root.findall(f"{SVG}g")
    assert len(routes) == 50
    for route in routes:
        name = route.findtext(f"{SVG}title") or ""
        shapes = [s for s in route if s.tag != f"{SVG}title"]
        points = [p for shape in shapes for p in _points(shape)]
        ends = {min(dots, key=lambda d: math.dist(dots[d], points[i])) for i in (0, -1)}
        if len(shapes) == 2:  # round the globe: leaves the picture on both sides
            xs = [p[0] for p in points]
            assert min(xs) < 0 or max(xs) > 1200, name
            continue
        for city, where in dots.items():
            if city not in ends:
                assert min(math.dist(where, p) for p in points) > 14, (name, city)


def test_routes_across_the_date_line_wrap_round() -> None:
    root, _ = _world()
    names = {route.findtext(f"{SVG}title"): route for route in root.findall(f"{SVG}g")}
    pacific = [name for name, route in names.items() if len(route.findall(f"{SVG}line")) == 2]
    assert len(pacific) >= 2 and all(name for name in pacific)


def test_no_name_covers_another_dot() -> None:
    root, dots = _world()
    for text in root.findall(f"{SVG}text"):
        name = text.text or ""
        if name not in dots:
            continue  # the legend
        x, y = float(text.get("x", 0)), float(text.get("y", 0))
        width = 6.6 * len(name)
        anchor = text.get("text-anchor")
        left = x - width if anchor == "end" else x - width / 2 if anchor == "middle" else x
        for other, (px, py) in dots.items():
            if other != name:
                assert not (left - 2 <= px <= left + width + 2 and y - 13 <= py <= y + 5), \
                    (name, other)


def test_names_stay_apart_inside_the_picture_and_the_key_tells_the_dashes() -> None:
    root, dots = _world()
    boxes = []
    for text in root.findall(f"{SVG}text"):
        name = text.text or ""
        if name not in dots:
            continue
        x, y, width = float(text.get("x", 0)), float(text.get("y", 0)), 6.6 * len(name)
        shift = {"end": 1.0, "middle": 0.5}.get(text.get("text-anchor") or "", 0.0)
        boxes.append((name, x - width * shift, y - 11, x - width * shift + width, y + 3))
    for name, left, top, right, bottom in boxes:
        assert left >= 0 and right <= 1200 and top >= 0 and bottom <= 700, name
        for other, ol, ot, orr, ob in boxes:  # (Chicago did run into New York)
            assert other == name or not (left - 3 < orr and ol < right + 3
                                         and top - 3 < ob and ot < bottom + 3), (name, other)
    keys = [line for line in root.findall(f"{SVG}line") if line.get("class") == "legend"]
    texts = {t.text for t in root.iter(f"{SVG}text")}
    assert any(key.get("stroke-dasharray") for key in keys)
    assert {"route between two regions", "route cut by the edge: goes on at the other edge"} \
        <= texts
    europe = [c.get("fill") for c in root.findall(f"{SVG}circle")
              if c.findtext(f"{SVG}title") == "London"]
    assert europe and europe[0] != "yellow"  # too light on the background


def test_a_map_without_coordinates_is_laid_out_by_region() -> None:
    game = load_pack(Path(__file__).parent / "packs" / "shadow").game
    root = ET.fromstring(render_svg(game))
    points = {(c.get("cx"), c.get("cy")) for c in root.findall(f"{SVG}circle")}
    assert len(points) == 6 + 2  # all places apart, plus the legend


def test_a_pack_without_a_map_gives_an_empty_picture() -> None:
    root = ET.fromstring(render_svg(load_pack("carchase").game))
    assert "no map" in "".join(t.text or "" for t in root.iter(f"{SVG}text"))


def test_the_cli_writes_svg_and_refuses_other_formats(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "world.svg"
    assert main(["map", "rednotice", "--out", str(out)]) == 0
    assert "30 places, 50 routes" in capsys.readouterr().out
    ET.parse(out)
    mask = os.umask(0o022)
    try:
        assert main(["map", "rednotice", "--out", str(out)]) == 0
    finally:
        os.umask(mask)
    assert out.stat().st_mode & 0o777 == 0o644  # readable by others, like any output
    assert main(["map", "rednotice", "--out", str(tmp_path / "world.png")]) == 1
    assert "the map is drawn as SVG" in capsys.readouterr().err


def test_a_crowded_continent_is_spread_out() -> None:
    _, dots = _world()
    nearest = min(math.dist(a, b) for i, a in enumerate(dots.values())
                  for b in list(dots.values())[i + 1:])
    assert nearest >= 36  # London and Paris are 14 pixels apart at the map's scale


def _pack_with_route_properties(tmp_path: Path) -> Path:
    """The shadow pack, with a kind on every route and a cost on two of them."""
    folder = tmp_path / "shadow"
    shutil.copytree(Path(__file__).parent / "packs" / "shadow", folder)
    content = folder / "content.yaml"
    text = content.read_text()
    for old, new in [("    - [a, b]\n", "    - {from: a, to: b, kind: tram, cost: 2}\n"),
                     ("    - [b, c]\n", "    - {from: b, to: c, kind: bus}\n"),
                     ("    - [a, d]\n", "    - {from: a, to: d, kind: bus, cost: 3}\n"),
                     ("    - [d, e]\n", "    - {from: d, to: e, kind: bus}\n"),
                     ("    - [e, f]\n", "    - {from: e, to: f, kind: bus}\n")]:
        assert old in text
        text = text.replace(old, new)
    content.write_text(text)
    return folder


def test_route_properties_colour_and_label_the_routes(tmp_path: Path) -> None:
    root = ET.fromstring(render_svg(load_pack(_pack_with_route_properties(tmp_path)).game))
    routes = {g.findtext(f"{SVG}title"): g.get("stroke") for g in root.iter(f"{SVG}g")}
    # kind (text, 2 values) colours the routes; the other properties are written on them
    assert routes["Alder - Birch (kind tram, cost 2)"] != routes["Birch - Cedar (kind bus)"]
    assert routes["Birch - Cedar (kind bus)"] == routes["Alder - Dogwood (kind bus, cost 3)"]
    assert routes["Cedar - Fir (long)"] == "#888"  # no kind: grey
    labels = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "route-label"]
    assert sorted(labels) == ["cost 2", "cost 3", "long"]
    legend = [t.text for t in root.iter(f"{SVG}text")]
    assert "kind: tram" in legend and "kind: bus" in legend


def test_the_text_map_lists_route_properties(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["map", str(_pack_with_route_properties(tmp_path)), "--no-color"]) == 0
    out = capsys.readouterr().out
    routes = out[out.index("Routes"):].splitlines()
    assert routes == ["Routes", "  Alder - Birch: kind tram, cost 2", "  Birch - Cedar: kind bus",
                      "  Alder - Dogwood: kind bus, cost 3", "  Cedar - Fir: long",
                      "  Dogwood - Elm: kind bus", "  Elm - Fir: kind bus"]


def test_a_map_whose_routes_carry_nothing_lists_no_routes(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["map", "rednotice", "--no-color"]) == 0
    assert "Routes" not in capsys.readouterr().out
