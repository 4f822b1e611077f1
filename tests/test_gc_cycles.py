"""The engine's objects form no reference cycles: each is freed as soon as nothing uses it,
without the cyclic garbage collector (which the rulekit command runs rarely: rulekit.cli.tune_gc).

A cycle of a Decision and its Options, or a nested function that calls itself, kept a whole
state alive until a collection, and made a search bot spend a quarter of its time collecting.
"""

from __future__ import annotations

import gc
import random
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest

from rulekit.bots.determinize import determinize
from rulekit.bots.ismcts import IsmctsAgent
from rulekit.cli import tune_gc as tune
from rulekit.engine.game import Game
from rulekit.engine.rng import derive
from rulekit.pack.loader import load_pack
from rulekit.sim.simulation import play_game


def _ours(value: object) -> bool:
    """Whether ``value`` is an object of rulekit's own classes or functions."""
    if isinstance(value, types.FunctionType | types.MethodType):
        return getattr(value, "__module__", "").startswith("rulekit")
    return type(value).__module__.startswith("rulekit")


def cyclic_garbage(run: Callable[[], object]) -> list[object]:
    """The objects of rulekit that ``run()`` left in reference cycles (found by a collection
    after it, with the automatic collector off while it runs)."""
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        run()
        gc.collect()
        found = [o for o in gc.garbage if _ours(o)]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if enabled:
            gc.enable()
    return found


def _step_by_step(game: Game, seed: int, determinized: bool) -> None:
    """A random game played with pending/options/apply, observed by both roles at each step,
    and determinized by the player to move now and then."""
    rand, kept = random.Random(seed), {}
    state = game.new_game(derive(seed, 0))
    for step in range(120):
        if state["result"] is not None:
            break
        for role in game.roles:
            game.observe(state, role)
        decisions = game.pending(state)
        if determinized and step % 10 == 0:
            determinize(game, state, decisions[0].player, rand, kept)
        for decision in decisions:
            decision.options()
        state = game.apply(state, {d.player: d.sample(rand) for d in decisions})


@pytest.mark.slow
@pytest.mark.parametrize("pack", ["carchase", "rednotice"])
def test_a_game_played_step_by_step_leaves_no_cycles(pack: str) -> None:
    game = load_pack(pack).game  # (loading a pack may make cycles: it is done once)
    assert cyclic_garbage(lambda: _step_by_step(game, 3, determinized=True)) == []


@pytest.mark.parametrize(("pack", "role"), [("carchase", "law"), ("rednotice", "jessah")])
def test_a_search_bot_leaves_no_cycles(pack: str, role: str) -> None:
    game = load_pack(pack).game
    found = cyclic_garbage(lambda: play_game(game, derive(0, 1),
                                             {role: IsmctsAgent(iterations=12)}, max_rounds=3))
    assert found == []


def test_playouts_leave_no_cycles() -> None:
    game = load_pack("rednotice").game
    assert cyclic_garbage(lambda: [play_game(game, derive(0, i)) for i in range(3)]) == []


def test_the_check_finds_a_cycle_of_rulekit_objects() -> None:
    """The check itself: a nested function of rulekit's that calls itself is found."""
    def make() -> object:
        namespace: dict[str, object] = {"__name__": "rulekit.example"}
        exec("def outer():\n    def again(n):\n        return again(n - 1) if n else 0\n"
             "    return again\n", namespace)
        return namespace["outer"]()  # type: ignore[operator]
    assert "outer.<locals>.again" in [getattr(o, "__qualname__", "") for o in cyclic_garbage(make)]


@contextmanager
def _threshold(young: int, middle: int = 10, old: int = 10) -> Iterator[None]:
    saved = gc.get_threshold()
    gc.set_threshold(young, middle, old)
    try:
        yield
    finally:
        gc.set_threshold(*saved)


def test_tune_runs_the_collector_less_often_and_keeps_a_higher_or_no_threshold() -> None:
    with _threshold(700):
        tune()
        assert gc.get_threshold() == (50_000, 20, 20)
    with _threshold(50_000 * 4, 30, 30):
        tune()
        assert gc.get_threshold() == (50_000 * 4, 30, 30)
    with _threshold(0):  # the automatic collector turned off by the program
        tune()
        assert gc.get_threshold()[0] == 0


def test_the_rulekit_command_tunes_the_collector(capsys: pytest.CaptureFixture[str]) -> None:
    from rulekit.cli import main
    with _threshold(700):
        assert main(["list"]) == 0
        assert gc.get_threshold()[0] == 50_000
    assert "carchase" in capsys.readouterr().out
