"""The initiative a pack declares (``flow.initiative``): checked at load, and reported by the
simulator: how often its holder wins at the start and at the end, each role by whether it held
it, in the text report, JSON, CSV and sweeps, the same for any number of workers."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers_cli import Run, runner

from rulekit.errors import PackErrors
from rulekit.pack.loader import load_pack
from rulekit.sim.simulation import play_game, simulate

# The duel pack where a hidden card gives one player the initiative at setup; the holder takes
# the point on equal numbers, and the initiative passes at the end of each round.
HOLDER_VAR = ("points: {per_role: true, initial: 0}",
              "points: {per_role: true, initial: 0}\n  starter: {initial: red}")
HOLDER_SETUP = ("flow:\n", """setup: |
  shuffle deck
  if first(deck).score == 13 { starter = blue }
flow:
  initiative: starter
""")
HOLDER_TIE = ("if b > r { points[blue] += 1 }",
              "if b > r { points[blue] += 1 }\n        if r == b { points[starter] += 1 }\n"
              "        starter = other(starter)")


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    return runner(capsys)


@pytest.fixture
def holder_pack(make_pack: Callable[..., Path]) -> Path:
    folder = make_pack("holder")
    game = (folder / "game.yaml").read_text()
    for old, new in (HOLDER_VAR, HOLDER_SETUP, HOLDER_TIE):
        assert old in game
        game = game.replace(old, new, 1)
    (folder / "game.yaml").write_text(game)
    return folder


def test_each_game_records_who_held_the_initiative(holder_pack: Path) -> None:
    game = load_pack(holder_pack, {"turns": 1}).game
    records = [play_game(game, seed) for seed in range(30)]
    assert {r.initiative for r in records} == {"red", "blue"}
    for record in records:  # one round: passed once, at its end
        assert record.initiative_end == {"red": "blue", "blue": "red"}[record.initiative]


def test_the_holder_advantage_is_measured(holder_pack: Path) -> None:
    result = simulate(holder_pack, {"turns": 1}, games=400, seed=2)
    start = result.initiative()["start"]  # type: ignore[index]
    assert start["games"] == 400 and start["none"] == 0
    assert start["holders"]["red"] + start["holders"]["blue"] == 400
    assert 0.55 < start["win_rate"] < 0.75  # ties (1 in 3) go to the holder
    assert start["ci95"][0] < start["win_rate"] < start["ci95"][1]
    for role in ("red", "blue"):
        held, other = start["by_role"][role]["held"], start["by_role"][role]["not_held"]
        assert held["games"] == start["holders"][role]
        assert held["games"] + other["games"] == 400
        assert held["wins"] + other["wins"] == result.wins[role]
        assert held["win_rate"] > other["win_rate"]
    assert start["wins"] == sum(start["by_role"][r]["held"]["wins"] for r in ("red", "blue"))
    end = result.initiative()["end"]  # type: ignore[index]
    assert end["holders"] == {"red": start["holders"]["blue"], "blue": start["holders"]["red"]}


def test_workers_give_the_same_initiative_figures(holder_pack: Path) -> None:
    one = simulate(holder_pack, games=60, seed=4)
    two = simulate(holder_pack, games=60, seed=4, workers=2)
    assert one.outcome()["initiative"] == two.outcome()["initiative"] is not None


def test_the_text_report(run: Run, holder_pack: Path) -> None:
    code, out, err = run("simulate", holder_pack, "-n", "200", "-p", "turns=1", "--seed", "2")
    assert code == 0, err
    lines = out.splitlines()
    start = lines.index(next(line for line in lines if line.startswith("initiative: who won")))
    assert lines[start].split() == ["initiative:", "who", "won", "games", "won", "95%", "CI"]
    assert lines[start + 1].startswith("at the start ") and " 200 " in lines[start + 1]
    assert lines[start + 2].startswith("when the game ended ")
    labels = [line.split("  ")[0] for line in lines[start + 4:start + 12]]
    assert labels == ["red, held it at the start", "red, did not",
                      "red, held it when the game ended", "red, did not",
                      "blue, held it at the start", "blue, did not",
                      "blue, held it when the game ended", "blue, did not"]
    assert "always" not in out[out.index("initiative: who won"):]


def test_an_initiative_always_with_one_role_says_so(run: Run, make_pack: Callable[..., Path]
                                                    ) -> None:
    folder = make_pack("fixed", replace={"game.yaml": ("flow:\n", "flow:\n  initiative: red\n")})
    code, out, _ = run("simulate", folder, "-n", "20")
    assert code == 0
    assert "at the start, the initiative was always red's: its advantage there cannot be told " \
        "apart from the role's" in out


def test_json_csv_and_sweeps(run: Run, holder_pack: Path, duel_pack: Path) -> None:
    code, out, _ = run("simulate", holder_pack, "-n", "40", "--json")
    data = json.loads(out)["initiative"]
    assert code == 0 and data["start"]["games"] == data["end"]["games"] == 40
    assert set(data["start"]["by_role"]["red"]) == {"held", "not_held"}
    code, out, _ = run("simulate", duel_pack, "-n", "10", "--json")
    assert json.loads(out)["initiative"] is None
    code, out, _ = run("simulate", holder_pack, "-n", "40", "--csv")
    row = next(csv.DictReader(io.StringIO(out)))
    assert row["initiative start games"] == "40"
    assert int(row["red held initiative start games"]) + \
        int(row["red without initiative start games"]) == 40
    assert float(row["initiative start ci low"]) <= float(row["initiative start rate"])
    code, out, _ = run("simulate", holder_pack, "-n", "30", "--sweep", "turns=1,3")
    head = next(line for line in out.splitlines() if line.startswith("turns"))
    assert code == 0 and "initiative won" in head
    code, out, _ = run("simulate", duel_pack, "-n", "10", "--csv")
    assert code == 0 and "initiative" not in out


@pytest.mark.parametrize(("code", "message"), [
    ("points[red]", "expected a role"),
    ("startr", "unknown name 'startr'"),
])
def test_a_bad_initiative_is_an_error_at_its_place(holder_pack: Path, code: str,
                                                   message: str) -> None:
    game = holder_pack / "game.yaml"
    game.write_text(game.read_text().replace("initiative: starter", f"initiative: {code}"))
    with pytest.raises(PackErrors) as info:
        load_pack(holder_pack)
    (error,) = info.value.errors
    assert message in error.message
    assert error.location is not None and error.location.file.endswith("game.yaml")
    line = game.read_text().splitlines()[error.location.line - 1]
    assert line.strip() == f"initiative: {code}"
