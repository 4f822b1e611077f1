"""The ``when`` conditions of anytime actions in playouts of random players: written as playout
code, their values kept until generated code writes what that condition reads, when only that
condition's value and its role's actions are forgotten. The games stay those of the normal
path.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rulekit.engine.game import Game
from rulekit.engine.playout import PlayoutRuntime, run_playout
from rulekit.engine.randomchooser import RandomChooser
from rulekit.engine.rng import derive
from rulekit.sim.simulation import seat_rng
from tests.helpers_lang import content, load
from tests.test_anytime import ANYTIME, GUARDS, SETUP
from tests.test_playout import same_game

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
    run_playout(game, state, {role: RandomChooser(seat_rng(seed, role))
                              for role in game.roles})
    return state


def test_playouts_of_random_players_with_kept_conditions_are_the_normal_games(
        tmp_path: Path) -> None:
    game = whens_pack(tmp_path)
    assert game.program.cache_whens
    taken = 0
    for i in range(80):
        seed = derive(21, i)
        state = _played_out(game, seed)
        assert same_game(state, _random_game(game, seed)), f"game {i}"
        taken += sum(e["e"] == "choice" and e["option"].startswith("!") for e in state["log"])
    assert taken > 40


def test_a_condition_is_worked_out_again_only_after_a_write_to_what_it_reads(
        tmp_path: Path) -> None:
    game = whens_pack(tmp_path)
    PlayoutRuntime(game, game.initial_state(0), {}, None)  # builds the playout versions
    whens = game.program.playout_whens
    counts = [0] * len(whens)

    def counted(index: int) -> Any:
        when = whens[index]
        assert when is not None

        def condition(rt: Any, locals_: list[Any]) -> Any:
            counts[index] += 1
            return when(rt, locals_)
        return condition

    whens[:] = [counted(i) for i in range(len(whens))]
    for i in range(10):
        _played_out(game, derive(22, i))
    assert counts[2] == 10  # 'score' is never written: once a game
    assert counts[0] > 50 and counts[1] > 50  # the discard and the hands change often
