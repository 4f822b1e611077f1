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
from hypothesis import given, settings
from hypothesis import strategies as st

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


def _play_in_place_keeping_copies(game: Game, seed: int) -> int:
    """A random game played in place, a copy taken before each move: every write the engine
    makes to the state it plays on (moves, draws, shuffles, variables, locals, loops, the
    log, decisions, the end) must leave the copies taken earlier as they were."""
    rand = random.Random(seed)
    state = game.new_game(seed)
    kept = []
    while state["result"] is None:
        twin = copy_state(state)
        kept.append((twin, _dump(twin)))
        game.apply(state, {d.player: d.sample(rand) for d in game.pending(state)},
                   in_place=True)
    for moves, (twin, text) in enumerate(kept):
        assert _dump(twin) == text, f"a write after move {moves} showed in its copy"
    return len(kept)


@pytest.mark.parametrize(("pack", "games"), [("carchase", 10), ("rednotice", 1)])
def test_writes_to_the_original_never_show_in_a_copy(pack: str, games: int) -> None:
    game = load_pack(pack).game
    assert sum(_play_in_place_keeping_copies(game, seed) for seed in range(games)) > games


def test_writes_to_lists_in_variables_and_loops_never_show_in_a_copy(tmp_path: Path) -> None:
    game = load(tmp_path, LISTS_PACK).game
    for seed in range(10):
        _play_in_place_keeping_copies(game, seed)


# Every kind of write the engine makes in place, as (what it writes, how), on a state of
# LISTS_PACK in the middle of its loop: the containers ``copy_state`` copies.
WRITES: list[tuple[str, Any]] = [
    ("a card added to a pile", lambda s: s["zones"]["table"].append("c1")),
    ("cards put back in a pile", lambda s: s["zones"]["deck"].extend(["c3", "c4"])),
    ("a card put on top of a pile", lambda s: s["zones"]["table"].insert(0, "c2")),
    ("a variable set", lambda s: s["vars"].__setitem__("kept", ["c9"])),
    ("a local set", lambda s: _loop_frame(s)["locals"].__setitem__(0, "x")),
    ("a frame moved on", lambda s: s["stack"][-1].__setitem__("pc", 99)),
    ("a frame pushed", lambda s: s["stack"].append({"proc": "pick", "pc": 0, "locals": []})),
    ("a loop stepped",
     lambda s: next(filter(_is_loop, _loop_frame(s)["locals"])).__setitem__(1, 7)),
    ("an event logged", lambda s: s["log"].append({"e": "log", "to": None})),
    ("a decision asked", lambda s: s["pending"].append({"player": "a"})),
    ("an answer committed", lambda s: s["committed"].__setitem__("a", "x")),
    ("a key set", lambda s: s.__setitem__("round", 42)),
]


def _is_loop(value: Any) -> bool:
    """Whether a local is the ``[items, position]`` pair of a loop."""
    return (isinstance(value, list) and len(value) == 2 and isinstance(value[0], list)
            and isinstance(value[1], int))


def _loop_frame(state: dict[str, Any]) -> list[Any]:
    return next(frame for frame in state["stack"] if any(map(_is_loop, frame["locals"])))


def _in_a_loop(game: Game) -> dict[str, Any]:
    """A state of LISTS_PACK waiting inside its ``for`` loop (a loop pair among the locals)."""
    rand = random.Random(0)
    state = game.new_game(0)
    while not any(map(_is_loop, (v for frame in state["stack"] for v in frame["locals"]))):
        state = game.apply(state, {d.player: d.sample(rand) for d in game.pending(state)})
    return state


@pytest.fixture(scope="module")
def in_a_loop(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return _in_a_loop(load(tmp_path_factory.mktemp("lists"), LISTS_PACK).game)


@settings(max_examples=40, deadline=None)
@given(writes=st.lists(st.sampled_from(range(len(WRITES))), min_size=1, max_size=6),
       to_copy=st.booleans())
def test_every_kind_of_write_stays_on_its_side(in_a_loop: dict[str, Any], writes: list[int],
                                               to_copy: bool) -> None:
    """Writes to the original never show in a copy, and writes to a copy never show in the
    original, whatever their kind and order."""
    original = copy_state(in_a_loop)
    twin = copy_state(original)
    written, untouched = (twin, original) if to_copy else (original, twin)
    before = _dump(untouched)
    for index in writes:
        what, write = WRITES[index]
        write(written)
        assert _dump(untouched) == before, f"{what} showed on the other side"
    assert _dump(written) != before

