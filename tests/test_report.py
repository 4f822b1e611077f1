"""Tests of ``rulekit report``: the designer's report (rulekit.report, rulekit.sim.traces)."""

from __future__ import annotations

import json
import random
import re
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from rulekit.engine.draws import RandomChooser
from rulekit.engine.game import Game
from rulekit.engine.playout import playout
from rulekit.pack.loader import load_pack
from rulekit.report import collect
from rulekit.report.collect import make_report
from rulekit.report.page import html_page
from rulekit.sim.execution import InProcess, Pool
from rulekit.sim.simulation import simulate
from rulekit.sim.traces import TENSION_GAMES, ChoiceLog, GameTrace, Tracer, Traces

Run = Callable[..., tuple[int, str, str]]
PLANTED = Path(__file__).parent / "packs" / "planted"


def test_report_writes_one_self_contained_page(run: Run, tmp_path: Path) -> None:
    target = tmp_path / "carchase.html"
    code, out, err = run("report", "carchase", "-n", "40", "--seed", "3", "-o", target)
    assert code == 0 and out == ""
    assert f"report written to {target}" in err
    page = target.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    assert page.count("<svg") == 4  # win rates, lengths, tension, cards
    for heading in ("Who wins", "How long, how games end", "Tension", "Skill", "Cards"):
        assert f"<h2>{heading}" in page
    # Nothing to fetch: no script, stylesheet or image from elsewhere.
    assert not re.search(r"<(script|link|img)\b|url\((?!#)|@import|href=\"http", page)
    assert not list(tmp_path.glob(".*.tmp"))  # written through a temporary file, then moved


def test_the_same_run_writes_the_same_page(run: Run, tmp_path: Path) -> None:
    pages = []
    for name in ("one.html", "two.html"):
        code, _, _ = run("report", "carchase", "-n", "20", "--seed", "2", "-o", tmp_path / name,
                         "--quiet")
        assert code == 0
        pages.append((tmp_path / name).read_bytes())
    assert pages[0] == pages[1]


def test_json_cards_give_each_card_its_impact_with_an_interval(run: Run) -> None:
    code, out, _ = run("report", "carchase", "-n", "60", "--json")
    report = json.loads(out)
    assert code == 0
    cards = report["cards"]
    assert {"card", "impact", "impact_ci95", "played_ci95", "not_played_ci95"} <= set(cards[0])
    rated = [row["impact"] for row in cards if row["impact"] is not None]
    assert rated == sorted(rated, reverse=True)
    for row in cards:
        if row["impact"] is not None:
            low, high = row["impact_ci95"]
            assert low <= row["impact"] <= high
    assert report["tension"]["evaluation"] == "pack"
    assert report["skill"] is None
    assert any("--skill-games" in text for text in report["missing"])


def test_the_report_plays_the_games_simulate_plays() -> None:
    report = make_report("carchase", games=80, seed=5)
    assert report["runs"][0]["wins"] == simulate("carchase", games=80, seed=5).wins


def _traced(game: Game, seed: int, by_steps: bool) -> Traces:
    """The traces of one game of random seats, played out or played by steps."""
    tracer = Tracer(game, Traces())
    state = game.initial_state(seed, quiet=not by_steps)
    trace = GameTrace(tracer, state)
    choosers = {role: RandomChooser(random.Random(f"{seed}:{role}")) for role in game.roles}
    if by_steps:  # as agents other than random ones play: the log tells the trace
        state["log"] = ChoiceLog(trace)
        game.run(state)
        while state["result"] is None:
            game.apply(state, {d.player: choosers[d.player](d) for d in game.pending(state)},
                       in_place=True)
    else:  # as random seats play: the playout tells the trace
        playout(game, state, choosers, record=False, told=trace.chose)
    trace.settle()
    tracer.traces.add(trace, state["result"]["winner"])
    return tracer.traces


@pytest.mark.parametrize(("pack", "games"), [("carchase", 30), ("rednotice", 3)])
def test_a_game_is_traced_alike_played_out_or_by_steps(pack: str, games: int) -> None:
    game = load_pack(pack).game
    for seed in range(games):
        played_out = _traced(game, seed, by_steps=False)
        assert any(played_out.played.values()) and played_out.decided == 1
        assert played_out == _traced(game, seed, by_steps=True), f"game {seed}"


def test_workers_give_the_same_figures() -> None:
    one = make_report("carchase", games=60, seed=2)
    two = make_report("carchase", games=60, seed=2, workers=2)
    assert one["cards"] == two["cards"] and one["tension"] == two["tension"]


def test_a_card_counts_as_played_in_the_phase_its_owner_plays_it() -> None:
    # Without exchanges, the Law plays cards only in contests, where a Fugitive card is refused.
    report = make_report("carchase", {"discard_limit": 0}, games=60, seed=1)
    law = [row for row in report["cards"] if row["role"] == "law"]
    lie_low = [row for row in law if row["card"] == "lie_low"]
    assert lie_low == [row for row in lie_low if row["phase"] is None and row["played"] == 0]
    assert lie_low[0]["held"] > 0 and lie_low[0]["impact"] is None
    checkpoint = {row["phase"]: row for row in law if row["card"] == "checkpoint"}
    assert set(checkpoint) == {"escape"} and checkpoint["escape"]["played"] > 0
    # With exchanges, a card discarded by choice is played in the Draw phase, on a row apart.
    swapped = make_report("carchase", games=60, seed=1)
    phases = {row["phase"] for row in swapped["cards"]
              if row["card"] == "checkpoint" and row["role"] == "law"}
    assert phases == {"draw", "escape"}
    assert any(row["card"] == "lie_low" and row["role"] == "law" and row["phase"] == "draw"
               and row["played"] for row in swapped["cards"])


@pytest.mark.slow
def test_a_planted_imbalance_comes_out_first() -> None:
    # Checkpoint scores 30 in this variant: played in the Escape, it wins the game.
    cards = make_report(PLANTED, games=3000, seed=1)["cards"]
    first = cards[0]
    assert (first["card"], first["role"], first["phase"]) == ("checkpoint", "law", "escape")
    # Its interval is clear of every other row's seen in enough games to say anything.
    others = [row for row in cards[1:] if row["played"] >= 30]
    assert others and first["impact_ci95"][0] > max(row["impact_ci95"][1] for row in others)


def test_tension_shows_where_the_winner_led(run: Run) -> None:
    report = make_report("carchase", games=100, seed=1)
    tension = report["tension"]
    assert tension["games"] == 100
    first, last = tension["rounds"][0], tension["rounds"][-1]
    assert last["winner"]["median"] > last["loser"]["median"]
    assert first["winner"]["games"] == 100
    assert sum(tension["settled"].values()) == 100
    assert 0 <= tension["decided_early_rate"] <= 1


def test_tension_comes_from_the_first_games_of_each_run() -> None:
    report = make_report("carchase", games=TENSION_GAMES + 60, seed=4)
    first = make_report("carchase", games=TENSION_GAMES, seed=4)
    tension = report["tension"]
    assert tension is not None and tension == first["tension"]
    assert (tension["sampled"], tension["sample_per_run"]) == (TENSION_GAMES, TENSION_GAMES)
    assert report["cards"] != first["cards"]  # the cards count every game
    assert make_report("carchase", games=TENSION_GAMES + 60, seed=4, workers=2)["tension"] \
        == tension
    assert (f"in the first {TENSION_GAMES} games ({tension['games']} of them with a winner)"
            in html_page(report))


def test_zero_games_say_what_is_missing(run: Run, tmp_path: Path) -> None:
    target = tmp_path / "r.html"
    code, out, _ = run("report", "carchase", "-n", "0", "--json", "-o", target)
    report = json.loads(out)
    assert code == 0
    assert report["missing"][0].startswith("no games were played: give --games N")
    assert report["cards"] == [] and report["tension"] is None
    assert "no games were played" in target.read_text(encoding="utf-8")


def test_a_pack_without_cards_in_hands_says_so(run: Run, duel_pack: Path) -> None:
    code, out, _ = run("report", duel_pack, "-n", "20", "--json")
    report = json.loads(out)
    assert code == 0 and report["cards"] == []
    assert any(text.startswith("no card was held in a hand") for text in report["missing"])
    assert report["tension"]["evaluation"] == "owned"  # the duel pack has no evaluate:


def test_a_pack_whose_games_end_in_draws_has_no_tension(
        run: Run, make_pack: Callable[..., Path]) -> None:
    wins = ('  after_rounds: |\n    if points[red] > points[blue] { win red "Red has more points" }'
            '\n    if points[blue] > points[red] { win blue "Blue has more points" }\n')
    drawn = make_pack(replace={"game.yaml": (wins, "")})
    for games in (20, TENSION_GAMES + 1):
        code, out, _ = run("report", drawn, "-n", str(games), "--json")
        report = json.loads(out)
        among = f" among the first {TENSION_GAMES} of a run" if games > TENSION_GAMES else ""
        assert code == 0 and report["tension"] is None and report["runs"][0]["draws"] == games
        assert f"no game ended with a winner{among}: there is no tension to show" \
            in report["missing"]


def test_a_sweep_of_one_value_says_so(run: Run, tmp_path: Path) -> None:
    code, out, _ = run("report", "carchase", "-n", "20", "--sweep", "turns=3", "--json",
                       "-o", tmp_path / "r.html")
    report = json.loads(out)
    assert code == 0 and report["sweep"] == ["turns"]
    assert "the sweep has one value: give two or more to compare them" in report["missing"]


def test_a_sweep_shows_each_value_side_by_side(run: Run, tmp_path: Path) -> None:
    target = tmp_path / "sweep.html"
    code, _, _ = run("report", "carchase", "-n", "20", "--sweep", "turns=3,5", "-o", target,
                     "--quiet")
    page = target.read_text(encoding="utf-8")
    assert code == 0
    assert "<th>turns=3</th><th>turns=5</th>" in page


def test_skill_matches(run: Run) -> None:
    code, out, _ = run("report", "carchase", "-n", "10", "--skill-games", "4",
                       "--strong", "random", "--json")
    skill = json.loads(out)["skill"]
    assert code == 0 and skill["games"] == 4
    assert [row["role"] for row in skill["roles"]] == ["law", "fugitive"]


def test_the_skill_matches_share_one_pool_of_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[int] = []

    def counted(workers: int = 1, scheduler: str | None = None) -> Pool:
        opened.append(workers)
        return InProcess()

    monkeypatch.setattr(collect, "open_pool", counted)
    report = make_report("carchase", games=4, workers=3, skill_games=2, strong="random")
    assert report["skill"] is not None and opened == [3]


def test_a_report_into_a_missing_folder_is_refused(run: Run, tmp_path: Path) -> None:
    code, _, err = run("report", "carchase", "-n", "5", "-o", tmp_path / "no" / "r.html")
    assert code == 1
    assert "cannot write" in err and "no folder" in err


def test_a_card_chosen_then_placed_by_a_second_choice_counts_as_played() -> None:
    # In Red Notice a token is chosen, then its space, and only then moved out of the hand.
    cards = make_report("rednotice", games=4, seed=1)["cards"]
    tokens = [row for row in cards if row["card"].startswith("j_tok")]
    assert tokens and all(row["played"] > 0 for row in tokens)


def test_without_pygal_the_page_says_how_to_install_it(
        run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pygal", None)  # as if it were not installed
    code, _, err = run("report", "carchase", "-n", "5", "-o", tmp_path / "r.html")
    assert code == 1
    assert "the report's charts need pygal" in err
    assert "pip install 'rulekit[report]'" in err
    assert not (tmp_path / "r.html").exists()
    code, out, _ = run("report", "carchase", "-n", "5", "--json")  # JSON needs no charts
    assert code == 0 and json.loads(out)["cards"]
