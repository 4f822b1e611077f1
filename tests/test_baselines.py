"""The scripted players of ``benchmarks/baselines.py`` play whole games by the rules.

They are the yardsticks of ``benchmarks/bench_bots.py``; how strong they are is measured there.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from rulekit import simulate

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import baselines
import first_ismcts


def test_the_greedy_car_chase_players_finish_their_games() -> None:
    agents = {"law": baselines.CarChaseGreedy(), "fugitive": baselines.CarChaseGreedy()}
    result = simulate("carchase", games=20, agents=agents)
    assert result.games == 20 and result.capped == 0
    assert result.wins["fugitive"] > 0 and result.wins["law"] > 0


@pytest.mark.slow
def test_the_scripted_red_notice_players_finish_their_games() -> None:
    agents = {"angela": baselines.RedNoticeAngela(), "jessah": baselines.RedNoticeJessah()}
    result = simulate("rednotice", games=3, agents=agents, max_rounds=60)
    assert result.games == 3 and sum(result.wins.values()) >= 2  # one may go on and on
    against_random = simulate("rednotice", games=3, agents={"jessah": agents["jessah"]})
    assert against_random.wins["jessah"] == 3


def test_the_highest_player_plays_any_pack_of_cards() -> None:
    # Hideout's Law plays every card it may (the best Location): the best a Law can do.
    hideout = Path(__file__).resolve().parent.parent / "docs" / "examples" / "hideout"
    result = simulate(str(hideout), games=100, agents={"law": baselines.Highest()})
    assert result.wins["law"] >= 70  # random play wins about 21%
    agents = {role: baselines.Highest() for role in ("law", "fugitive")}
    assert simulate("carchase", games=10, agents=agents).capped == 0


def test_the_first_search_finishes_its_games_and_beats_random_play() -> None:
    agents = {"law": first_ismcts.FirstIsmcts(iterations=30)}
    result = simulate("carchase", games=10, agents=agents, seed=1)
    assert result.games == 10 and result.capped == 0
    assert result.wins["law"] >= 7  # random play as the Fugitive is easily caught
