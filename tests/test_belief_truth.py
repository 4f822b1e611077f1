"""A belief keeps the truth: every place a hidden piece may be, whatever the caps.

On the Scatter pack a hider moves in secret on a ring, up to ``reach`` spots a round, and a
seeker searches one spot a round. Where the hider may be follows from the public searches alone
(as in Scotland Yard), so the test works it out itself and compares it with the belief, kept
under its default caps: the hider's choices outnumber the answers a belief keeps of one state.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rulekit.bots.belief import Belief
from rulekit.engine.game import Game
from rulekit.pack.loader import load_pack

SCATTER = Path(__file__).parent / "packs" / "scatter"


def scatter(rounds: int, spots: int, reach: int) -> Game:
    return load_pack(SCATTER, {"rounds": rounds, "spots": spots, "reach": reach}).game


def ring_moves(spot: int, spots: int, reach: int) -> set[int]:
    return {(spot + step) % spots for step in range(-reach, reach + 1)}


def play_and_compare(seed: int, rounds: int, spots: int = 30, reach: int = 5,
                     searches: list[int] | None = None, near_misses: bool = False) -> list[int]:
    """Random hider; a seeker searching ``searches`` in turn, else at random.

    With ``near_misses`` the seeker searches the highest place she may be and is not.

    At each of the seeker's decisions, the belief's values of ``hider_at`` must be exactly the
    places the public log allows. Returns how many places there were each time.
    """
    game = scatter(rounds, spots, reach)
    rng = random.Random(seed)
    belief = Belief(game, "seeker", random.Random(seed + 100))
    possible = {0}
    sizes: list[int] = []
    state = game.new_game(seed)
    while not game.is_over(state):
        (decision,) = game.pending(state)
        if decision.player == "hider":
            possible = {x for p in possible for x in ring_moves(p, spots, reach)}
            answer = decision.sample(rng).id
        else:
            belief.update(game.observe(state, "seeker"))
            assert not belief.lost
            places = belief.distribution("hider_at")
            assert state["vars"]["hider_at"] in places
            assert set(places) == possible
            assert sum(places.values()) == pytest.approx(1.0)
            sizes.append(len(places))
            if near_misses:
                answer = str(max(possible - {state["vars"]["hider_at"]}))
            else:
                answer = str(searches.pop(0) if searches else decision.sample(rng).id)
            possible.discard(int(answer))
        state = game.apply(state, {decision.player: answer})
    return sizes


@pytest.mark.parametrize("seed", range(4))
def test_every_place_the_hider_may_have_moved_to_is_believed(seed: int) -> None:
    # Eleven places from the known start, then up to 21, ...: more than a belief keeps of
    # one state's answers (6) and than its particles (16).
    sizes = play_and_compare(seed, rounds=4, searches=[29, 28, 27, 26])
    assert sizes[:2] == [11, 21]  # a search far from where she may be rules nothing out


@pytest.mark.parametrize("seed", range(4))
def test_a_search_rules_out_its_spot(seed: int) -> None:
    sizes = play_and_compare(seed, rounds=3, spots=12, reach=1, near_misses=True)
    assert sizes[0] == 3  # 11, 0 or 1
    assert len(sizes) == 3 and sum(sizes) < 3 + 5 + 7  # with no search: 3, 5, then 7 places


def test_a_long_game_of_random_searches_keeps_the_truth() -> None:
    for seed in range(3):
        play_and_compare(seed, rounds=8)


@pytest.mark.parametrize("seed", range(4))
def test_a_belief_that_lost_the_truth_starts_again_wider(seed: int) -> None:
    """With room for one of the hider's three answers, the belief follows one path of hers.
    The seeker searches where it says she is, and finds nobody: the belief starts again with
    more room, and is never lost. With room for all three, it holds her true place."""
    game = scatter(rounds=8, spots=12, reach=1)
    rng = random.Random(seed)
    belief = Belief(game, "seeker", random.Random(seed), particles=1, frontier=1, keep=1,
                    tries=1, seeds=1)
    state = game.new_game(seed)
    while not game.is_over(state):
        (decision,) = game.pending(state)
        if decision.player == "seeker":
            belief.update(game.observe(state, "seeker"))
            assert not belief.lost
            truth = state["vars"]["hider_at"]
            places = belief.distribution("hider_at")
            assert truth in places or belief.keep < 3
            wrong = [place for place in places if place != truth]
            answer = str(wrong[0] if wrong else (truth + 6) % 12)
        else:
            answer = decision.sample(rng).id
        state = game.apply(state, {decision.player: answer})
    assert belief.restarts >= 1
