"""A choice asked alone, in the playout code of random seats: answered by
``QuickAnswers.choose_one`` (one item) or ``choose_subset`` (a subset with no 'at most' rule,
in a game without anytime actions) from its candidates worked out in place, without a spec (the
spec is made only for the watch, the round limit and what is not drawn in short). Every shape
of such a choice (forced, optional, empty, with ``where``, refused draws, in a pack with anytime
actions and without) gives the games of the normal path, recorded or not, stopped at a round
limit or not.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rulekit.engine.decisions import RandomChooser
from rulekit.engine.game import Game
from rulekit.engine.playout import run_playout
from rulekit.engine.quickanswers import QuickAnswers
from rulekit.engine.rng import derive
from rulekit.pack.loader import load_pack
from rulekit.simulate import seat_rng
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
total = m
tag = choose b one of ["left", "right"] prompt "Side"
let s = choose b subset of discard max 1 prompt "Some"
let t = choose a subset of [1, 2, 3, 4] min 1 max 2 prompt "At least one"
let u = choose b subset of range(1, 30) max 1 prompt "Mostly refused draws"
let v = choose a subset of hand[a] prompt "Any"
total = count(t) + count(u)
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

    def counted(name: str) -> Any:
        method = getattr(QuickAnswers, name)

        def call(self: QuickAnswers, *args: Any) -> Any:
            calls[name] += 1
            return method(self, *args)
        return call
    for name in calls:
        monkeypatch.setattr(QuickAnswers, name, counted(name))
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
    assert calls["choose_subset"] == (0 if anytime else 40 * 5 * 4 * 2)  # (in plain games)
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
