"""Two routes of different kinds between the same two places (a taxi and a bus, say): the
second names itself with an ``id`` of its own."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulekit.errors import PackErrors
from rulekit.pack.loader import load_pack
from tests.test_map_features import PACK, evaluate

BUS = "    - {from: b, to: a, id: a_b_bus, long: true}\n"


def shadow(tmp_path: Path, extra: str) -> Path:
    (tmp_path / "pack.yaml").write_text((PACK / "pack.yaml").read_text())
    text = (PACK / "content.yaml").read_text().replace("    - [e, f]\n", "    - [e, f]\n" + extra)
    (tmp_path / "content.yaml").write_text(text)
    return tmp_path


def test_a_second_route_with_an_id_of_its_own_joins_the_same_places(tmp_path: Path) -> None:
    game = load_pack(shadow(tmp_path, BUS)).game
    state = game.new_game(1)
    assert evaluate(game, state, "edges_of(@a)") == ["a-b", "a-d", "a_b_bus"]
    assert evaluate(game, state, "neighbors(@a)") == ["b", "d"]  # each place once
    assert evaluate(game, state, "edge(@a, @b)") == "a-b"  # the first route given
    assert evaluate(game, state, "[e for e in edges_of(@b) if e.long == true]") == ["a_b_bus"]
    assert evaluate(game, state, "distance(@a, @c)") == 2


def test_a_second_route_without_an_id_is_a_located_error(tmp_path: Path) -> None:
    with pytest.raises(PackErrors) as caught:
        load_pack(shadow(tmp_path, "    - [b, a]\n"))
    [error] = caught.value.errors
    assert error.message == "the edge b - a is given twice"
    assert error.hint == ("a second route between the same places needs an id of its own: "
                          "{from: b, to: a, id: b_a_2}")
    assert error.location is not None and error.location.line == 24
