"""Observations equal, byte for byte as JSON, the plain definition of what a role may see.

``Game.observe`` keeps and reuses views (``engine/observe``); here every observation it makes
is compared with one made from nothing by the rules of docs/architecture.md (How hidden
information is enforced): over random games of both packs, for both roles, at every decision,
with states met in order, in place, out of order, from other games, and read back from JSON.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from rulekit.engine.game import Game, copy_state
from rulekit.engine.refusals import shown
from rulekit.pack.loader import load_pack

STATES_PER_GAME = 150  # observed at every decision (a Red Notice game has about a thousand)


@pytest.fixture(scope="module", params=["carchase", "rednotice"])
def game(request: pytest.FixtureRequest) -> Game:
    return load_pack(request.param).game


def sees(visibility: str, owner: str | None, role: str) -> bool:
    return visibility == "public" or (visibility == "owner" and owner == role)


def plain_observation(game: Game, state: dict[str, Any], role: str) -> dict[str, Any]:
    """What ``role`` may know of ``state``, made from nothing kept."""
    zones: dict[str, Any] = {}
    for key, owner, visibility in game.layout.piles:
        cards = state["zones"][key]
        if sees(visibility, owner, role):
            zones[key] = {"cards": list(cards), "count": len(cards)}
        elif visibility == "card_owner":
            zones[key] = {"cards": [c if game.layout.card_owner.get(c) == role else None
                                    for c in cards], "count": len(cards)}
        else:
            zones[key] = {"count": len(cards)}
    committed = state["committed"]
    waiting = [spec for spec in state["pending"] if spec["player"] not in committed]
    return {
        "pack": game.pack_id,
        "role": role,
        "round": state["round"],
        "phase": state["phase"],
        "zones": zones,
        "vars": {key: state["vars"][key] for key, owner, visibility in game.layout.values
                 if sees(visibility, owner, role)},
        "decisions": [shown(game.program, spec, state) for spec in waiting
                      if spec["player"] == role],
        "waiting_for": [spec["player"] for spec in waiting],
        "log": [e for e in state["log"] if e["to"] is None or e["to"] == role],
        "result": state["result"],
    }


def check(game: Game, state: dict[str, Any], whole_log: bool = True) -> None:
    """Each role's observation of ``state`` is the plain one (its log compared as JSON too
    with ``whole_log``, else by value: the log's events are the state's or their copies)."""
    for role in game.roles:
        seen = game.observe(state, role)
        plain = plain_observation(game, state, role)
        if whole_log:
            assert json.dumps(seen) == json.dumps(plain)
        else:
            assert seen["log"] == plain["log"]
            assert json.dumps(seen["log"][-3:]) == json.dumps(plain["log"][-3:])
            seen["log"] = plain["log"] = []
            assert json.dumps(seen) == json.dumps(plain)


def test_every_observation_along_random_games_is_the_plain_one(game: Game) -> None:
    rand = random.Random(20)
    met = []
    for seed in range(6):
        in_place = seed % 2 == 1
        state = game.new_game(100 + seed, quiet=seed == 5)
        step = 0
        while state["result"] is None:  # every decision, then every tenth (to the end)
            if step < STATES_PER_GAME or step % 10 == 0:
                check(game, state, whole_log=step % 50 == 0)
                met.append(copy_state(state))
            actions = {d.player: d.sample(rand) for d in game.pending(state)}
            state = game.apply(state, actions, in_place=in_place)
            step += 1
        check(game, state)
    for i, state in enumerate(rand.sample(met, min(len(met), 200))):  # out of order
        check(game, state, whole_log=False)
        if i % 5 == 0:  # and read back from JSON
            check(game, json.loads(json.dumps(state)), whole_log=False)


def test_branches_and_changed_states_are_seen_as_they_are(game: Game) -> None:
    """Copies of one state going other ways, and states changed by hand (a pile, a variable,
    its type), each observed in turn."""
    rand = random.Random(21)
    root = game.new_game(21)
    for _ in range(12):
        root = game.apply(root, {d.player: d.sample(rand) for d in game.pending(root)})
    branches = [copy_state(root) for _ in range(3)]
    for _ in range(30):
        for i, branch in enumerate(branches):
            if branch["result"] is None:
                branches[i] = game.apply(branch, {d.player: d.sample(rand)
                                                  for d in game.pending(branch)})
            check(game, branches[i])
        twin = copy_state(rand.choice(branches))
        # (a state whose cards change asks its decisions again: bots/cards.ask_again)
        twin["pending"] = [dict(spec) for spec in twin["pending"]]
        key = rand.choice(list(twin["zones"]))
        twin["zones"][key] = list(reversed(twin["zones"][key]))[1:]
        var = rand.choice(list(twin["vars"]))
        twin["vars"][var] = rand.choice([1, True, 1.0, 0, False, None, "x", [], ["x"]])
        check(game, twin)
