"""The engine's belief: what a player may know of the hidden state, worked out from the rules.

On the small Shadow pack (a hidden mover, a seeker) the belief is compared with a brute-force
enumeration of every history of the hider's answers; on the shipped packs, the true state is
always among the states believed and a determinized state shows its observer exactly what the
real one shows.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from rulekit.bots.agent import SeatBelief, View
from rulekit.bots.belief import Belief
from rulekit.bots.belief.sampling import stratified_pick
from rulekit.bots.determinize import determinize
from rulekit.engine.game import Game, State
from rulekit.engine.rng import derive
from rulekit.pack.loader import load_pack

SHADOW = Path(__file__).parent / "packs" / "shadow"
EXHAUSTIVE = {"particles": 10**6, "frontier": 10**6, "budget": 10**9, "keep": 10**6,
              "tries": 10**6, "seeds": 1}


def shadow(rounds: int = 3) -> Game:
    return load_pack(SHADOW, {"rounds": rounds}).game


def random_game(game: Game, seed: int, observer: str | None, visit: Any,
                max_round: int = 99) -> None:
    """Play a random game; call ``visit(state)`` whenever ``observer`` (anyone if None) must
    decide."""
    rng = random.Random(seed)
    state = game.new_game(seed)
    while not game.is_over(state) and state["round"] <= max_round:
        decisions = game.pending(state)
        if any(observer in (None, d.player) for d in decisions):
            visit(state)
        state = game.apply(state, {d.player: d.sample(rng) for d in decisions})


def brute_force(game: Game, observer: str, observation: dict[str, Any],
                variable: str) -> dict[Any, float]:
    """Every history of the other player's answers (each equally likely at each decision)
    with the observer's real answers, kept if it ends showing ``observation``."""
    answers = [e["option"] for e in observation["log"]
               if e["e"] == "choice" and e["player"] == observer]
    found: dict[Any, float] = {}

    def walk(state: State, weight: float, used: int) -> None:
        decisions = game.pending(state)
        mine = [d for d in decisions if d.player == observer]
        if game.is_over(state) or (mine and used == len(answers)):
            if game.observe(state, observer) == observation:
                value = json.dumps(state["vars"][variable])
                found[value] = found.get(value, 0.0) + weight
            return
        if mine:
            try:
                walk(game.apply(state, {observer: answers[used]}), weight, used + 1)
            except Exception:  # an answer the observer could not give here
                return
            return
        (other,) = decisions
        options = other.options()
        for option in options:
            walk(game.apply(state, {other.player: option}), weight / len(options), used)

    walk(game.new_game(0), 1.0, 0)
    total = sum(found.values())
    return {k: v / total for k, v in found.items()}


def as_json_keys(distribution: dict[Any, float]) -> dict[str, float]:
    return {json.dumps(list(k) if isinstance(k, tuple) else k): v
            for k, v in distribution.items()}


@pytest.mark.parametrize("seed", range(6))
def test_belief_equals_a_brute_force_enumeration_of_histories(seed: int) -> None:
    game = shadow(3)
    checked = []

    def visit(state: State) -> None:
        observation = game.observe(state, "seeker")
        belief = Belief(game, "seeker", random.Random(1), **EXHAUSTIVE).update(observation)
        expected = brute_force(game, "seeker", observation, "hider_at")
        got = as_json_keys(belief.distribution("hider_at"))
        assert got.keys() == expected.keys()
        for value, weight in expected.items():
            assert got[value] == pytest.approx(weight)
        checked.append(len(expected))

    random_game(game, seed, "seeker", visit)
    assert checked and max(checked) > 1  # the hider was somewhere unknown at some point


def test_the_seeker_learns_where_the_hider_is_from_a_find() -> None:
    """After 'finds the Hider in X' the belief knows she was there (then where she fled)."""
    game = shadow(4)
    state = game.new_game(0)
    # Seeker walks towards the hider's corner; the hider stays put (declines to move).
    for _ in range(40):
        if game.is_over(state):
            break
        actions = {}
        for decision in game.pending(state):
            options = decision.options()
            if decision.player == "hider":
                actions["hider"] = next(o for o in options if o.id == "none")
            else:
                actions["seeker"] = options[-1]
        state = game.apply(state, actions)
        if any(e["e"] == "log" and "args" in e and e["args"] and e["args"][0] == "a"
               for e in state["log"]):
            break
    belief = Belief(game, "seeker", random.Random(0), **EXHAUSTIVE)
    observation = game.observe(state, "seeker")
    belief.update(observation)
    assert state["vars"]["hider_at"] in belief.distribution("hider_at")


@pytest.mark.slow
@pytest.mark.parametrize(("pack", "observer", "variable", "games", "max_round"), [
    ("carchase", "law", "law_total", 3, 99),
    ("carchase", "fugitive", "fugitive_total", 3, 99),
    ("rednotice", "jessah", "angela_at", 1, 2),
    ("rednotice", "angela", "jessah_at", 1, 2),
])
def test_the_true_state_is_always_in_the_belief(pack: str, observer: str, variable: str,
                                                games: int, max_round: int) -> None:
    game = load_pack(pack).game
    # Red Notice's hidden moves need more room than the default caps (see docs/bots.md).
    caps = {"particles": 64, "frontier": 128, "keep": 12} if pack == "rednotice" else {}
    for seed in range(games):
        belief = Belief(game, observer, random.Random(seed), **caps)

        def visit(state: State, belief: Belief = belief) -> None:
            belief.update(game.observe(state, observer))
            assert not belief.lost
            truth = state["vars"][variable]
            values = belief.distribution(variable)
            assert (tuple(truth) if isinstance(truth, list) else truth) in values
            assert sum(values.values()) == pytest.approx(1.0)

        random_game(game, seed, observer, visit, max_round)


def test_shadow_true_value_always_in_belief_over_many_games() -> None:
    game = shadow(6)
    for seed in range(12):
        belief = Belief(game, "seeker", random.Random(seed))

        def visit(state: State, belief: Belief = belief) -> None:
            belief.update(game.observe(state, "seeker"))
            assert state["vars"]["hider_at"] in belief.distribution("hider_at")

        random_game(game, seed, "seeker", visit)


@pytest.mark.parametrize("pack", ["tests/packs/shadow", "carchase", "rednotice"])
def test_a_determinized_state_shows_its_observer_exactly_the_real_observation(
        pack: str) -> None:
    game = load_pack(Path(pack) if "/" in pack else pack).game
    rng = random.Random(3)
    seen = []

    for observer in game.roles:
        belief = Belief(game, observer, random.Random(5))

        def visit(state: State, observer: str = observer, belief: Belief = belief) -> None:
            observation = game.observe(state, observer)
            belief.update(observation)
            sample = belief.sample(rng)
            assert game.observe(sample, observer) == observation
            assert json.loads(json.dumps(sample)) == sample
            assert sorted(c for p in sample["zones"].values() for c in p) == \
                sorted(c for p in state["zones"].values() for c in p)
            seen.append(1)

        random_game(game, 7, observer, visit, max_round=1 if pack == "rednotice" else 3)
    assert seen


@pytest.mark.slow
def test_two_determinizations_differ_where_the_observer_cannot_know() -> None:
    """The seeker cannot tell where the hider went; the hider can. Red Notice: Jessah cannot
    tell Angela's secret city after her first moves; Angela knows it."""
    game = shadow(6)
    rng = random.Random(0)
    state = game.new_game(0)
    moves = iter(["b", "c"])  # the hider's; the seeker stays and builds nothing
    while state["round"] < 2 or game.decision_for(state, "seeker") is None:
        (decision,) = game.pending(state)
        answer = next(moves) if decision.player == "hider" else "none"
        state = game.apply(state, {decision.player: answer})
    kept: dict[str, list[Belief]] = {}
    seeker = {determinize(game, state, "seeker", rng, kept)["vars"]["hider_at"]
              for _ in range(20)}
    hider = {determinize(game, state, "hider", rng, kept)["vars"]["hider_at"] for _ in range(5)}
    assert seeker == {"a", "b", "c"}  # the north's alarm rang once: she is in the north
    assert hider == {"c"}

    rednotice = load_pack("rednotice").game
    beliefs = {role: Belief(rednotice, role, random.Random(7), particles=64, frontier=128,
                            keep=12) for role in rednotice.roles}
    places: dict[str, set[str]] = {}
    truth: list[str] = []

    def visit(state: State) -> None:
        for role, belief in beliefs.items():
            if rednotice.decision_for(state, role) is not None:
                belief.update(rednotice.observe(state, role))
        if state["round"] == 2 and not truth and rednotice.decision_for(state, "jessah"):
            truth.append(state["vars"]["angela_at"])
            assert truth[0] in beliefs["jessah"].distribution("angela_at")
            for role, belief in beliefs.items():
                places[role] = {belief.sample(rng)["vars"]["angela_at"] for _ in range(8)}

    random_game(rednotice, 1, None, visit, max_round=2)
    assert len(places["angela"]) == 1  # she knows where she is
    assert len(places["jessah"]) > 1


def test_the_view_offers_the_belief_without_the_state() -> None:
    game = shadow(4)
    rng = random.Random(2)
    seat, kept = random.Random(9), SeatBelief()
    state = game.new_game(0)
    while not game.is_over(state):
        decisions = game.pending(state)
        actions = {}
        for d in decisions:
            if d.player == "seeker":
                view = View.of(game, "seeker", seat, state, kept=kept)
                sample = view.determinize(rng)
                assert game.observe(sample, "seeker") == game.observe(state, "seeker")
                assert view.belief is view.belief  # one belief per seat and game
            actions[d.player] = d.sample(rng)
        state = game.apply(state, actions)


# A Red Notice game (seed 3): Angela shows a South American Check and starts in Rio; Jessah
# starts in Miami and watches Africa and Europe with Radars; in round 1 Angela's one-step
# Movement takes her from Rio to Cape Town.
RADAR_GAME = [
    {"angela": "chk_sa_2"}, {"angela": "rio_de_janeiro"}, {"jessah": "chk_na_2"},
    {"jessah": "miami"}, {"jessah": "africa"}, {"jessah": "europe"},
    {"angela": "a_tok_1#1"}, {"angela": "8"}, {"jessah": "j_tok_1#2"}, {"jessah": "5"},
    {"angela": "a_tok_5"}, {"angela": "6"}, {"jessah": "j_tok_3#1"}, {"jessah": "4"},
    {"angela": "a_tok_2#2"}, {"angela": "3"}, {"jessah": "j_tok_3#2"}, {"jessah": "1"},
    {"jessah": "none"}, {"jessah": "sydney-auckland"}, {"jessah": "none"}, {"jessah": "none"},
    {"angela": "none"}, {"angela": "cape_town"},
]


def test_a_triggered_radar_tells_the_hunter_where_the_step_led() -> None:
    """RN-39: after "...she triggered the Radars in: Africa", one step from Rio, Jessah's belief
    holds Cape Town only (the one African city next to South America's), with the belief
    fed as a bot or the table feeds it: at each of Jessah's decisions, and then once more."""
    game = load_pack("rednotice").game
    state = game.new_game(3)
    belief = Belief(game, "jessah", random.Random(0))
    before: dict[Any, float] = {}
    for actions in RADAR_GAME:
        if game.decision_for(state, "jessah") is not None:
            before = belief.update(game.observe(state, "jessah")).distribution("angela_at")
        state = game.apply(state, actions)
    assert set(before) == {"bogota", "lima", "santiago", "buenos_aires", "rio_de_janeiro"}
    told = [game.format_event(e) for e in game.observe(state, "jessah")["log"] if e["e"] == "log"]
    assert told[-1] == "Angela moves in secret (Movement 1); she triggered the Radars in: Africa."
    assert state["vars"]["angela_at"] == "cape_town"
    belief.update(game.observe(state, "jessah"))
    assert belief.distribution("angela_at") == {"cape_town": pytest.approx(1.0)}


def test_determinize_follows_a_game_and_comes_back_to_earlier_states() -> None:
    """determinize keeps beliefs and follows them on; a state met again (an earlier one,
    as a search comes back to its root) still gets a state that shows exactly its
    observation."""
    game = shadow(4)
    states: list[State] = []
    random_game(game, 4, None, lambda state: states.append(state))
    rng, kept = random.Random(6), {}
    for state in states + states[::-1] + states[::3]:
        for role in game.roles:
            sample = determinize(game, state, role, rng, kept)
            assert game.observe(sample, role) == game.observe(state, role)


def test_determinize_survives_renamed_cards_that_leave_a_choice_empty() -> None:
    # Round 3 of a random Red Notice game: to follow Angela's answers, the belief renames
    # hidden cards and asks the setup again; one renaming left her starting-city choice with
    # nothing to choose, and determinize stopped with the pack's run-time error. Such a
    # renaming is a branch the rules cannot follow, dropped like any other.
    game = load_pack("rednotice").game
    rand = random.Random(1)
    state = game.new_game(derive(7, 0))
    while len(state["log"]) < 160:
        actions = {d.player: d.sample(rand) for d in game.pending(state)}
        state = game.apply(state, actions, in_place=True)
    drawn = determinize(game, state, "jessah", random.Random(8))
    assert game.observe(drawn, "jessah") == game.observe(state, "jessah")


def contest_state(game: Game) -> State:
    """A Car Chase state where both players must pick cards (the Search contest)."""
    rand = random.Random(2)
    state = game.new_game(11)
    while len(game.pending(state)) < 2:
        state = game.apply(state, {d.player: d.sample(rand) for d in game.pending(state)})
    return state


def test_determinized_cards_differ_only_where_the_observer_cannot_see() -> None:
    game = load_pack("carchase").game
    state = contest_state(game)
    rng = random.Random(4)
    kept: dict[str, list[Belief]] = {}
    drawn = [determinize(game, state, "law", rng, kept) for _ in range(10)]
    assert {tuple(s["zones"]["hand.law"]) for s in drawn} == {tuple(state["zones"]["hand.law"])}
    assert len({tuple(s["zones"]["hand.fugitive"]) for s in drawn}) > 5
    assert len({tuple(s["zones"]["deck"]) for s in drawn}) == 10


def test_a_determinized_state_asks_what_its_cards_allow() -> None:
    """The other player's pending choice offers the cards the new deal gave that player (and
    an answer it had already committed stays one of them)."""
    game = load_pack("carchase").game
    state = contest_state(game)
    state = game.apply(state, {"fugitive": game.decision_for(state, "fugitive").options()[-1]})
    rng, kept = random.Random(5), {}
    for _ in range(10):
        drawn = determinize(game, state, "law", rng, kept)
        (spec,) = [s for s in drawn["pending"] if s["player"] == "fugitive"]
        hand = drawn["zones"]["hand.fugitive"]
        refused = [card for card, _ in spec.get("refused", [])]
        assert sorted(spec["items"] + refused) == sorted(hand)
        assert set(drawn["committed"]["fugitive"].split("+")) <= set(spec["items"]) | {"none"}
        assert game.observe(drawn, "law") == game.observe(state, "law")


def test_the_observers_subset_answer_is_replayed_in_the_order_its_log_lists_it() -> None:
    # R's answer lists the cards it picks in the order of R's hand; a belief that follows the
    # game from its beginning dealt R other cards and swaps the named ones in, so it may hold
    # them in another order, and its replayed answer would then log them otherwise.
    game = load_pack("carchase").game
    state = game.new_game(3)
    decision = game.pending(state)[0]
    role, items = decision.player, decision.items
    answer = f"{items[3]}+{items[1]}+{items[0]}"  # not in the order of the hand
    belief = Belief(game, role, random.Random(0))
    moved = belief._in_answer_order(state, answer)
    child = game.apply(moved, {role: answer})
    assert child["log"][-2]["option"] == answer
    assert sorted(moved["zones"][f"hand.{role}"]) == sorted(state["zones"][f"hand.{role}"])


def test_a_cap_keeps_one_state_of_every_hidden_value() -> None:
    # More values of a hidden variable than the cap holds: each keeps a state, and the
    # weights of the values survive.
    items = list(range(12))
    weights = [1.0 + i for i in items]
    strata = [str(i % 6) for i in items]
    covers = [((0, str(i % 6)),) for i in items]
    kept = stratified_pick(weights, strata, 2, random.Random(0), covers=covers)
    assert {strata[i] for i, _ in kept} == set(strata)
    assert sum(w for _, w in kept) == pytest.approx(sum(weights))
