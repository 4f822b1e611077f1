"""Observations: plain data, equal to what a player may see, and no way into the real state.

The log part of an observation is kept and extended per role (``engine/observe``); these tests
compare it with the plain definition (the events to nobody in particular or to the role) over
random games, games that branch, and states read back from JSON.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
from typing import Any

import pytest

from rulekit.engine.game import Game, copy_state
from rulekit.engine.observe import Observer
from rulekit.engine.refusals import shown
from rulekit.pack.loader import load_pack


@pytest.fixture(scope="module", params=["carchase", "rednotice"])
def game(request: pytest.FixtureRequest) -> Game:
    return load_pack(request.param).game


def seen_log(state: dict[str, Any], role: str) -> list[dict[str, Any]]:
    return [e for e in state["log"] if e["to"] is None or e["to"] == role]


def states_of(game: Game, seed: int, limit: int = 200) -> list[dict[str, Any]]:
    """The states of a random game, each a copy."""
    rand = random.Random(seed)
    state = game.new_game(seed)
    found = [state]
    while state["result"] is None and len(found) < limit:
        state = game.apply(state, {d.player: d.sample(rand) for d in game.pending(state)})
        found.append(state)
    return found


def test_the_log_seen_is_the_events_to_all_or_to_the_role(game: Game) -> None:
    states = states_of(game, 1)
    rand = random.Random(2)
    # In order, in any order (other branches, other games), and read back from JSON.
    order = states + rand.sample(states, len(states)) + states_of(game, 3, 60)
    for state in order + [json.loads(json.dumps(s)) for s in states[::25]]:
        for role in game.roles:
            seen = game.observe(state, role)
            assert seen["log"] == seen_log(state, role)
            assert json.loads(json.dumps(seen)) == seen


def test_branches_of_one_state_see_their_own_logs(game: Game) -> None:
    rand = random.Random(5)
    root = states_of(game, 4, 30)[-1]
    branches = [copy_state(root) for _ in range(3)]
    for _ in range(40):
        for i, branch in enumerate(branches):
            if branch["result"] is not None:
                continue
            branches[i] = game.apply(branch, {d.player: d.sample(rand)
                                              for d in game.pending(branch)})
            for role in game.roles:
                for other in branches:
                    assert game.observe(other, role)["log"] == seen_log(other, role)


def test_an_observation_cannot_change_the_state(game: Game) -> None:
    state = states_of(game, 6, 50)[-1]
    before = json.dumps(state)
    role = game.roles[0]
    seen = game.observe(state, role)
    assert seen["log"]
    with pytest.raises(TypeError, match="read-only"):
        seen["log"].append({})
    with pytest.raises(TypeError, match="read-only"):
        seen["log"][0]["e"] = "changed"
    for event in seen["log"]:
        for value in event.values():
            if isinstance(value, list):
                with pytest.raises(TypeError, match="read-only"):
                    value.append("x")
    for pile in seen["zones"].values():
        with pytest.raises(TypeError, match="read-only"):
            pile["count"] = -1
        if "cards" in pile:
            with pytest.raises(TypeError, match="read-only"):
                pile["cards"].append("x")
    for key in list(seen["vars"]):
        with pytest.raises(TypeError, match="read-only"):
            seen["vars"][key] = "x"
    for spec in seen["decisions"]:
        with pytest.raises(TypeError, match="read-only"):
            spec["items"].append("x")
        with pytest.raises(TypeError, match="read-only"):
            spec["player"] = "x"
    seen["zones"] = seen["vars"] = {}  # the observation itself is a dict of the caller's
    if seen["result"] is not None:
        seen["result"]["winner"] = "x"
    assert json.dumps(state) == before
    assert game.observe(state, role)["log"] == seen_log(state, role)


def test_copies_of_an_observation_are_plain_and_changeable(game: Game) -> None:
    state = states_of(game, 7, 50)[-1]
    seen = game.observe(state, game.roles[1])
    for twin in (copy.deepcopy(seen), pickle.loads(pickle.dumps(seen)),
                 json.loads(json.dumps(seen))):
        assert twin == seen
        assert type(twin["log"]) is list and type(twin["log"][0]) is dict
        twin["log"].append({"e": "mine"})
        twin["log"][0]["e"] = "mine"
    assert game.observe(state, game.roles[1])["log"] == seen_log(state, game.roles[1])


def fresh_observation(game: Game, state: dict[str, Any], role: str) -> dict[str, Any]:
    """The observation made from nothing kept: by a new observer."""
    observer = Observer(game.pack_id, game.roles, game.layout.piles, game.layout.values,
                        game.layout.card_owner, game._observer.show)
    return observer.observe(state, role)


def test_an_observation_is_kept_from_the_state_that_follows(game: Game) -> None:
    """The views of piles, variables and decisions are kept and reused while they do not
    change: an observation taken earlier never changes with the game (even one played in
    place), and each equals the observation made afresh."""
    rand = random.Random(8)
    state = game.new_game(8)
    taken = []
    while state["result"] is None and len(taken) < 240:
        for role in game.roles:
            seen = game.observe(state, role)
            assert seen == fresh_observation(game, state, role)
            taken.append((seen, json.dumps(seen, sort_keys=True)))
        state = game.apply(state, {d.player: d.sample(rand) for d in game.pending(state)},
                           in_place=True)
    for seen, text in taken:
        assert json.dumps(seen, sort_keys=True) == text
    assert len({id(seen["zones"]) for seen, _ in taken}) > 1


def test_a_value_that_changes_only_its_type_is_seen_anew(game: Game) -> None:
    """Views are kept while their values compare equal: ``1`` and ``True`` are equal in Python
    but not in the observation's JSON."""
    state = states_of(game, 9, 5)[-1]
    role = game.roles[0]
    key = next(iter(game.observe(state, role)["vars"]))
    for value in (1, True, 1.0, 1):
        twin = copy_state(state)
        twin["vars"][key] = value
        seen = game.observe(twin, role)
        assert json.dumps(seen["vars"][key]) == json.dumps(value)
        assert seen == fresh_observation(game, twin, role)


def test_a_decision_is_the_one_pending_in_the_state_observed(game: Game) -> None:
    """Read-only copies of decisions are kept by identity (a spec never changes once pending):
    a state whose spec is another object, equal or not, shows its own, and only to its
    player."""
    rand = random.Random(10)
    state = game.new_game(10)
    for _ in range(30):
        if state["result"] is not None:
            break
        for twin in (state, json.loads(json.dumps(state))):
            for role in game.roles:
                seen = game.observe(twin, role)["decisions"]
                mine = [shown(game.program, s, twin) for s in twin["pending"]
                        if s["player"] == role and role not in twin["committed"]]
                assert seen == mine
                assert all(s["player"] == role for s in seen)
        changed = copy_state(state)
        if changed["pending"]:
            spec = changed["pending"][0]
            changed["pending"][0] = {**spec, "prompt": spec.get("prompt", "") + "!"}
            assert game.observe(changed, spec["player"])["decisions"][0]["prompt"].endswith("!")
        state = game.apply(state, {d.player: d.sample(rand) for d in game.pending(state)})


def containers(value: Any) -> list[Any]:
    """Every list and dict in ``value``, at every depth."""
    found = []
    if isinstance(value, (list, dict)):
        found.append(value)
        for item in value.values() if isinstance(value, dict) else value:
            found += containers(item)
    return found


def test_every_list_and_dict_of_an_observation_is_read_only_at_every_depth(game: Game) -> None:
    """Events, decisions (with their refused candidates and the reasons why, lists in lists)
    and values: each is a read-only copy, however deep; only the outer dict and its list of
    decisions are the caller's."""
    rand = random.Random(11)
    state = game.new_game(11)
    nested = 0
    while state["result"] is None and state["round"] < 4:
        for role in game.roles:
            seen = game.observe(state, role)
            for part in (seen["zones"], seen["vars"], *seen["decisions"], seen["log"]):
                for inner in containers(part):
                    with pytest.raises(TypeError, match="read-only"):
                        inner.clear()
                    nested += any(isinstance(v, list) for v in (
                        inner.values() if isinstance(inner, dict) else inner))
        state = game.apply(state, {d.player: d.sample(rand) for d in game.pending(state)})
    assert nested
