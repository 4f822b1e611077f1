"""The public observer: what every player sees, its belief, and searches that draw from it."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulekit.bots import ismcts
from rulekit.bots.agent import View
from rulekit.bots.belief import Belief, SeatBelief
from rulekit.bots.belief.compare import hashable
from rulekit.bots.evaluation import outcome
from rulekit.bots.ismcts import IsmctsAgent
from rulekit.engine.game import Game
from rulekit.engine.hidden import PUBLIC
from rulekit.engine.observe import public_part
from rulekit.pack.loader import load_pack

ROOT = Path(__file__).parent.parent
PACKS = {name: ROOT / where for name, where in [
    ("carchase", "games/carchase"), ("rednotice", "games/rednotice"),
    ("shadow", "tests/packs/shadow"), ("peek", "tests/packs/peek")]}
TELL = ROOT / "tests" / "packs" / "tell"
GAMES: dict[str, Game] = {}


def game_of(name: str) -> Game:
    if name not in GAMES:
        GAMES[name] = load_pack(PACKS[name]).game
    return GAMES[name]


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(sorted(PACKS)), st.integers(0, 2**32), st.integers(0, 60))
def test_a_roles_observation_holds_exactly_what_every_player_sees(name: str, seed: int,
                                                                   steps: int) -> None:
    game = game_of(name)
    rng = random.Random(seed)
    state = game.new_game(seed)
    for _ in range(steps):
        if state["result"] is not None:
            break
        game.apply(state, {d.player: d.sample(rng).id for d in game.pending(state)},
                   in_place=True)
    public = game.observe(state, PUBLIC)
    for role in game.roles:
        assert public_part(game.layout, game.observe(state, role)) == public


def test_the_public_sees_no_secret_value_and_no_private_line() -> None:
    game = game_of("shadow")
    state = game.new_game(3)
    rng = random.Random(3)
    while state["round"] < 3 and state["result"] is None:
        game.apply(state, {d.player: d.sample(rng).id for d in game.pending(state)},
                   in_place=True)
    public = game.observe(state, PUBLIC)
    assert "hider_at" not in public["vars"] and "trail" not in public["vars"]
    assert all(event["to"] is None for event in public["log"])
    assert "cards" not in public["zones"]["notes"]
    assert public["decisions"] == []


@pytest.mark.parametrize(("name", "seed", "steps"), [
    ("shadow", 1, 200), ("carchase", 2, 200), ("rednotice", 3, 60)])
def test_the_public_belief_keeps_the_true_secret_values(name: str, seed: int,
                                                        steps: int) -> None:
    game = game_of(name)
    secret = [value.key for value in game.layout.values if not value.seen_by(PUBLIC)]
    rng = random.Random(seed)
    state = game.new_game(seed)
    belief = Belief(game, PUBLIC, random.Random(seed))
    for _ in range(steps):
        if state["result"] is not None:
            break
        belief.update(game.observe(state, PUBLIC))
        assert not belief.lost
        for key in secret:
            assert hashable(state["vars"][key]) in belief.distribution(key), key
        game.apply(state, {d.player: d.sample(rng).id for d in game.pending(state)},
                   in_place=True)


def announced(public: float, seeds: range) -> int:
    """How often the keeper of the Tell pack gives its secret away, searching."""
    game = load_pack(TELL).game
    count = 0
    for seed in seeds:
        agent, kept, rng = IsmctsAgent(iterations=200, public=public), SeatBelief(), \
            random.Random(seed)
        state = game.new_game(seed)
        while state["result"] is None and game.pending(state)[0].player == "keeper":
            decision = game.pending(state)[0]
            option = agent.choose(View.of(game, "keeper", rng, state, kept=kept), decision)
            count += option.id == "announce"
            game.apply(state, {"keeper": option.id}, in_place=True)
    return count


def test_a_search_drawing_from_the_public_belief_keeps_its_secret() -> None:
    # Opponents that learn on the searcher's true state know its secret anyway: giving it
    # away costs nothing. Learning on what every player knows, they name it only if told.
    assert announced(0.0, range(20)) >= 5
    assert announced(0.5, range(20)) <= 2


def test_the_searchers_own_choice_is_learnt_though_public_draws_deal_it_other_cards(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # A public draw deals the searcher a hand of its own, not the true one. Those visits must
    # not reset what the node learnt of the true hand, else it answers at random. (Car Chase
    # keeps no secret value, so its searches draw no public state unless told to here.)
    monkeypatch.setattr(ismcts, "_keeps_secret_values", lambda game, role: True)
    game = game_of("carchase")
    state = game.new_game(5)
    rng = random.Random(5)
    while not any(d.player == "fugitive" and d.kind == "subset" and len(d.items) > 2
                  for d in game.pending(state)):
        game.apply(state, {d.player: d.sample(rng).id for d in game.pending(state)},
                   in_place=True)
    decision = next(d for d in game.pending(state) if d.player == "fugitive")
    view = View.of(game, "fugitive", random.Random(1), state)
    root, _ = IsmctsAgent(iterations=300, public=0.5)._search(view, set(), None, outcome)
    learnt = [entry[0] for answer, entry in root.stats["fugitive"].items()
              if decision.legal_option(answer) is not None]
    assert sum(learnt) >= 100


@pytest.mark.parametrize(("name", "role", "public"), [
    ("carchase", "fugitive", False), ("carchase", "law", False), ("rednotice", "jessah", False),
    ("rednotice", "angela", True), ("peek", "keeper", True), ("peek", "guesser", False)])
def test_only_a_seat_that_keeps_a_secret_value_draws_from_the_public_belief(
        name: str, role: str, public: bool) -> None:
    # Secret cards are dealt anew at each draw anyway; a secret value (a hidden piece's place)
    # is what opponents learnt on the true state would know.
    game = game_of(name)
    view = View.of(game, role, random.Random(0), game.new_game(0))
    assert (IsmctsAgent(public=0.5)._opponents(view) is not None) == public
