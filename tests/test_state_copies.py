"""Copies of a state behave as deep copies: the rule that lets ``copy_state`` share values.

``copy_state`` copies only the containers the engine changes in place and shares every other
value (see its docstring). These tests play random games without ``in_place``, so that every
move is made on a fresh copy, and check after each one that the state it was made from is
still exactly what it was: if generated code or the engine changed in place a value that a copy
shares, the earlier state would change too.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from rulekit.engine.game import Game, copy_state
from rulekit.pack.loader import load_pack
from tests.helpers_lang import content, load

# Lists in variables and locals, a loop over a procedure that stops, subsets chosen and kept.
LISTS_PACK = content(
    base="""\
cards:
  - {id: c1, name: One, kind: x, score: 1}
  - {id: c2, name: Two, kind: x, score: 2}
  - {id: c3, name: Three, kind: y, score: 3}
  - {id: c4, name: Four, kind: y, score: 4}
zones:
  deck: {visibility: hidden, initial: all}
  hand: {per_role: true, visibility: owner}
  table: {visibility: public}
variables:
  kept: {initial: []}
  counts: {initial: []}
""",
    procs={"pick": ("{p: role}", """\
        let xs = choose p subset of hand[p] max 2
        kept += xs
        counts = counts + [count(xs)]
        move xs from hand[p] to table
        log "{p} keeps {xs}"
        """)},
    phases={"main": """\
        draw 2 from deck to hand[a]
        draw 2 from deck to hand[b]
        let order = [a, b, a]
        for p in order {
          pick(p)
          let again = choose p one of kept optional
          if again != none { kept = kept + [again] }
        }
        move all from table to deck
        shuffle deck
        """},
    rounds="3",
)


def _dump(state: dict[str, Any]) -> str:
    return json.dumps(state)


def _play_on_copies(game: Game, seed: int) -> int:
    """A random game in which every move is made on a copy; check the states left behind."""
    rand = random.Random(seed)
    state = game.new_game(seed)
    moves = 0
    while state["result"] is None:
        before = _dump(state)
        actions = {d.player: d.sample(rand) for d in game.pending(state)}
        new = game.apply(state, actions)
        assert _dump(state) == before, f"move {moves} changed the state it was made from"
        state = new
        moves += 1
    return moves


@pytest.mark.parametrize(("pack", "games"), [("carchase", 20), ("rednotice", 2)])
def test_moves_on_copies_leave_earlier_states_alone(pack: str, games: int) -> None:
    game = load_pack(pack).game
    assert sum(_play_on_copies(game, seed) for seed in range(games)) > games


def test_lists_in_variables_and_loops_are_not_shared(tmp_path: Path) -> None:
    game = load(tmp_path, LISTS_PACK).game
    for seed in range(30):
        _play_on_copies(game, seed)


def test_a_copy_is_equal_and_independent(tmp_path: Path) -> None:
    game = load(tmp_path, LISTS_PACK).game
    rand = random.Random(4)
    state = game.new_game(1)
    while state["result"] is None:
        twin = copy_state(state)
        assert twin == state and _dump(twin) == _dump(state)
        before = _dump(state)
        # Two different futures of one state do not disturb each other or the state.
        futures = [game.apply(copy_state(twin), {d.player: d.sample(rand)
                                                 for d in game.pending(twin)}, in_place=True)
                   for _ in range(2)]
        assert _dump(state) == before == _dump(twin)
        assert all(f is not state for f in futures)
        state = game.apply(state, {d.player: d.sample(rand) for d in game.pending(state)})


def test_unknown_keys_are_copied_deeply() -> None:
    game = load_pack("carchase").game
    state = game.new_game(3)
    state["notes"] = {"seen": [["x"]]}
    twin = copy_state(state)
    twin["notes"]["seen"][0].append("y")
    assert state["notes"] == {"seen": [["x"]]}
