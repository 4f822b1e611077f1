"""Tests of rulekit.bots.agent, rulekit.bots.registry and rulekit.sim.simulation (the duel
pack and its agents are in conftest)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from rulekit.bots.agent import RandomAgent, View
from rulekit.bots.registry import BUILTIN_AGENTS, load_agent, parse_agents
from rulekit.engine.decisions import Decision, Option
from rulekit.engine.frozen import FrozenDict, FrozenList
from rulekit.engine.game import Game
from rulekit.engine.rng import derive
from rulekit.errors import GameRuntimeError, IllegalActionError, UsageError
from rulekit.pack.loader import load_pack
from rulekit.sim.simulation import (
    GameRecord,
    play_game,
    seat_rng,
    simulate,
    wilson_interval,
)

# -- agents -----------------------------------------------------------------------------------


def test_random_agent_is_builtin() -> None:
    assert "random" in BUILTIN_AGENTS
    assert isinstance(load_agent("random"), RandomAgent)
    assert isinstance(load_agent(" random "), RandomAgent)


def test_unknown_builtin_agent_suggests_a_name() -> None:
    with pytest.raises(UsageError) as info:
        load_agent("randon")
    assert "unknown agent 'randon'" in str(info.value)
    assert "did you mean 'random'?" in str(info.value)


def test_load_agent_from_module(agents_module: str) -> None:
    three = load_agent(f"{agents_module}:Three")
    assert type(three).__name__ == "Three"  # a class is instantiated
    one = load_agent(f"{agents_module}:one")
    assert callable(one) and getattr(one, "__name__", "") == "one"  # a function as is


@pytest.mark.parametrize(("attr", "message"), [
    ("Thre", "has no attribute 'Thre'"),
    ("NOT_AN_AGENT", "is not callable"),
    ("NeedsArgs", "with no arguments"),
])
def test_load_agent_errors(agents_module: str, attr: str, message: str) -> None:
    with pytest.raises(UsageError) as info:
        load_agent(f"{agents_module}:{attr}")
    assert message in str(info.value)


def test_load_agent_attribute_hint(agents_module: str) -> None:
    with pytest.raises(UsageError) as info:
        load_agent(f"{agents_module}:Thre")
    assert "did you mean 'Three'?" in str(info.value)


def test_load_agent_missing_module() -> None:
    with pytest.raises(UsageError) as info:
        load_agent("no_such_module_xyz:Bot")
    assert "no module named 'no_such_module_xyz'" in str(info.value)


def test_load_agent_bad_spec() -> None:
    with pytest.raises(UsageError):
        load_agent("module:")


def test_load_agent_module_failing_on_import(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "broken_bot_mod.py").write_text("raise RuntimeError('oops')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(UsageError) as info:
        load_agent("broken_bot_mod:Bot")
    assert "RuntimeError: oops" in str(info.value)


def test_parse_agents() -> None:
    assert parse_agents("law=random,fugitive=mymod:Bot") == {"law": "random",
                                                            "fugitive": "mymod:Bot"}
    assert parse_agents(["law=random", "fugitive=x:Y"], ["law", "fugitive"]) == {
        "law": "random", "fugitive": "x:Y"}
    assert parse_agents(" law = random , ") == {"law": "random"}
    assert parse_agents([]) == {}


def test_parse_agents_unknown_role() -> None:
    with pytest.raises(UsageError) as info:
        parse_agents("lawe=random", ["law", "fugitive"])
    assert "unknown role 'lawe'" in str(info.value)
    assert "did you mean 'law'?" in str(info.value)


@pytest.mark.parametrize("text", ["law", "law=", "=random", "law=random,law=random"])
def test_parse_agents_bad_text(text: str) -> None:
    with pytest.raises(UsageError):
        parse_agents(text, ["law", "fugitive"])


# -- one game ---------------------------------------------------------------------------------


@pytest.fixture
def duel_game(duel_pack: Path) -> Game:
    return load_pack(duel_pack).game


def test_play_game_is_deterministic(duel_game: Game) -> None:
    first = play_game(duel_game, 1234, {}, 100)
    assert isinstance(first, GameRecord)
    assert first == play_game(duel_game, 1234, {}, 100)
    assert first.seed == 1234 and first.rounds == 3 and first.decisions == 6
    assert not first.capped
    assert first.winner in ("red", "blue", None)


def test_seat_rngs_differ_by_role_and_seed() -> None:
    draws = {(seed, role): seat_rng(seed, role).random() for seed in (1, 2)
             for role in ("red", "blue")}
    assert len(set(draws.values())) == 4
    assert seat_rng(1, "red").random() == draws[(1, "red")]


def test_generic_path_matches_fast_random_path(duel_game: Game) -> None:
    class SlowRandom(RandomAgent):
        """A RandomAgent subclass goes through View and choose()."""

    for seed in range(20):
        fast = play_game(duel_game, seed, {"red": RandomAgent()})
        slow = play_game(duel_game, seed, {"red": SlowRandom(), "blue": SlowRandom()})
        assert fast == slow


def test_random_agent_never_observes(duel_pack: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_observe(self: Game, state: Any, role: str) -> Any:
        raise AssertionError("observe called for a random agent")

    monkeypatch.setattr(Game, "observe", no_observe)
    game = load_pack(duel_pack).game
    play_game(game, 5, {"red": "random", "blue": RandomAgent()})
    assert simulate(duel_pack, games=10).games == 10


@pytest.mark.parametrize("over", [False, True])
def test_a_view_holds_the_observation_and_never_the_state(duel_game: Game, over: bool) -> None:
    state = duel_game.new_game(3)
    rand = random.Random(2)
    while over and state["result"] is None:
        state = duel_game.apply(state, {d.player: d.sample(rand)
                                        for d in duel_game.pending(state)})
    view = View.of(duel_game, "red", random.Random(1), state)
    assert view.role == "red" and view.game is duel_game
    assert view.observation == duel_game.observe(state, "red")
    # Nothing the view holds is (or contains) a part of the real state that can change: what
    # it shares with the state is the state's read-only log events (engine/frozen).
    inside = {id(value): value for value in _reachable(view.observation)}
    shared = inside.keys() & {id(value) for value in _reachable(state)}
    events = {id(event) for event in state["log"]}
    assert {id(e) for e in view.observation["log"]} <= events
    assert shared <= {id(value) for event in view.observation["log"]
                      for value in _reachable(event)}
    assert all(type(inside[i]) in (FrozenDict, FrozenList) for i in shared)
    assert not any(value is state for value in (view.game, view.rng, view.observation))
    with pytest.raises(AttributeError):
        view._state  # type: ignore[attr-defined]  # noqa: B018
    with pytest.raises(TypeError, match="read-only"):
        view.observation["zones"].clear()  # a bot cannot scribble on what it sees
    view.observation["zones"] = {}  # nor change anything by replacing it
    assert duel_game.observe(state, "red")["zones"]


def _reachable(value: Any) -> list[Any]:
    """Every dict and list inside a plain-data value."""
    found: list[Any] = []
    todo = [value]
    while todo:
        item = todo.pop()
        if isinstance(item, dict):
            found.append(item)
            todo.extend(item.values())
        elif isinstance(item, list):
            found.append(item)
            todo.extend(item)
    return found


def test_function_agents_and_option_ids(duel_game: Game, agents_module: str) -> None:
    record = play_game(duel_game, 9, {"red": f"{agents_module}:Three",
                                      "blue": f"{agents_module}:one"})
    assert record.winner == "red" and record.reason == "Red has more points"


def test_agent_may_answer_with_a_label(duel_game: Game, agents_module: str) -> None:
    record = play_game(duel_game, 9, {"red": f"{agents_module}:ByLabel",
                                      "blue": f"{agents_module}:one"})
    assert record.winner == "red"


def test_callable_agent_object(duel_game: Game) -> None:
    def pick_two(view: View, decision: Decision) -> Option:
        assert view.role == decision.player
        return decision.option("2")

    record = play_game(duel_game, 3, {"red": pick_two, "blue": pick_two})
    assert record.winner is None and not record.capped
    assert record.reason == "the last round is over"


def test_illegal_answer_names_the_game(duel_game: Game, agents_module: str) -> None:
    with pytest.raises(IllegalActionError) as info:
        play_game(duel_game, 77, {"red": f"{agents_module}:Cheater"})
    assert "seed 77" in str(info.value)


def test_answer_of_wrong_type(duel_game: Game, agents_module: str) -> None:
    with pytest.raises(UsageError) as info:
        play_game(duel_game, 1, {"blue": f"{agents_module}:wrong_type"})
    assert "42" in str(info.value)


def test_round_cap(duel_game: Game, make_pack: Any) -> None:
    game = load_pack(make_pack(), {"turns": 20}).game
    record = play_game(game, 1, {}, max_rounds=4)
    assert record.capped and record.winner is None
    assert record.rounds == 4 and record.decisions == 8


# -- many games -------------------------------------------------------------------------------


def test_counts_add_up(duel_pack: Path) -> None:
    result = simulate(duel_pack, None, games=200, seed=7)
    assert result.games == 200
    assert set(result.wins) == {"red", "blue"}
    assert sum(result.wins.values()) + result.draws + result.capped == 200
    assert result.draws > 0 and result.capped == 0
    assert result.mean_rounds == 3.0
    assert result.decisions == 200 * 6
    assert result.seconds > 0 and result.games_per_second > 0
    for role in ("red", "blue"):
        lo, hi = result.ci95[role]
        assert 0 <= lo <= result.win_rate[role] <= hi <= 1


def test_same_seed_same_counts_and_games_follow_derive(duel_pack: Path) -> None:
    first = simulate(duel_pack, {"turns": "2"}, games=60, seed=11)
    second = simulate(duel_pack, {"turns": "2"}, games=60, seed=11)
    assert (first.wins, first.draws) == (second.wins, second.draws)
    game = load_pack(duel_pack, {"turns": 2}).game
    winners = [play_game(game, derive(11, i)).winner for i in range(60)]
    assert first.wins == {"red": winners.count("red"), "blue": winners.count("blue")}
    assert first.draws == winners.count(None)


def test_every_role_listed_even_without_wins(duel_pack: Path, agents_module: str) -> None:
    result = simulate(duel_pack, games=30, seed=1, agents={"red": f"{agents_module}:Three"})
    assert result.wins["blue"] == 0
    assert result.wins["red"] + result.draws == 30
    assert result.ci95["blue"][0] == 0.0


def test_draws_and_capped_are_separate(duel_pack: Path, agents_module: str) -> None:
    both_three = {"red": f"{agents_module}:Three", "blue": f"{agents_module}:Three"}
    drawn = simulate(duel_pack, games=10, agents=both_three)
    assert (drawn.draws, drawn.capped, drawn.wins) == (10, 0, {"red": 0, "blue": 0})
    capped = simulate(duel_pack, {"turns": 20}, games=10, agents=both_three, max_rounds=5)
    assert (capped.draws, capped.capped) == (0, 10)
    assert capped.mean_rounds == 5


def test_observing_agent(duel_pack: Path, agents_module: str) -> None:
    import importlib

    result = simulate(duel_pack, games=5, agents={"blue": f"{agents_module}:Watcher"})
    assert sum(result.wins.values()) + result.draws == 5
    assert importlib.import_module(agents_module).Watcher.calls == 15


def test_workers_give_the_same_counts(duel_pack: Path) -> None:
    one = simulate(duel_pack, None, games=40, seed=5, workers=1)
    two = simulate(duel_pack, None, games=40, seed=5, workers=2)
    assert (one.wins, one.draws, one.capped, one.mean_rounds, one.decisions) == (
        two.wins, two.draws, two.capped, two.mean_rounds, two.decisions)
    assert one.outcome() == two.outcome()
    assert two.workers == 2


def test_workers_with_a_module_agent(duel_pack: Path, agents_module: str) -> None:
    agents = {"red": f"{agents_module}:Three"}
    one = simulate(duel_pack, None, games=12, seed=2, agents=agents, workers=1)
    two = simulate(duel_pack, None, games=12, seed=2, agents=agents, workers=3)
    assert (one.wins, one.draws) == (two.wins, two.draws)


def test_runtime_error_in_a_game(make_pack: Any) -> None:
    pack = make_pack("loop", replace={"game.yaml": (
        "if r > b { points[red] += 1 }", "while true { points[red] += 1 }")})
    with pytest.raises(GameRuntimeError) as info:
        simulate(pack, games=3, seed=1)
    assert "seed" in str(info.value)
    assert "game.yaml:" in str(info.value)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"games": -1}, "number of games"),
    ({"workers": 0}, "workers"),
    ({"max_rounds": 0}, "round cap"),
    ({"agents": {"rd": "random"}}, "did you mean 'red'?"),
    ({"params": {"turns": "0"}}, "between 1 and 20"),
    ({"params": {"turn": "2"}}, "did you mean 'turns'?"),
])
def test_simulate_usage_errors(duel_pack: Path, kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(UsageError) as info:
        simulate(duel_pack, **kwargs)
    assert message in str(info.value)


def test_zero_games(duel_pack: Path) -> None:
    result = simulate(duel_pack, games=0)
    assert result.wins == {"red": 0, "blue": 0} and result.mean_rounds == 0
    assert result.ci95["red"] == (0.0, 1.0)


def test_to_dict(duel_pack: Path) -> None:
    data = simulate(duel_pack, games=20, seed=3).to_dict()
    for key in ("pack", "games", "seed", "wins", "draws", "capped", "mean_rounds", "seconds",
                "games_per_second", "win_rate", "ci95"):
        assert key in data
    assert data["pack"] == "duel"
    assert data["agents"] == {"red": "random", "blue": "random"}


# -- statistics -------------------------------------------------------------------------------


def test_wilson_interval() -> None:
    lo, hi = wilson_interval(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    lo, hi = wilson_interval(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = wilson_interval(10, 10)
    assert hi == 1.0 and lo == pytest.approx(0.7225, abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)
