"""The public API: what ``from rulekit import ...`` gives a Python user."""

from __future__ import annotations

import random
import subprocess
import sys

import rulekit


def test_every_public_name_is_there() -> None:
    assert len(rulekit.__all__) >= 8
    for name in rulekit.__all__:
        assert getattr(rulekit, name) is not None, name


def test_an_unknown_name_is_an_attribute_error() -> None:
    try:
        rulekit.nothing_like_this  # type: ignore[attr-defined]  # noqa: B018
    except AttributeError as exc:
        assert "nothing_like_this" in str(exc)
    else:
        raise AssertionError("no error")


def test_importing_rulekit_loads_no_engine() -> None:
    """The command line starts quickly: a name is imported when first used."""
    done = subprocess.run(
        [sys.executable, "-c", "import sys, rulekit; "
         "print(sorted(m for m in sys.modules if m.startswith('rulekit.')))"],
        capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "['rulekit.errors']"


def test_a_game_played_through_the_public_api() -> None:
    from rulekit import Decision, Game, load_pack, simulate

    game = load_pack("carchase").game
    assert isinstance(game, Game)
    rng = random.Random(1)
    state = game.new_game(seed=1)
    while state["result"] is None:
        decisions = game.pending(state)
        assert all(isinstance(d, Decision) for d in decisions)
        state = game.apply(state, {d.player: d.sample(rng) for d in decisions})
    assert state["result"]["winner"] in game.roles
    result = simulate("carchase", games=20, seed=3)
    assert sum(result.wins.values()) + result.draws == 20
