"""Anytime actions in playouts: which hold is kept until code writes what a condition reads.

The games stay those of the normal path.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rulekit.engine.draws import RandomChooser
from rulekit.engine.game import Game
from rulekit.engine.playout import playout
from rulekit.engine.rng import derive
from rulekit.sim.simulation import seat_rng
from tests.helpers_lang import content, load
from tests.test_anytime import ANYTIME, GUARDS, SETUP
from tests.test_playout import same_game
from tests.test_playout_choices import shapes_pack

# A third action, whose condition reads a variable nothing writes: it never holds.
IDLE = '  - {id: idle, role: b, label: "Idle", when: "score > 100", do: give}\n'


def whens_pack(tmp_path: Path) -> Game:
    text = content(setup=SETUP, phases={"main": GUARDS}, rounds="4",
                   after_rounds='if count(hand[a]) > count(hand[b]) { win a "More." } '
                                'else { win b "As many." }')
    return load(tmp_path, text.replace("procedures:\n", "") + ANYTIME + IDLE).game


def _random_game(game: Game, seed: int) -> dict[str, Any]:
    """A game of random seats played step by step, as the golden games are."""
    rngs = {role: seat_rng(seed, role) for role in game.roles}
    state = game.new_game(seed)
    while state["result"] is None:
        actions = {d.player: d.sample(rngs[d.player]) for d in game.pending(state)}
        game.apply(state, actions, in_place=True)
    return state


def _played_out(game: Game, seed: int) -> dict[str, Any]:
    state = game.initial_state(seed)
    playout(game, state, {role: RandomChooser(seat_rng(seed, role))
                              for role in game.roles})
    return state


def test_playouts_of_random_players_with_kept_conditions_are_the_normal_games(
        tmp_path: Path) -> None:
    game = whens_pack(tmp_path)
    assert game.program.cached_anytime
    taken = 0
    for i in range(80):
        seed = derive(21, i)
        state = _played_out(game, seed)
        assert same_game(state, _random_game(game, seed)), f"game {i}"
        taken += sum(e["e"] == "choice" and e["option"].startswith("!") for e in state["log"])
    assert taken > 40


def test_conditions_are_worked_out_again_only_after_a_write_to_what_they_read(
        tmp_path: Path) -> None:
    """In a pack whose choices often follow one another with no write between them."""
    game = shapes_pack(tmp_path, anytime=True)
    counts = {"a": 0, "b": 0}
    for index, (decl, when) in enumerate(game.program.anytime):
        assert when is not None

        def condition(rt: Any, locals_: list[Any], role: str = decl.role, when: Any = when
                      ) -> Any:
            counts[role] += 1
            return when(rt, locals_)
        game.program.anytime[index] = (decl, condition)
        game.program.anytime_by_role[decl.role] = [(decl, condition)]
    asked = {"a": 0, "b": 0}
    for i in range(10):
        state = _played_out(game, derive(22, i))
        for event in state["log"]:
            if event["e"] == "choice" and not event["option"].startswith("!"):
                asked[event["player"]] += 1
    assert 0 < counts["a"] < asked["a"] * 0.75 and 0 < counts["b"] < asked["b"] * 0.75
