"""Choices in the playout code of random seats, answered from their candidates worked out in
place, without a spec (the spec is made only for the watch, the round limit and what is not
drawn in short): a choice of one item asked alone by ``QuickAnswers.choose_one``; in a game
without anytime actions, a subset asked alone with no 'at most' rule by ``choose_subset``, and
subsets asked together or with 'at most' rules by ``choose_subsets``. Every shape of such a
choice (forced, optional, empty, with ``where``, refused draws, in a pack with anytime actions
and without) gives the games of the normal path, recorded or not, stopped at a round limit or
not, with as many decisions and the same errors.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rulekit.engine.game import Game
from rulekit.engine.playout import PlayoutRuntime, _play_normally, run_playout
from rulekit.engine.quickanswers import QuickAnswers
from rulekit.engine.randomchooser import RandomChooser
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


def played_out(game: Game, seed: int, record: bool = True,
               max_rounds: int | None = None) -> dict[str, Any]:
    state = game.initial_state(seed)
    run_playout(game, state, {role: RandomChooser(seat_rng(seed, role))
                              for role in game.roles}, max_rounds, record=record)
    return state


@pytest.mark.parametrize("anytime", [True, False])
def test_single_choices_of_every_shape_are_the_games_of_the_normal_path(
        tmp_path: Path, anytime: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    game = shapes_pack(tmp_path, anytime)
    calls = {"choose_one": 0, "choose_subset": 0}
    left = []  # the subsets a simulation's playout code leaves to choose_subset (it draws
    # the others in place: rulekit/lang/drawcode), as (candidates, least, most)
    asked = []  # the forced choices of one item, always asked, it leaves to choose_one:
    # which anytime actions of the player hold, as far as known then

    def counted(name: str) -> Any:
        method = getattr(QuickAnswers, name)

        def call(self: QuickAnswers, *args: Any) -> Any:
            if name == "choose_subset" and not self.record:
                left.append((list(args[2]), args[4], args[5]))
            else:
                calls[name] += 1
            if name == "choose_one" and not self.record:
                items, role, optional, ask = args[2], args[3], args[4], args[5]
                repeated = id(self) in again  # (asked again after an anytime action)
                again.discard(id(self))
                if ask and len(items) <= 1 and (items or optional) and not repeated:
                    held = None if self.whens is None else self.whens.get(role)
                    asked.append(None if held is None else list(held))  # (as it is now)
            return method(self, *args)
        return call
    for name in calls:
        monkeypatch.setattr(QuickAnswers, name, counted(name))
    again: set[int] = set()  # the runtimes that have just run an anytime action
    run_anytime = PlayoutRuntime.run_anytime

    def running(self: PlayoutRuntime, *args: Any) -> Any:
        again.add(id(self))
        return run_anytime(self, *args)
    monkeypatch.setattr(PlayoutRuntime, "run_anytime", running)
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
    assert calls["choose_one"] > 40 * 5 * 6
    assert calls["choose_subset"] == (0 if anytime else 40 * 5 * 4)  # (recorded, plain games)
    # Unrecorded, only what is not the usual case: no candidate, or a least above 0 (`t`,
    # each round), which goes the way of the spec.
    assert all(not items or least > 0 for items, least, _ in left)
    assert sum(least > 0 for _, least, _ in left) == (0 if anytime else 40 * 5)
    assert (taken > 20) == anytime
    # Unrecorded, a forced choice that is always asked (`o`, `w`) is drawn in place, as one
    # that is not forced, unless an anytime action of its player holds (or it is not known
    # yet which do).
    assert [] not in asked and (bool(asked) == anytime)


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
    """Subsets asked together, and one asked alone with an 'at most' rule, answered by
    ``QuickAnswers.choose_subsets`` in plain games: candidates or none (asked or forced),
    refused draws, a least above 0, an 'at most 0' rule, a most of 0, a rule below 0 that
    counts no candidate (which the spec leaves out)."""
    text = content(setup=SETUP, phases={"main": TOGETHER}, rounds="4",
                   after_rounds='if total > 3 { win a "Many." } else { win b "Few." }')
    if anytime:
        text = text.replace("procedures:\n", "") + ANYTIME
    game = load(tmp_path, text).game
    calls = {"choose_subsets": 0, "_answer_specs": 0}  # (in quiet playouts)

    def counted(name: str) -> Any:
        method = getattr(QuickAnswers, name)

        def call(self: QuickAnswers, *args: Any) -> Any:
            calls[name] += not self.record
            return method(self, *args)
        return call
    for name in calls:
        monkeypatch.setattr(QuickAnswers, name, counted(name))
    for i in range(40):
        seed = derive(33, i)
        expected = stepped(game, seed)
        assert same_game(played_out(game, seed), expected), f"game {i}"
        quiet = game.initial_state(seed)
        decisions, _ = run_playout(game, quiet, {role: RandomChooser(seat_rng(seed, role))
                                                 for role in game.roles}, record=False)
        chosen = [e for e in expected["log"] if e["e"] != "choice" or e["option"][0] == "!"]
        assert same_game({**quiet, "log": []}, {**expected, "log": []}), f"game {i}"
        assert quiet["log"] == chosen, f"game {i}"
        normal = game.initial_state(seed)
        assert decisions == _play_normally(game, normal, {
            role: RandomChooser(seat_rng(seed, role)) for role in game.roles}, None, None)[0]
    if anytime:  # (answered through the specs)
        assert calls["choose_subsets"] == 0
    else:  # six groups a round: the three the compiler finds surely of the usual case are
        # drawn in place (rulekit/lang/drawcode); the spec's way only for the least above 0,
        # 'at most 0'...
        assert calls["choose_subsets"] == 40 * 4 * 3
        assert calls["_answer_specs"] == 40 * 4 * 3


@pytest.mark.parametrize(("second", "call", "error"), [
    ('choose q subset of [1, 2, 3] prompt "Second"', "both(b, b)",
     "two choices in the same simultaneous block"),
    ('choose q subset of [c for c in discard if c.score > 100] min 1 max 3 prompt "None"',
     "both(a, b)", "must choose at least 1"),
])
def test_subsets_asked_together_that_cannot_be_answered_are_the_errors_of_the_normal_path(
        tmp_path: Path, second: str, call: str, error: str) -> None:
    """(A playout that fails is played again on the normal path: the error must come from
    the playout itself, the only way a wrong answer in short could show; and after the first
    choice, which play_game watches through its spec.)"""
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
