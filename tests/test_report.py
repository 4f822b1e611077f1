"""Tests of ``rulekit report``: the designer's report (rulekit.report, rulekit.sim.traces)."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from rulekit.report.collect import make_report
from rulekit.sim.simulation import simulate

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


def test_workers_give_the_same_figures() -> None:
    one = make_report("carchase", games=60, seed=2)
    two = make_report("carchase", games=60, seed=2, workers=2)
    assert one["cards"] == two["cards"] and one["tension"] == two["tension"]


def test_a_card_counts_as_played_only_when_its_owner_plays_it() -> None:
    # Without exchanges, the Law plays cards only in contests, where a Fugitive card is refused.
    report = make_report("carchase", {"discard_limit": 0}, games=60, seed=1)
    law = {row["card"]: row for row in report["cards"] if row["role"] == "law"}
    assert law["lie_low"]["held"] > 0 and law["lie_low"]["played"] == 0
    assert law["lie_low"]["impact"] is None
    assert law["checkpoint"]["played"] > 0
    # With exchanges, a card discarded by choice counts as played.
    swapped = make_report("carchase", games=60, seed=1)
    assert any(row["card"] == "lie_low" and row["role"] == "law" and row["played"]
               for row in swapped["cards"])


@pytest.mark.slow
def test_a_planted_imbalance_comes_out_first() -> None:
    # Checkpoint scores 30 in this variant. Without exchanges, a card played is a card played
    # in a contest, not one thrown away at random.
    cards = make_report(PLANTED, {"discard_limit": 0}, games=3000, seed=1)["cards"]
    first = cards[0]
    assert (first["card"], first["role"]) == ("checkpoint", "law")
    # Its interval is clear of every other card's seen in enough games to say anything.
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


def test_a_report_into_a_missing_folder_is_refused(run: Run, tmp_path: Path) -> None:
    code, _, err = run("report", "carchase", "-n", "5", "-o", tmp_path / "no" / "r.html")
    assert code == 1
    assert "cannot write" in err and "no folder" in err


def test_a_card_chosen_then_placed_by_a_second_choice_counts_as_played() -> None:
    # In Red Notice a token is chosen, then its space, and only then moved out of the hand.
    cards = make_report("rednotice", games=4, seed=1)["cards"]
    tokens = [row for row in cards if row["card"].startswith("j_tok")]
    assert tokens and all(row["played"] > 0 for row in tokens)


def test_without_matplotlib_the_page_says_how_to_install_it(
        run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if it were not installed
    code, _, err = run("report", "carchase", "-n", "5", "-o", tmp_path / "r.html")
    assert code == 1
    assert "the report's charts need matplotlib" in err
    assert "pip install 'rulekit[report]'" in err
    assert not (tmp_path / "r.html").exists()
    code, out, _ = run("report", "carchase", "-n", "5", "--json")  # JSON needs no charts
    assert code == 0 and json.loads(out)["cards"]
