"""``rulekit map PACK --out FILE.svg`` draws a pack's map."""

from __future__ import annotations

import os
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
    lines = root.findall(f"{SVG}line")
    assert len(lines) == len(game.symbols.board.edges) == 50
    # one dot per city, one per continent in the legend
    assert len(circles) == len(game.symbols.board.nodes) + len(game.symbols.board.regions)
    texts = {t.text for t in root.iter(f"{SVG}text")}
    assert {"Paris", "Tokyo", "Rio de Janeiro", "Oceania"} <= texts
    dashed = [line for line in lines if line.get("stroke-dasharray")]
    assert len(dashed) == 19  # the routes between continents
    for circle in circles:
        assert 0 <= float(circle.get("cx", -1)) <= 1200
        assert 0 <= float(circle.get("cy", -1)) <= 700


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
