"""A ``range`` of two numbers written in the code, only walked (by a comprehension, a ``for``
loop or a choice), is Python's range: the same items, both ends included, on the normal path
and in playouts; one too long is still the located error of a run.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulekit.engine.playout import playout
from rulekit.errors import GameRuntimeError
from tests.helpers_lang import content, load, locate
from tests.test_playout import normally, samplers

WALKS = """\
    let k = choose a one of range(2, 4) where it != 3 prompt "k"
    for i in range(1, 3) { total += i * 10 }
    total += sum([x for x in range(3, 5)]) + count([y for y in range(5, 4)]) + k * 100
"""


def test_ranges_written_in_the_code_walk_both_ends(tmp_path: Path) -> None:
    game = load(tmp_path, content(phases={"main": WALKS})).game
    totals = set()
    for seed in range(12):
        state, _, _ = normally(game, seed)
        played = game.initial_state(seed)
        playout(game, played, samplers(seed, game))
        assert played["vars"]["total"] == state["vars"]["total"]
        totals.add(state["vars"]["total"])
    assert totals == {272, 472}  # 10 + 20 + 30, 3 + 4 + 5, no item, k = 2 or 4


@pytest.mark.parametrize("code", ["for i in range(1, 300000000) { total += 1 }",
                                  "total = count([x for x in range(1, 300000000)])"])
def test_a_range_too_long_is_a_located_error(tmp_path: Path, code: str) -> None:
    text = content(setup=code)
    with pytest.raises(GameRuntimeError) as info:
        load(tmp_path, text).game.new_game(0)
    assert "range(1, 300000000) is too long" in info.value.message
    loc = info.value.location
    assert loc is not None and (loc.line, loc.column) == locate(text, code)
