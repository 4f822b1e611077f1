"""The code the compiler writes for playouts: the pack's small functions written in place of
their calls, and choices asked again at once after an anytime action when no test before them
can have changed. Either way a playout is the game of the normal path, and an error in it is
the located error of a normal game.
"""

from __future__ import annotations

from pathlib import Path
from types import CodeType
from typing import Any

import pytest

from rulekit.engine.game import Game
from rulekit.errors import GameRuntimeError
from tests.helpers_lang import BASE, content, load, locate
from tests.test_anytime import ANYTIME, SETUP, check_games, guards_pack
from tests.test_playout import check_playouts, edited_shadow, normally, playout_error

# Functions calling functions (one of them recursive), called with locals, variables,
# constants and items of comprehensions (``x``, whose Python name would be that of ``c`` in
# ``pick`` were the names of a function written in place not its own), and with a list built
# in place (not written in).
FUNCTIONS = {
    "twice": ("{x: int}", "x + x"),
    "pick": ("{k: int}", "[c for c in cards() if c.score == twice(k) or c.score == k]"),
    "depth": ("{k: int}", "sum([1 + depth(k - 1) for x in [1] if k > 0])"),
    "fits": ("{c: card, k: int}", "c.score <= twice(k) and depth(k) >= 0"),
    "sizes": ("{xs: list}", "count(xs) + count([y for y in xs if y != none])"),
}
MAIN = """\
    bonus[b] = count([y for y in [1, 2] if y > 1])
    bonus[a] = count([x for x in [1, 2, 3] if count(pick(x)) > 0])
    let k = choose a one of [1, 2, 3] prompt "k"
    total = count(pick(k)) + depth(k)
    let c = choose b one of [c for c in deck if fits(c, total)] optional prompt "c"
    if c != none { move c from deck to hand[b] }
    score = sizes([k, total]) + sizes(hand[b])
"""


def functions_pack(tmp_path: Path) -> Game:
    text = content(phases={"main": MAIN}, rounds="3", functions=FUNCTIONS,
                   after_rounds='if total > 3 { win a "Big." } else { win b "Small." }')
    return load(tmp_path, text).game


def test_functions_written_in_place_play_the_games_of_the_normal_path(tmp_path: Path) -> None:
    game = functions_pack(tmp_path)
    check_playouts(game, 5, 40)
    called = _functions_called(game)
    assert "twice" not in called and "fits" not in called  # written in place
    assert "depth" in called  # recursive: called, from its copy written in place
    assert "sizes" in called  # called with a list built in place


def _functions_called(game: Game) -> set[str]:
    """The names of the pack's functions the playout versions call (``_F[name]``), in
    their code and that of the choices they make."""
    todo: list[Any] = [fn.__code__ for fn in game.program.runs.values()
                       if hasattr(fn, "__code__")]
    namespace = next(fn.__globals__ for fn in game.program.runs.values()
                     if hasattr(fn, "__globals__"))
    seen: set[Any] = set()
    called: set[str] = set()
    while todo:
        code = todo.pop()
        if code in seen:
            continue
        seen.add(code)
        if "_F" in code.co_names:
            called |= {c for c in code.co_consts if isinstance(c, str)} & set(FUNCTIONS)
        todo += [c for c in code.co_consts if isinstance(c, CodeType)]
        todo += [namespace[name].__code__ for name in code.co_names
                 if name.startswith("_k") and hasattr(namespace.get(name), "__code__")]
    return called


def test_an_error_in_a_function_written_in_place_is_that_of_a_normal_game(
        tmp_path: Path) -> None:
    functions = {"share": ("{n: int}", "12 // (n - 2)")}
    text = content(phases={"main": 'let k = choose a one of [1, 2, 3] prompt "k"\n'
                                   "total = share(k)"},
                   rounds="6", functions=functions)
    game = load(tmp_path, text).game
    with pytest.raises(GameRuntimeError) as normal:
        for seed in range(30):
            normally(game, seed)
    error = playout_error(game)
    assert error.message == normal.value.message == "division by zero"
    loc = error.location
    assert loc == normal.value.location
    assert loc is not None and (loc.line, loc.column) == locate(text, "total = share(k)")


# Tests before choices that read only what no anytime action writes (the actions move the
# deck, the discard and the hands; these read a variable and locals).
STEADY = """\
        let n = 0
        while total < 4 and n < 2 {
          let c = choose a one of deck prompt "Take"
          move c from deck to hand[a]
          total += 1
          n += 1
        }
        if total % 2 == 1 {
          let c = choose b one of hand[a] optional prompt "Send back"
          if c != none { move c from hand[a] to deck }
        }
        shuffle deck
"""


def steady_pack(tmp_path: Path) -> Game:
    text = content(setup=SETUP, phases={"main": STEADY}, rounds="4",
                   after_rounds='if total > 2 { win a "Many." } else { win b "Few." }')
    return load(tmp_path, text.replace("procedures:\n", "") + ANYTIME).game


def _runs_in_blocks(game: Game, name: str) -> bool:
    """Whether a playout runs procedure ``name`` through its blocks."""
    return name not in game.program.runs


def test_choices_after_tests_no_anytime_action_changes_are_asked_again_at_once(
        tmp_path: Path) -> None:
    game = steady_pack(tmp_path)
    proc = game.program.procs["phase:main"]
    assert proc.resume and not proc.moved_tests
    assert not _runs_in_blocks(game, "phase:main")
    assert check_games(game, range(60), 0.5) > 40


def test_choices_after_tests_an_anytime_action_may_change_run_in_blocks(
        tmp_path: Path) -> None:
    game = guards_pack(tmp_path)
    assert game.program.procs["phase:main"].moved_tests
    assert _runs_in_blocks(game, "phase:main")


def test_a_product_past_the_size_limits_in_a_playout_is_the_error_of_a_normal_game(
        tmp_path: Path) -> None:
    main = 'let k = choose a one of [1, 2] prompt "k"\ntotal = 4611686018427387904 * k'
    text = content(phases={"main": main}, rounds="8")
    game = load(tmp_path, text).game
    error = playout_error(game)
    assert "an integer is out of range" in error.message
    loc = error.location
    assert loc is not None and (loc.line, loc.column) == locate(text, "total = 4611")


# A zone numbered 1 to 3, indexed by sums and by a variable that walks a range: playout
# versions find its keys in a table by number.
ROWS = BASE.replace("zones:\n", "zones:\n  row: {per: 3, visibility: public}\n")
ROW_MAIN = """\
    let k = choose a one of KS prompt "k"
    let s = choose b one of range(1, 3) where count(row[it]) <= count(row[4 - it]) optional
    prompt "s"
    if s != none and count(deck) > 0 { move top(deck) from deck to row[s] }
    total = count(row[k * 1]) + count([r for r in range(1, 3) if count(row[r - 0]) > 0])
"""


def rows_pack(tmp_path: Path, ks: str) -> tuple[Game, str]:
    text = content(phases={"main": ROW_MAIN.replace("KS", ks)}, rounds="6", base=ROWS,
                   after_rounds='if total > 1 { win a "Many." } else { win b "Few." }')
    return load(tmp_path, text).game, text


def test_numbered_zones_by_table_play_the_games_of_the_normal_path(tmp_path: Path) -> None:
    game, _ = rows_pack(tmp_path, "[1, 2, 3]")
    check_playouts(game, 9, 30)


def test_a_number_out_of_range_in_a_playout_is_the_error_of_a_normal_game(
        tmp_path: Path) -> None:
    game, text = rows_pack(tmp_path, "[1, 2, 3, 4]")
    error = playout_error(game)
    assert error.message == "row[4] does not exist"
    loc = error.location
    assert loc is not None and (loc.line, loc.column) == locate(text, "total = count")


# Sums and differences of locals and variables around half the size limit (``big``), written in
# playout versions without a call while both are at most half of it, and of texts and lists.
SUMS = """\
    let k = choose a one of [1, 2, 3] prompt "k"
    let big = 4611686018427387903
    let x = big + k
    x -= k
    x = x - big + k
    x += big
    x -= big
    let t = tag + "x"
    t = t + "y"
    let xs = [1]
    xs = xs + [k]
    xs = xs + [x]
    total += count(xs) + x
    total -= 1
    score += k - 2
    tag = t
"""


def test_sums_in_a_playout_play_the_games_of_the_normal_path(tmp_path: Path) -> None:
    text = content(phases={"main": SUMS}, rounds="6",
                   after_rounds='if total > 20 { win a "Big." } else { win b "Small." }')
    states = check_playouts(load(tmp_path, text).game, 10, 30)
    assert {state["vars"]["score"] for state in states} >= {0, 5}  # (clamped both ways)


@pytest.mark.parametrize("line", ["total = big + big + k", "total = 0 - big - big - k",
                                  "total += big\n    total += big\n    total += k",
                                  "total -= big\n    total -= big\n    total -= k",
                                  "let y = big\n    y += big\n    y += k"])
def test_a_sum_past_the_size_limits_in_a_playout_is_the_error_of_a_normal_game(
        tmp_path: Path, line: str) -> None:
    main = f'let k = choose a one of [2, 3] prompt "k"\nlet big = 4611686018427387903\n{line}'
    text = content(phases={"main": main.replace("\n", "\n    ")})
    game = load(tmp_path, text).game
    error = playout_error(game)
    assert "an integer is out of range" in error.message
    loc = error.location
    last = line.split("\n")[-1].strip()
    assert loc is not None and (loc.line, loc.column) == locate(text, last)


# Lists of one property of each item, and their sums, which playout versions read through the
# property's table in C (``map``): of a choice, a pile, the cards; and of a list that holds
# ``none`` (no such property: the error of a normal game).
PROPERTIES = """\
    let picked = choose a subset of deck prompt "p"
    move picked from deck to hand[a]
    total = sum([c.score for c in picked]) + sum([c.score for c in hand[a]])
    let scores = [c.score for c in deck]
    score = count(scores) + sum(scores) % 3
    if count(scores) > 0 { score = first(scores) }
    bonus[b] = sum([c.score for c in cards()]) % 4
    let kinds = [c.kind for c in hand[a]]
    tag = text(kinds)
"""


def played_with_maps(tmp_path: Path, main: str, over: int) -> list[dict[str, Any]]:
    """The final states of playouts of a pack whose phase is ``main`` (won by ``a`` if
    ``total`` ends over ``over``), each the game of the normal path, after checking that
    its playout versions call ``map`` (the short way is the one tested)."""
    text = content(phases={"main": main}, rounds="3",
                   after_rounds=f'if total > {over} {{ win a "Big." }} else {{ win b "Small." }}')
    game = load(tmp_path, text).game
    states = check_playouts(game, 12, 30)
    assert "map" in {name for fn in game.program.runs.values() if hasattr(fn, "__code__")
                     for name in fn.__code__.co_names}
    return states


def test_lists_of_a_property_in_a_playout_play_the_games_of_the_normal_path(
        tmp_path: Path) -> None:
    states = played_with_maps(tmp_path, PROPERTIES, 12)
    assert len({state["vars"]["total"] for state in states}) > 3  # (games that differ)
    broken = content(phases={"main": "let xs = [first(deck), none]\n"
                                     "    total = sum([c.score for c in xs])"})
    game = load(tmp_path / "none", broken).game
    error = playout_error(game)
    normal = pytest.raises(GameRuntimeError)
    with normal as info:
        normally(game, 0)
    assert error.message == info.value.message and error.location == info.value.location
    assert error.location is not None and error.location.line == locate(broken, "total =")[0]


# Whether some item of a list has a property equal to a value, which playout versions read as
# ``value in map(<the property's table>, list)``: the value a local, a constant or a variable,
# on either side of ``==``; and where the value is the item itself (not read that way). Each
# answer is written into ``tag``, so that one that differs shows in the final state.
SOME_EQUAL = """\
    let picked = choose a subset of deck prompt "p"
    move picked from deck to hand[a]
    let k = choose b one of [1, 2, 3, 4] prompt "k"
    total += k
    let found = [any([c.score == k for c in hand[a]]), any([k == c.score for c in deck]),
                 any([c.kind == "y" for c in picked]), any([c.score == total for c in hand[a]]),
                 any([c.score == c.score for c in picked]), any([c.kind == "z" for c in []])]
    tag = tag + text(found)
"""


def test_whether_some_item_has_a_property_in_a_playout_plays_the_games_of_the_normal_path(
        tmp_path: Path) -> None:
    tags = {state["vars"]["tag"] for state in played_with_maps(tmp_path, SOME_EQUAL, 6)}
    assert len(tags) > 5 and any("true" in t for t in tags) and any("false" in t for t in tags)


# A zone's count compared with 0 or 1, which the code reads as whether the pile is empty, on
# both paths, against the same comparisons of a count held by a local.
EMPTINESS = ["count(Z) == 0", "count(Z) != 0", "count(Z) > 0", "count(Z) >= 1",
             "count(Z) < 1", "count(Z) <= 0", "0 == count(Z)", "0 < count(Z)", "1 > count(Z)",
             "1 <= count(Z)", "count(Z) == 1", "count(Z) > 1", "2 > count(Z)"]


@pytest.mark.parametrize("zone", ["discard", "hand[a]", "deck"])
def test_a_count_compared_with_zero_tells_whether_a_pile_is_empty(tmp_path: Path,
                                                                    zone: str) -> None:
    lines = [f"let n = count({zone})", "let got = 0", "let want = 0"]
    for bit, test in enumerate(EMPTINESS):
        lines += [f"if {test.replace('count(Z)', f'count({zone})')} {{ got += {1 << bit} }}",
                  f"if {test.replace('count(Z)', 'n')} {{ want += {1 << bit} }}"]
    lines += ["total = got", "score = 0", "if got == want { score = 1 }"]
    main = ("move [c for c in deck if c.kind == \"y\"] from deck to hand[b]\n"
            "move top(deck) from deck to hand[b]\n" + "\n".join(lines))
    text = content(phases={"main": main}, setup=SETUP,
                   after_rounds='if score == 1 { win a "Same." } else { win b "Not." }')
    game = load(tmp_path, text).game
    for quiet in (False, True):
        state, _, _ = normally(game, 3, quiet=quiet)
        assert state["result"]["winner"] == "a", state["vars"]
    states = check_playouts(game, 3, 4)
    assert all(state["result"]["winner"] == "a" for state in states)
    assert {state["vars"]["total"] for state in states} == {
        sum(1 << bit for bit, test in enumerate(EMPTINESS)
            if eval(test.replace("count(Z)", str(count)), {}))  # (numbers only)
        for count in [{"discard": 2, "hand[a]": 0, "deck": 1}[zone]]}


# Loops and comprehensions over the lists of the map, the roles and the cards (read in place in
# playout versions), over a zone whose cards the body moves (walked as a copy: each card of the
# desk goes to the notes and back, in order), and over a variable the body assigns (the list
# walked is the one the loop began with).
WALKS = """\
        let spots = count([r for r in roles()]) + count([c for c in cards() if c.kind == "wall"])
        for x in nodes() { spots += count(neighbors(x)) + count(edges_of(x)) }
        for r in regions() { spots += count([y for y in nodes_in(r) if y != seeker_at]) }
        for e in edges() { if count(wall_on[e]) > 0 { spots += 1 } }
        for w in desk { move w from desk to notes }
        for w in notes { move w from notes to desk }
        for t in trail { if count(trail) < 6 { trail += [t] } }
        if spots > 40 { energy += 1 }
"""


def test_walks_of_fixed_lists_zones_and_variables_play_the_games_of_the_normal_path(
        tmp_path: Path) -> None:
    move = "          move top(walls) from walls to wall_on[wall]\n        }\n"
    game, _ = edited_shadow(tmp_path, move, move + WALKS)
    states = check_playouts(game, 11, 30)
    assert all(state["zones"]["desk"] == ["note_s", "note_h"] for state in states)
    assert any(len(state["vars"]["trail"]) > 1 for state in states)
