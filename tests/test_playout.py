"""Playouts (engine/playout) give the very games the normal path gives, and its errors.

A playout answers each choice where it is made, running procedures whole in their fast code;
only the count of ``steps`` may differ. Compared here over random games of both shipped packs (Red
Notice has anytime actions), a pack with loops, lists and choices inside loops, quiet games, a
round limit, and a game that fails after some decisions.
"""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path
from typing import Any

import pytest

from rulekit.engine.decisions import Decision, Option
from rulekit.engine.draws import RandomChooser
from rulekit.engine.game import Game, copy_state
from rulekit.engine.playout import Chooser, playout
from rulekit.engine.rng import derive
from rulekit.errors import GameRuntimeError
from rulekit.pack.loader import load_pack
from tests.helpers_lang import content, load, locate
from tests.test_state_copies import LISTS_PACK


def samplers(seed: int, game: Game) -> dict[str, Chooser]:
    def sampler(rand: random.Random) -> Chooser:
        def sample(decision: Decision) -> Option | str:
            option = decision.sample(rand)
            return option.id if rand.random() < 0.3 else option  # ids are checked
        return sample
    return {role: sampler(random.Random(f"{seed}:{role}")) for role in game.roles}


def normally(game: Game, seed: int, *, quiet: bool = False,
             max_rounds: int | None = None) -> tuple[dict[str, Any], int, str | None]:
    """A game played decision by decision with Game.pending and Game.apply."""
    state = game.new_game(seed, quiet=quiet)
    choosers = samplers(seed, game)
    decisions = 0
    while state["result"] is None:
        if max_rounds is not None and state["round"] > max_rounds:
            return state, decisions, f"stopped after {max_rounds} rounds"
        actions = {d.player: choosers[d.player](d) for d in game.pending(state)}
        game.apply(state, actions, in_place=True)
        decisions += len(actions)
    return state, decisions, None


def played_out(game: Game, seed: int, *, quiet: bool = False,
               max_rounds: int | None = None) -> tuple[dict[str, Any], int, str | None]:
    """A game played out."""
    state = game.initial_state(seed, quiet=quiet)
    return state, *playout(game, state, samplers(seed, game), max_rounds)


def same_game(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return json.dumps({**a, "steps": 0}) == json.dumps({**b, "steps": 0})


def check_playouts(game: Game, base: int, count: int = 40, *, decisions: bool = False
                   ) -> list[dict[str, Any]]:
    """Play ``count`` games (seeds ``derive(base, i)``, every other one quiet) as playouts
    and on the normal path: each playout must be the normal game (and make as many
    decisions, if ``decisions``). The final states of the playouts."""
    states = []
    for i in range(count):
        seed, quiet = derive(base, i), i % 2 == 1
        state, made, _ = played_out(game, seed, quiet=quiet)
        expected, expected_made, _ = normally(game, seed, quiet=quiet)
        assert same_game(state, expected), f"game {i}"
        if decisions:
            assert made == expected_made
        states.append(state)
    return states


def playout_error(game: Game, seeds: int = 30) -> GameRuntimeError:
    """The error of the first of ``seeds`` playouts of sampling seats that fails (the test
    fails if none does)."""
    with pytest.raises(GameRuntimeError) as info:
        for seed in range(seeds):
            playout(game, game.initial_state(seed), samplers(seed, game))
    return info.value


def edited_shadow(tmp_path: Path, old: str, new: str) -> tuple[Game, str]:
    """The test pack "shadow" with ``old`` (which it must hold) replaced by ``new`` in its
    content file: its game and the new text."""
    folder = tmp_path / "shadow"
    shutil.copytree(Path(__file__).parent / "packs" / "shadow", folder)
    flow = folder / "content.yaml"
    text = flow.read_text()
    assert old in text
    text = text.replace(old, new)
    flow.write_text(text)
    return load_pack(folder).game, text


@pytest.mark.parametrize(("pack", "games"), [("carchase", 60), ("rednotice", 6)])
def test_playouts_are_the_games_of_the_normal_path(pack: str, games: int) -> None:
    game = load_pack(pack).game
    for i in range(games):
        seed = derive(11, i)
        quiet = i % 2 == 1
        state, decisions, capped = played_out(game, seed, quiet=quiet)
        expected, expected_decisions, _ = normally(game, seed, quiet=quiet)
        assert same_game(state, expected), f"game {i} differs"
        assert (decisions, capped) == (expected_decisions, None)


@pytest.mark.parametrize("pack", ["carchase", "rednotice"])
def test_playouts_from_the_middle_of_a_game(pack: str) -> None:
    game = load_pack(pack).game
    rand = random.Random(3)
    for seed in range(4):
        state = game.new_game(seed)
        for _ in range(8 + 5 * seed):  # a search bot's rollouts start anywhere
            if state["result"] is None:
                state = game.apply(state, {d.player: d.sample(rand)
                                           for d in game.pending(state)})
        expected = copy_state(state)
        choosers = samplers(seed, game)
        while expected["result"] is None:
            game.apply(expected, {d.player: choosers[d.player](d)
                                  for d in game.pending(expected)}, in_place=True)
        final = copy_state(state)
        playout(game, final, samplers(seed, game))
        assert same_game(final, expected)


def random_choosers(seed: int, game: Game) -> dict[str, Chooser]:
    return {role: RandomChooser(random.Random(f"{seed}:{role}")) for role in game.roles}


@pytest.mark.parametrize(("pack", "games"), [("carchase", 60), ("rednotice", 8), ("lists", 20)])
def test_random_choosers_answer_from_the_specs_as_decisions_would(
        pack: str, games: int, tmp_path: Path) -> None:
    game = load(tmp_path, LISTS_PACK).game if pack == "lists" else load_pack(pack).game
    for seed in range(games):
        state = game.initial_state(seed)
        playout(game, state, random_choosers(seed, game))
        expected = game.new_game(seed)
        choosers = random_choosers(seed, game)
        while expected["result"] is None:
            game.apply(expected, {d.player: choosers[d.player](d)
                                  for d in game.pending(expected)}, in_place=True)
        assert same_game(state, expected), f"game {seed} differs"


@pytest.mark.parametrize(("pack", "games"), [("carchase", 30), ("rednotice", 6), ("lists", 20)])
def test_a_playout_that_records_no_choices_is_the_same_game(
        pack: str, games: int, tmp_path: Path) -> None:
    """As a simulation plays (``record=False``): the same draws and the same final state, with
    no choice in the log but the anytime actions taken."""
    game = load(tmp_path, LISTS_PACK).game if pack == "lists" else load_pack(pack).game
    for seed in range(games):
        recorded = game.initial_state(seed, quiet=True)
        playout(game, recorded, random_choosers(seed, game))
        unrecorded = game.initial_state(seed, quiet=True)
        playout(game, unrecorded, random_choosers(seed, game), record=False)
        assert recorded["log"], f"game {seed}: a quiet game records its choices"
        assert all(e["option"].startswith("!") for e in unrecorded["log"])
        chosen = [e for e in recorded["log"] if e["option"].startswith("!")]
        assert unrecorded["log"] == chosen, f"game {seed}: anytime actions differ"
        assert same_game({**recorded, "log": []}, {**unrecorded, "log": []}), \
            f"game {seed} differs"


@pytest.mark.parametrize(("pack", "games"), [("carchase", 30), ("rednotice", 6), ("lists", 20)])
def test_told_hears_each_answer_the_log_records(pack: str, games: int, tmp_path: Path) -> None:
    """As a designer's report listens: ``told`` hears the answers a recorded log holds, in
    order, when nothing is recorded."""
    game = load(tmp_path, LISTS_PACK).game if pack == "lists" else load_pack(pack).game
    for seed in range(games):
        for choosers in (random_choosers, samplers):
            recorded = game.initial_state(seed, quiet=True)
            playout(game, recorded, choosers(seed, game))
            logged = [(e["player"], e["value"], e["round"]) for e in recorded["log"]
                      if "value" in e]
            heard: list[tuple[str, object, int]] = []

            def told(role: str, value: object, round_: int,
                     heard: list[tuple[str, object, int]] = heard) -> None:
                heard.append((role, list(value) if isinstance(value, list) else value, round_))
            playout(game, game.initial_state(seed, quiet=True), choosers(seed, game),
                    record=False, told=told)
            assert logged and heard == logged, f"game {seed}"


def test_playouts_of_loops_and_lists(tmp_path: Path) -> None:
    game = load(tmp_path, LISTS_PACK).game
    for seed in range(20):
        state, decisions, _ = played_out(game, seed)
        expected, expected_decisions, _ = normally(game, seed)
        assert same_game(state, expected) and decisions == expected_decisions


def test_a_playout_stops_at_the_round_limit_as_a_simulation_does() -> None:
    game = load_pack("carchase").game
    for seed in range(10):
        state, decisions, capped = played_out(game, seed, max_rounds=2)
        expected, expected_decisions, expected_capped = normally(game, seed, max_rounds=2)
        assert (decisions, capped, state["round"]) == (
            expected_decisions, expected_capped, expected["round"])


def test_a_playout_that_fails_gives_the_located_error_of_a_normal_game(tmp_path: Path) -> None:
    text = content(phases={"main": "let k = choose a one of [0, 1, 2]\ntotal = 6 // k"},
                   rounds="5")
    error = playout_error(load(tmp_path, text).game)
    assert error.message == "division by zero"
    loc = error.location
    assert loc is not None and (loc.line, loc.column) == locate(text, "total = 6")


def test_an_anytime_action_that_ends_the_game_ends_the_playout(tmp_path: Path) -> None:
    rest = '      log "The Hider rests." to hider\n'
    game, _ = edited_shadow(tmp_path, rest,
                            rest + '      if energy == 0 { win seeker "Worn out." }\n')
    worn_out = 0
    for seed in range(30):
        state, decisions, _ = played_out(game, seed)
        expected, expected_decisions, _ = normally(game, seed)
        assert same_game(state, expected) and decisions == expected_decisions
        worn_out += expected["result"]["reason"] == "Worn out."
    assert worn_out > 0  # the anytime action did end some of these games


def test_a_failing_anytime_condition_gives_the_located_error_of_a_normal_game(
        tmp_path: Path) -> None:
    game, text = edited_shadow(tmp_path, 'when: "energy >= 1"',
                               'when: "6 // (energy - 1) >= 1"')
    for choosers in (samplers, random_choosers):  # (random seats draw from the specs)
        with pytest.raises(GameRuntimeError) as info:
            for seed in range(30):
                playout(game, game.initial_state(seed), choosers(seed, game))
        assert info.value.message == "division by zero"
        loc = info.value.location
        assert loc is not None and loc.line == locate(text, "6 // (energy")[0]
