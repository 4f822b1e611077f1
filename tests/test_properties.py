"""Properties of the forward model, checked with hypothesis over random Car Chase games.

Every game is played from a random seed with random legal decisions (``Decision.sample`` fed by
a seeded ``random.Random``), and the properties are checked at every decision point.
"""

from __future__ import annotations

import functools
import json
import os
import random
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulekit.bots.determinize import determinize
from rulekit.engine.game import Game, State
from rulekit.errors import IllegalActionError
from rulekit.pack.loader import load_pack

ROLES = ("law", "fugitive")
OTHER = {"law": "fugitive", "fugitive": "law"}
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
FEW = settings(max_examples=40, deadline=None, database=None)
SOME = settings(max_examples=80, deadline=None, database=None)


@functools.cache
def carchase(turns: int = 7) -> Game:
    return load_pack("carchase", {"turns": turns}).game


@functools.cache
def carchase_loaded_again() -> Game:
    return load_pack("carchase").game


def all_cards(game: Game) -> list[str]:
    return sorted(game.symbols.cards)


def dump(state: State) -> str:
    return json.dumps(state, sort_keys=True)


def random_actions(game: Game, state: State, rng: random.Random) -> dict[str, str]:
    return {d.player: d.sample(rng).id for d in game.pending(state)}


def play(game: Game, seed: int, choice_seed: int,
         at_decision: Callable[[State], None] | None = None,
         ) -> tuple[State, list[dict[str, str]], list[State]]:
    """Play one game; return the final state, the decisions taken and a copy of the state at
    every decision point."""
    rng = random.Random(choice_seed)
    state = game.new_game(seed)
    decisions: list[dict[str, str]] = []
    points: list[State] = []
    while not game.is_over(state):
        assert len(decisions) < 1000, "the game does not end"
        points.append(json.loads(json.dumps(state)))
        if at_decision is not None:
            at_decision(state)
        actions = random_actions(game, state, rng)
        decisions.append(actions)
        state = game.apply(state, actions)
    return state, decisions, points


def replay(game: Game, state: State, decisions: list[dict[str, str]]) -> State:
    for actions in decisions:
        state = game.apply(state, actions)
    return state


def strings_in(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from strings_in(v)
    elif isinstance(value, list):
        for v in value:
            yield from strings_in(v)


def cards_in_zones(state: State) -> list[str]:
    return sorted(card for pile in state["zones"].values() for card in pile)


# ------------------------------------------------------------------ plain data


@pytest.mark.slow
@SOME
@given(seed=SEEDS, choice_seed=SEEDS, data=st.data())
def test_state_round_trips_through_json_and_resumes(seed: int, choice_seed: int,
                                                    data: st.DataObject) -> None:
    game = carchase()

    def check(state: State) -> None:
        assert json.loads(json.dumps(state)) == state

    final, decisions, points = play(game, seed, choice_seed, check)
    check(final)
    # Resume from a saved state at a random decision point: same end as the original game.
    k = data.draw(st.integers(0, len(points) - 1), label="resume at")
    resumed = replay(game, json.loads(json.dumps(points[k])), decisions[k:])
    assert dump(resumed) == dump(final)
    # Round-trip the state before every single move: still the same game.
    state = game.new_game(seed)
    for actions in decisions:
        state = game.apply(json.loads(json.dumps(state)), actions)
    assert dump(state) == dump(final)


@SOME
@given(seed=SEEDS, choice_seed=SEEDS)
def test_same_seed_and_decisions_give_the_same_game(seed: int, choice_seed: int) -> None:
    final, decisions, _ = play(carchase(), seed, choice_seed)
    assert dump(replay(carchase(), carchase().new_game(seed), decisions)) == dump(final)
    # A pack loaded again (as by another program) plays the same game.
    again = carchase_loaded_again()
    assert dump(replay(again, again.new_game(seed), decisions)) == dump(final)


_PLAY_SCRIPT = """
import json, random, sys
from rulekit.pack.loader import load_pack
game = load_pack("carchase").game
rng = random.Random(int(sys.argv[2]))
state = game.new_game(int(sys.argv[1]))
while not game.is_over(state):
    state = game.apply(state, {d.player: d.sample(rng).id for d in game.pending(state)})
print(json.dumps(state, sort_keys=True))
"""


def test_same_game_in_other_processes() -> None:
    """Byte for byte the same game whatever the process and its hash seed."""
    root = Path(__file__).resolve().parent.parent
    outputs = []
    for hash_seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed,
                   PYTHONPATH=os.pathsep.join(p for p in (str(root),
                                                          os.environ.get("PYTHONPATH")) if p))
        done = subprocess.run([sys.executable, "-c", _PLAY_SCRIPT, "11", "5"], env=env,
                              capture_output=True, text=True, check=True, cwd=root, timeout=120)
        outputs.append(done.stdout.strip())
    game = carchase()
    rng = random.Random(5)
    state = game.new_game(11)
    while not game.is_over(state):
        state = game.apply(state, random_actions(game, state, rng))
    assert outputs[0] == outputs[1] == dump(state)


# ------------------------------------------------------------------ the rules


@SOME
@given(seed=SEEDS, choice_seed=SEEDS)
def test_cards_are_conserved(seed: int, choice_seed: int) -> None:
    game = carchase()
    cards = all_cards(game)
    assert len(cards) == 78

    def check(state: State) -> None:
        assert cards_in_zones(state) == cards

    final, _, _ = play(game, seed, choice_seed, check)
    check(final)


@SOME
@given(seed=SEEDS, choice_seed=SEEDS, turns=st.sampled_from([1, 2, 3, 7]))
def test_games_end_by_the_rules_within_the_turns(seed: int, choice_seed: int,
                                                 turns: int) -> None:
    game = carchase(turns)
    final, decisions, _ = play(game, seed, choice_seed)
    result = final["result"]
    assert result is not None and game.is_over(final)
    assert result["winner"] in ROLES
    assert 1 <= result["round"] <= turns
    if result["winner"] == "law":
        assert result["reason"] == "The Law captures the Fugitive."
    else:
        assert result["reason"] == "The Fugitive got away."
        assert result["round"] == turns
    # At most two exchanges and three contests a turn.
    assert len(decisions) <= 5 * turns
    assert final["pending"] == [] and final["stack"] == []
    with pytest.raises(IllegalActionError):
        game.apply(final, {"law": "none"})


# ------------------------------------------------------------------ hidden information


def swap_hidden(state: State, opponent: str, rng: random.Random) -> State:
    """The state with the opponent's hand and the deck dealt again from their cards."""
    new: State = json.loads(json.dumps(state))
    hand_key = f"hand.{opponent}"
    hand, deck = new["zones"][hand_key], new["zones"]["deck"]
    pool = hand + deck
    rng.shuffle(pool)
    new["zones"][hand_key] = pool[: len(hand)]
    new["zones"]["deck"] = pool[len(hand):]
    return new


def assert_hides(game: Game, state: State, role: str, rng: random.Random) -> None:
    opponent = OTHER[role]
    seen = game.observe(state, role)
    hidden = set(state["zones"][f"hand.{opponent}"]) | set(state["zones"]["deck"])
    # Nothing but the log can name a hidden card (the log may name a card seen earlier,
    # before it went back to the deck).
    visible = {k: v for k, v in seen.items() if k != "log"}
    assert not hidden & set(strings_in(visible))
    assert all(event["to"] in (None, role) for event in seen["log"])
    for _ in range(2):
        other = swap_hidden(state, opponent, rng)
        assert game.observe(other, role) == seen


@FEW
@given(seed=SEEDS, choice_seed=SEEDS, swap_seed=SEEDS)
def test_observations_hide_the_opponents_hand_and_the_deck(seed: int, choice_seed: int,
                                                           swap_seed: int) -> None:
    game = carchase()
    rng = random.Random(swap_seed)

    def check(state: State) -> None:
        for role in ROLES:
            assert_hides(game, state, role, rng)

    final, _, _ = play(game, seed, choice_seed, check)
    check(final)


def without_waiting_for(observation: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in observation.items() if k != "waiting_for"}


@FEW
@given(seed=SEEDS, choice_seed=SEEDS)
def test_a_committed_simultaneous_choice_stays_secret(seed: int, choice_seed: int) -> None:
    game = carchase()
    rng = random.Random(choice_seed ^ 0x5EED)
    contests = 0

    def check(state: State) -> None:
        nonlocal contests
        pending = game.pending(state)
        if len(pending) != 2:
            return
        contests += 1
        for decision in pending:
            mover, other = decision.player, OTHER[decision.player]
            before = game.observe(state, other)
            options = decision.options()
            picks = {options[0].id, options[-1].id, decision.sample(rng).id}
            seen = []
            for pick in sorted(picks):
                after = game.apply(state, {mover: pick})
                assert not game.is_over(after) and after["pending"] == state["pending"]
                seen.append(game.observe(after, other))
                # The other player's view is as if nothing had happened...
                assert without_waiting_for(seen[-1]) == without_waiting_for(before)
                assert seen[-1]["waiting_for"] == [other]
            # ...and does not depend on what was chosen.
            assert all(s == seen[0] for s in seen)

    play(game, seed, choice_seed, check)


def test_a_commit_shows_only_that_the_player_has_decided() -> None:
    """As at a table, the other player sees that a secret choice was made (``waiting_for``
    drops that player) and nothing else of it."""
    game, state = contest_state()
    before = game.observe(state, "fugitive")
    after = game.observe(game.apply(state, {"law": law_option(game, state)}), "fugitive")
    assert before["waiting_for"] == ["law", "fugitive"]
    assert after["waiting_for"] == ["fugitive"]
    assert {**after, "waiting_for": None} == {**before, "waiting_for": None}


def test_a_committed_player_has_no_decision_left_in_their_observation() -> None:
    game, state = contest_state()
    after = game.apply(state, {"law": law_option(game, state)})
    assert game.decision_for(after, "law") is None
    assert game.observe(after, "law")["decisions"] == []


def law_option(game: Game, state: State) -> str:
    decision = game.decision_for(state, "law")
    assert decision is not None
    return decision.options()[0].id


def contest_state(seed: int = 0) -> tuple[Game, State]:
    """A Car Chase state where both players choose at once (the Search contest)."""
    game = carchase()
    rng = random.Random(seed)
    state = game.new_game(seed)
    while len(game.pending(state)) != 2:
        state = game.apply(state, random_actions(game, state, rng))
    return game, state


# ------------------------------------------------------------------ determinize and apply


# Determinizing replays the observer's history through its belief at every decision point of
# a whole game: fewer games than the other properties, to keep the suite fast.
@settings(max_examples=10, deadline=None, database=None)
@given(seed=SEEDS, choice_seed=SEEDS, det_seed=SEEDS)
def test_determinize_keeps_the_observation_and_the_cards(seed: int, choice_seed: int,
                                                         det_seed: int) -> None:
    game = carchase()
    cards = all_cards(game)
    rng, kept = random.Random(det_seed), {}

    def check(state: State) -> None:
        before = dump(state)
        for role in ROLES:
            det = determinize(game, state, role, rng, kept)
            assert game.observe(det, role) == game.observe(state, role)
            assert cards_in_zones(det) == cards
            assert json.loads(json.dumps(det)) == det
        assert dump(state) == before

    play(game, seed, choice_seed, check)


def test_determinized_states_hide_the_opponent_and_can_be_played_on() -> None:
    game, state = contest_state()
    for k in range(10):
        det = determinize(game, state, "law", random.Random(k))
        hand = det["zones"]["hand.fugitive"]
        (spec,) = [s for s in det["pending"] if s["player"] == "fugitive"]
        assert all(card in hand for card in spec["items"])
        rng = random.Random(k)
        while not game.is_over(det):
            det = game.apply(det, random_actions(game, det, rng))


@SOME
@given(seed=SEEDS, choice_seed=SEEDS)
def test_apply_does_not_modify_its_input(seed: int, choice_seed: int) -> None:
    game = carchase()
    rng = random.Random(choice_seed ^ 0xA11)

    def check(state: State) -> None:
        before = dump(state)
        actions = random_actions(game, state, rng)
        game.apply(state, actions)
        for role, action in actions.items():
            game.apply(state, {role: action})  # one player at a time
        with pytest.raises(IllegalActionError):
            game.apply(state, {role: "no such option" for role in actions})
        assert dump(state) == before

    play(game, seed, choice_seed, check)
