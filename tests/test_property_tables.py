"""Properties of cards and map items read through a table per property (``lang/pyexpr``):
a component without the property reads none, and a property of none is the located error of
a normal game, on the normal path and in playouts alike.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulekit.engine.playout import playout
from rulekit.errors import GameRuntimeError
from tests.helpers_lang import BASE, content, load, locate
from tests.test_playout import normally, samplers

# Two cards with a 'gem' property (one of them false), the others without.
GEMS = BASE.replace("score: 1}", "score: 1, gem: 3}").replace("score: 4}", "score: 4, gem: 0}")
READS = """\
    let k = choose a one of [1, 2] prompt "k"
    total = count([c for c in cards() if c.gem == none]) * 10 + sum([c.gem for c in cards()
      if c.gem != none]) + k * 100
    tag = top(deck).name
"""


def test_a_property_missing_from_a_card_reads_none(tmp_path: Path) -> None:
    game = load(tmp_path, content(phases={"main": READS}, base=GEMS)).game
    state, _, _ = normally(game, 0)
    assert state["vars"]["total"] % 100 == 43  # four cards without a gem; 3 + 0
    assert state["vars"]["tag"] == "One"
    for seed in range(4):
        played = game.initial_state(seed)
        playout(game, played, samplers(seed, game))
        assert played["vars"]["total"] % 100 == 43


def test_a_property_of_none_is_a_located_error(tmp_path: Path) -> None:
    main = 'let k = choose a one of [1, 2] prompt "k"\ntotal = top(hand[a]).gem + k'
    text = content(phases={"main": main}, base=GEMS)
    game = load(tmp_path, text).game
    with pytest.raises(GameRuntimeError) as normal:
        normally(game, 0)
    with pytest.raises(GameRuntimeError) as info:
        playout(game, game.initial_state(0), samplers(0, game))
    for error in (normal.value, info.value):
        assert "none has no properties" in error.message
        loc = error.location
        assert loc is not None and (loc.line, loc.column) == locate(text, "total = top")
