"""Run-time size limits: integers within ±(2^63 - 1), texts under 64 KB, lists under 100,000 items,
and comprehension iterations counted against the step budget.

Each reproducer ran for seconds (or ended in MemoryError) before the limits; now each stops at
once with a located GameRuntimeError that names the limit.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers_lang import BASE, content, load, locate, logs, run

from rulekit.errors import GameRuntimeError
from rulekit.sim.simulation import play_game

INTEGER = "numbers must stay within -9,223,372,036,854,775,807 and 9,223,372,036,854,775,807"
TEXT = "texts hold at most 65,536 characters"
LIST = "lists hold at most 100,000 items"
STEPS = "the game ran 1,000,000 steps"


@pytest.mark.parametrize("code, needle, message", [
    ("let q = 2\nrepeat 40 { q = q * q }", "q = q * q", INTEGER),
    ("let q = 1\nrepeat 70 { q += q }", "q += q", INTEGER),
    ("repeat 70 { total += total + 1 }", "total += total", INTEGER),
    ("let q = 0 - 4611686018427387904\nlet r = q - q - q - q - q", "let r", INTEGER),
    # remainders are bounded, but their product may still be too large
    ("let q = 3000000000000\nlet r = (q % 3000000000001) * (q % 3000000000001) * 7", "let r",
     INTEGER),
    ('log "{sum([9000000000000000000 for x in range(1, 5)])}"', "log", INTEGER),
    ('let t = "ab"\nrepeat 36 { t = t + t }', "t = t + t", TEXT),
    ('log "{count([text(range(1, 99999)) for x in [1]])}"', "log", TEXT),
    ('log "{count(range(1, 300000000))}"', "log", "range(1, 300000000) is too long: " + LIST),
    ("let l = [1]\nrepeat 40 { l = l + l }", "l = l + l", LIST),
    ("let l = [1]\nrepeat 40 { l += l }", "l += l", LIST),
    ('log "{count([count([y for y in range(1, 90000)]) for x in range(1, 90000)])}"', "log",
     STEPS),
])
def test_values_past_a_limit_stop_the_game_with_a_located_error(
        tmp_path: Path, code: str, needle: str, message: str) -> None:
    text = content(setup=code)
    game = load(tmp_path, text).game
    with pytest.raises(GameRuntimeError) as info:
        game.new_game(0)
    assert message in info.value.message
    loc = info.value.location
    assert loc is not None and loc.file.endswith("content.yaml")
    assert loc.line == locate(text, needle)[0]


LIST_WORK = [
    "repeat 900000 { let q = sorted(reverse(range(1, 99999))) }",
    "repeat 900000 { let q = 0 in h }",
    "repeat 900000 { let q = h == h }",
    "repeat 900000 { let q = sum(h) + count([x for x in h]) }",
    "repeat 900000 { let q = any(h) or all(h) or max(h) > min(h) }",
    'repeat 900000 { let q = text(h) }',
    "repeat 900000 { let q = h + h }",
    "repeat 900000 { let q = h\nq += h }",
    "repeat 900000 { let q = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17] }",
    "repeat 900000 { shuffle deck }",
    "repeat 900000 { move all from deck to discard; move all from discard to deck }",
]


@pytest.mark.parametrize("code", LIST_WORK)
def test_list_work_counts_against_the_step_budget(tmp_path: Path, code: str) -> None:
    """Each list built or walked counts its items, in steps and in playouts alike."""
    text = content(setup=f"let h = range(1, 4999)\n{code}")
    game = load(tmp_path, text).game
    with pytest.raises(GameRuntimeError) as info:
        game.new_game(0)
    assert STEPS in info.value.message
    loc = info.value.location
    first = locate(text, "repeat")[0]
    assert loc is not None and first <= loc.line <= first + code.count("\n")
    text = content(phases={"work": f"let h = range(1, 4999)\n{code}"})
    game = load(tmp_path / "playout", text).game
    with pytest.raises(GameRuntimeError) as info:
        play_game(game, 0)
    assert STEPS in info.value.message


def test_a_sum_of_large_properties_past_the_limit_stops_the_game(tmp_path: Path) -> None:
    # Sums of small numbers are left to Python unchecked (they cannot reach the limit); these
    # properties are not small.
    base = BASE.replace("score: 5}", "score: 5000000000000000000}").replace(
        "score: 6}", "score: 6000000000000000000}")
    text = content(setup='log "{sum([c.score for c in cards()])}"', base=base)
    game = load(tmp_path, text).game
    with pytest.raises(GameRuntimeError) as info:
        game.new_game(0)
    assert INTEGER in info.value.message
    loc = info.value.location
    assert loc is not None and loc.line == locate(text, "log")[0]
    small = content(setup='log "{sum([c.score for c in cards()])} {sum([2 for c in cards()])}"')
    game, state = run(tmp_path / "small", small)
    assert logs(game, state) == ["21 12"]


def test_values_at_the_limits_are_fine_and_round_trip_through_json(tmp_path: Path) -> None:
    game, state = run(tmp_path, content(setup="""
        let q = 4611686018427387904
        total = q + (q - 1)
        tag = "x"
        repeat 16 { tag = tag + tag }
        let l = range(1, 100000)
        log "{total} {count(l)} {0 - total}"
    """))
    assert logs(game, state) == ["9223372036854775807 100000 -9223372036854775807"]
    assert len(state["vars"]["tag"]) == 65_536
    assert json.loads(json.dumps(state)) == state
