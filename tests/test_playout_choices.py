"""Choices in the fast code of playouts, answered by random seats without a spec.

A choice of one item asked alone goes to ``PlayoutRuntime.choose_one``, and subsets (alone or
asked together) to ``choose_subsets``; what is not the usual case goes the way of the spec.
Every shape (forced, optional, empty, with ``where``, refused draws, with anytime actions and
without) gives the games of the normal path, recorded or not, stopped at a round limit or
not, with as many decisions and the same errors.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rulekit.engine.draws import RandomChooser
from rulekit.engine.game import Game
from rulekit.engine.playout import PlayoutRuntime, playout
from rulekit.engine.rng import derive
from rulekit.errors import GameRuntimeError
from rulekit.pack.loader import load_pack
from rulekit.sim.simulation import play_game, seat_rng
from tests.helpers_lang import content, load
from tests.test_anytime import ANYTIME, SETUP
from tests.test_playout import same_game

SHAPES = """\
draw 1 from deck to discard
let c = choose a one of discard optional prompt "Keep"
if c != none {
  move c from discard to hand[a]
}
let k = choose b one of [total] prompt "Forced"
let m = choose b one of [1, 2, 3] as x where x != k prompt "Other"
let o = choose a one of hand[a] as y where y.score > 2 optional prompt "Show"
let p = choose a one of discard optional prompt "Maybe none"
let w = choose a one of [first(deck)] prompt "The top card, always asked"
total = m
tag = choose b one of ["left", "right"] prompt "Side"
let s = choose b subset of discard max 1 prompt "Some"
let t = choose a subset of [1, 2, 3, 4] min 1 max 2 prompt "At least one"
let u = choose b subset of range(1, 30) max 1 prompt "Mostly refused draws"
let v = choose a subset of hand[a] prompt "Any"
total = count(t) + count(u)
tag = tag + text(v) + text(m) + text(c) + text(w)
"""


def shapes_pack(tmp_path: Path, anytime: bool) -> Game:
    text = content(setup=SETUP, phases={"main": SHAPES}, rounds="5",
                   after_rounds='if count(hand[a]) > 1 { win a "Many." } else { win b "Few." }')
    if anytime:  # (a subset whose draws are all refused may then draw an anytime action)
        text = text.replace("procedures:\n", "") + ANYTIME
    return load(tmp_path, text).game


def stepped(game: Game, seed: int, max_rounds: int | None = None) -> dict[str, Any]:
    """A game of random seats played step by step, as the golden games are."""
    rngs = {role: seat_rng(seed, role) for role in game.roles}
    state = game.new_game(seed)
    while state["result"] is None:
        if max_rounds is not None and state["round"] > max_rounds:
            break
        actions = {d.player: d.sample(rngs[d.player]) for d in game.pending(state)}
        game.apply(state, actions, in_place=True)
    return state


def random_seats(game: Game, seed: int) -> dict[str, Any]:
    return {role: RandomChooser(seat_rng(seed, role)) for role in game.roles}


def played_out(game: Game, seed: int, record: bool = True,
               max_rounds: int | None = None) -> dict[str, Any]:
    state = game.initial_state(seed)
    playout(game, state, random_seats(game, seed), max_rounds, record=record)
    return state


def stepped_decisions(game: Game, seed: int) -> int:
    """The number of decisions of a game of random seats played step by step."""
    choosers = random_seats(game, seed)
    state = game.new_game(seed)
    decisions = 0
    while state["result"] is None:
        actions = {d.player: choosers[d.player](d) for d in game.pending(state)}
        game.apply(state, actions, in_place=True)
        decisions += len(actions)
    return decisions


def count_short_answers(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Count the calls of ``choose_one`` and ``choose_subsets`` that need no spec."""
    calls = {"choose_one": 0, "choose_subsets": 0}
    answer = PlayoutRuntime.answer
    specs = [0]

    def answered(self: PlayoutRuntime, *args: Any) -> Any:
        specs[0] += 1
        return answer(self, *args)

    def counted(name: str) -> Any:
        method = getattr(PlayoutRuntime, name)

        def call(self: PlayoutRuntime, *args: Any) -> Any:
            before = specs[0]
            result = method(self, *args)
            calls[name] += specs[0] == before
            return result
        return call
    monkeypatch.setattr(PlayoutRuntime, "answer", answered)
    for name in list(calls):
        monkeypatch.setattr(PlayoutRuntime, name, counted(name))
    return calls


@pytest.mark.parametrize("anytime", [True, False])
def test_single_choices_of_every_shape_are_the_games_of_the_normal_path(
        tmp_path: Path, anytime: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    game = shapes_pack(tmp_path, anytime)
    calls = count_short_answers(monkeypatch)
    taken = 0
    for i in range(40):
        seed = derive(31, i)
        expected = stepped(game, seed)
        state = played_out(game, seed)
        assert same_game(state, expected), f"game {i}"
        quiet = played_out(game, seed, record=False)
        chosen = [e for e in expected["log"] if e["e"] != "choice" or e["option"][0] == "!"]
        assert same_game({**quiet, "log": []}, {**expected, "log": []}), f"game {i}"
        assert quiet["log"] == chosen, f"game {i}"
        taken += sum(e["e"] == "choice" and e["option"][0] == "!" for e in expected["log"])
    assert calls["choose_one"] > 40 * 5 * 4  # most choices of one item need no spec
    assert (calls["choose_subsets"] > 40 * 5 * 2) != anytime  # (with anytime: the spec's way)
    assert (taken > 20) == anytime


@pytest.mark.parametrize("pack", ["rednotice", "shapes"])
def test_a_playout_of_random_seats_stops_at_the_round_limit_with_the_specs_pending(
        pack: str, tmp_path: Path) -> None:
    game = shapes_pack(tmp_path, True) if pack == "shapes" else load_pack(pack).game
    for i in range(4):
        seed = derive(32, i)
        state = played_out(game, seed, max_rounds=2 + i % 2)
        expected = stepped(game, seed, max_rounds=2 + i % 2)
        assert state["pending"] and state["result"] is None
        # (a playout stopped by the round limit is for reading: its frames are its own)
        assert same_game({**state, "stack": []}, {**expected, "stack": []}), f"game {i}"


TOGETHER = """\
draw 2 from deck to hand[a]
draw 1 from deck to hand[b]
let h = choose a subset of hand[a] at most 1 where it.score > 3 prompt "At most one high"
simultaneous {
  let x = choose a subset of discard at most 1 where it.kind == "x" prompt "Together"
  let y = choose b subset of hand[b] as c where c.score > 100 prompt "None, asked"
}
simultaneous {
  let p = choose a subset of range(1, 30) max 2 at most 1 where it > 5 prompt "Mostly refused"
  let q = choose b subset of [c for c in discard if c.score > 100] prompt "None, forced"
}
simultaneous {
  let r = choose a subset of [1, 2, 3] min 1 max 2 at most 1 where it > 1 prompt "At least one"
  let s = choose b subset of [1, 2, 3] at most 0 where it == 2 prompt "Never two"
}
simultaneous {
  let t = choose a subset of [1, 2] max 0 at most 1 where it > 0 prompt "None allowed"
  let u = choose b subset of discard at most 2 where it.score > 0 prompt "Any"
}
let w = choose b subset of [1, 2, 3] at most count(discard) - 100 where it > 5 prompt "Rule of none"
total = count(w)
move all from hand[a] to discard
move all from hand[b] to discard
total = count(h) + count(x) + count(p) + count(r) + count(s) + count(t) + count(u)
total += count(y) + count(q)
tag = text(h) + text(x) + text(p) + text(u)
"""


@pytest.mark.parametrize("anytime", [True, False])
def test_subsets_asked_together_or_with_rules_are_the_games_of_the_normal_path(
        tmp_path: Path, anytime: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Subsets asked together, and one asked alone with an 'at most' rule: candidates or
    none (asked or forced),
    refused draws, a least above 0, an 'at most 0' rule, a most of 0, a rule below 0 that
    counts no candidate (which the spec leaves out)."""
    text = content(setup=SETUP, phases={"main": TOGETHER}, rounds="4",
                   after_rounds='if total > 3 { win a "Many." } else { win b "Few." }')
    if anytime:
        text = text.replace("procedures:\n", "") + ANYTIME
    game = load(tmp_path, text).game
    calls = count_short_answers(monkeypatch)
    for i in range(40):
        seed = derive(33, i)
        expected = stepped(game, seed)
        assert same_game(played_out(game, seed), expected), f"game {i}"
        quiet = game.initial_state(seed)
        decisions, _ = playout(game, quiet, random_seats(game, seed), record=False)
        chosen = [e for e in expected["log"] if e["e"] != "choice" or e["option"][0] == "!"]
        assert same_game({**quiet, "log": []}, {**expected, "log": []}), f"game {i}"
        assert quiet["log"] == chosen, f"game {i}"
        assert decisions == stepped_decisions(game, seed)
    # Without anytime actions, a group whose choices surely have several answers needs no
    # spec (not one with a least above 0, an 'at most 0' rule, no candidate...).
    assert (calls["choose_subsets"] > 0) != anytime


@pytest.mark.parametrize(("second", "call", "error"), [
    ('choose q subset of [1, 2, 3] prompt "Second"', "both(b, b)",
     "two choices in the same simultaneous block"),
    ('choose q subset of [c for c in discard if c.score > 100] min 1 max 3 prompt "None"',
     "both(a, b)", "must choose at least 1"),
])
def test_subsets_asked_together_that_cannot_be_answered_are_the_errors_of_the_normal_path(
        tmp_path: Path, second: str, call: str, error: str) -> None:
    """(After the first choice, which play_game watches through its spec.)"""
    text = content(procs={"both": ("{p: role, q: role}", f"""\
simultaneous {{
  let x = choose p subset of [1, 2, 3] prompt "First"
  let y = {second}
}}
""")}, phases={"main": f'let z = choose a subset of [1, 2] prompt "Watched"\n{call}'})
    game = load(tmp_path, text).game
    with pytest.raises(GameRuntimeError, match=error) as played:
        play_game(game, 5)
    with pytest.raises(GameRuntimeError, match=error) as normal:
        stepped(game, 5)
    assert played.value.location == normal.value.location
