"""How the other players answer: the odds of random play, judged by the answers seen."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from rulekit.authoring.scaffold import new_pack
from rulekit.bots.agent import View
from rulekit.bots.belief import SeatBelief
from rulekit.bots.belief.others import Expected, Others
from rulekit.bots.ismcts import IsmctsAgent
from rulekit.engine.decisions import Option
from rulekit.engine.game import Game, State, copy_state
from rulekit.pack.loader import load_pack


@pytest.fixture(scope="module")
def duel(tmp_path_factory: pytest.TempPathFactory) -> Game:
    """The pack ``rulekit new`` writes: both players play a card at once, the higher scores."""
    target = tmp_path_factory.mktemp("packs") / "duel"
    new_pack(Path(target))
    return load_pack(str(target)).game


def _showdown(game: Game, seed: int) -> tuple[State, str, list[str]]:
    """The first showdown: the state, Red's first card and Blue's cards."""
    state = game.new_game(seed)
    asked = {d.player: [o.id for o in d.options()] for d in game.pending(state)}
    return state, asked["red"][0], asked["blue"]


def _judged(game: Game, state: State, red: str, blue: str, visits: dict[str, float]) -> float:
    """Red's odds of random play after Blue answers ``blue``, where a search expected
    ``visits`` of Blue's answers."""
    others = Others()
    others.expect(Expected([copy_state(state)], "red", red, 0, {"blue": visits}))
    after = game.apply(state, {"red": red, "blue": blue})
    others.judge(game, game.observe(after, "red"))
    return others.log_odds


def test_an_answer_the_search_expected_speaks_for_a_search(duel: Game) -> None:
    state, red, blue = _showdown(duel, 0)
    assert _judged(duel, state, red, blue[0], {blue[0]: 1000.0}) < -1


def test_an_answer_the_search_left_alone_speaks_for_random_play(duel: Game) -> None:
    state, red, blue = _showdown(duel, 0)
    assert _judged(duel, state, red, blue[1], {blue[0]: 1000.0}) > 1


def test_answers_searched_evenly_tell_nothing(duel: Game) -> None:
    state, red, blue = _showdown(duel, 0)
    even = {option: 100.0 for option in blue}
    assert _judged(duel, state, red, blue[1], even) == pytest.approx(0.0)


def test_an_answer_no_event_shows_tells_nothing(duel: Game) -> None:
    """Answers are told apart by the public events that follow; with none, nothing moves."""
    state, red, blue = _showdown(duel, 0)
    others = Others()
    others.expect(Expected([copy_state(state)], "red", red, 0, {"blue": {blue[0]: 1000.0}}))
    others.judge(duel, duel.observe(state, "red"))  # (nothing has happened yet)
    assert others.log_odds == 0.0 and others.expected is None


def test_the_others_count_as_random_only_once_likelier(duel: Game) -> None:
    others = Others()
    assert others.at_random() == 0.0  # no answer seen: the search plays as it always did
    others.log_odds = -2.0
    assert others.at_random() == 0.0
    others.log_odds = 2.0
    assert others.at_random() == pytest.approx(0.881, abs=0.001)


def _odds_along(game: Game, seed: int, blue: Callable[[Option], int]) -> float:
    """Red's odds of random play at the end of a game, a search of Red's against a Blue who
    plays the card that ``blue`` ranks first."""
    red, kept, rng = IsmctsAgent(iterations=150, depth=50), SeatBelief(), random.Random(seed)
    state = game.new_game(seed)
    while state["result"] is None:
        answers = {}
        for d in game.pending(state):
            answers[d.player] = max(d.options(), key=blue).id if d.player == "blue" else \
                red.choose(View.of(game, "red", rng, state, kept=kept), d).id
        state = game.apply(state, answers)
    return kept.others.log_odds


def _card_value(option: Option) -> int:
    return int(option.label.rsplit("(", 1)[1].rstrip(")"))  # the label: Gold (3)


def test_a_search_learns_whether_its_opponent_plays_well(tmp_path: Path) -> None:
    """Over whole games of five cards a hand, a Blue who throws its lowest card away is judged
    to play at random; one who plays its highest, more as a search does."""
    new_pack(tmp_path / "duel")
    game = load_pack(tmp_path / "duel", {"cards_in_hand": 5, "target_points": 6,
                                         "round_limit": 12}).game
    lowest = [_odds_along(game, seed, lambda o: -_card_value(o)) for seed in range(4)]
    highest = [_odds_along(game, seed, _card_value) for seed in range(4)]
    assert sum(odds > 0 for odds in lowest) >= 3
    assert sum(highest) < sum(lowest) - 4
