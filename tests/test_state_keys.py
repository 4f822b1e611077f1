"""The key a belief tells states apart by (``bots/views.state_key``): equal states, equal keys,
however their values are shared or frozen; states that differ in what is to come, other keys."""

from __future__ import annotations

import json
import random
from typing import Any

from rulekit.bots.belief.compare import plain, state_key
from rulekit.engine.frozen import freeze
from rulekit.engine.game import copy_state
from rulekit.pack.loader import load_pack


def _states(pack: str, count: int) -> list[dict[str, Any]]:
    game = load_pack(pack).game
    rand = random.Random(2)
    state = game.new_game(4, quiet=True)
    found: list[dict[str, Any]] = []
    while state["result"] is None and len(found) < count:
        found.append(copy_state(state))
        state = game.apply(state, {d.player: d.sample(rand) for d in game.pending(state)})
    return found


def test_equal_states_have_equal_keys_however_their_values_are_shared_or_frozen() -> None:
    for pack in ("carchase", "rednotice"):
        for state in _states(pack, 25):
            copied = copy_state(state)
            # the same values, each list and dict a new object (none shared with another)
            rebuilt = {key: (value if key == "log" else freeze(value)) for key, value in
                       copied.items()}
            rebuilt = {key: (value if key == "log" else plain(value)) for key, value in
                       rebuilt.items()}
            assert state_key(rebuilt) == state_key(state)
            # one list held twice (a local that is also a variable's value) vs two equal lists
            shared = copy_state(state)
            if shared["stack"] and shared["stack"][-1]["locals"]:
                value = ["x", "y"]
                shared["stack"][-1]["locals"][0] = value
                shared["vars"][next(iter(shared["vars"]))] = value
                apart = copy_state(shared)
                apart["vars"][next(iter(apart["vars"]))] = ["x", "y"]
                assert state_key(shared) == state_key(apart)
            # read-only values (as an observation holds them) count as their plain copies
            frozen = dict(state)
            frozen["pending"] = [freeze(spec) for spec in state["pending"]]
            assert state_key(frozen) == state_key(state)


def test_states_that_differ_for_the_future_have_other_keys() -> None:
    states = _states("rednotice", 40) + _states("carchase", 40)
    keys = [state_key(s) for s in states]
    written = [_future(s) for s in states]
    for i in range(len(states)):
        for j in range(len(states)):
            assert (keys[i] == keys[j]) == (written[i] == written[j]), (i, j)
    assert len(set(keys)) > 40  # (a game that ends early gives fewer states)
    state = states[10]
    for change in ("zones", "vars", "round"):
        other = copy_state(state)
        if change == "zones":
            pile = next(k for k, v in other["zones"].items() if v)
            other["zones"][pile] = other["zones"][pile][1:]
        elif change == "vars":
            key = next(iter(other["vars"]))
            other["vars"][key] = [other["vars"][key]]
        else:
            other["round"] += 1
        assert state_key(other) != state_key(state), change
    flipped = copy_state(state)  # True and 1 are equal, not the same value in a game
    key = next(k for k, v in flipped["vars"].items() if v.__class__ is int)
    flipped["vars"][key] = 1
    truthy = copy_state(flipped)
    truthy["vars"][key] = True
    assert state_key(flipped) != state_key(truthy)
    unchanged = copy_state(state)  # the log and the generator tell nothing of the future
    unchanged["log"] = []
    unchanged["rng"] = 12345
    assert state_key(unchanged) == state_key(state)


def _future(state: dict[str, Any]) -> str:
    """What the key stands for, written as JSON (which tells ``true`` from ``1``)."""
    return json.dumps([list(state["zones"].values()), list(state["vars"].values()),
                       state["stack"], state["pending"], state["committed"], state["round"],
                       state["phase"], state["result"]])
