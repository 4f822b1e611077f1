"""End conditions end a game on whatever they read (round, phase, parameters), and the lint
says what each one really does, from the state after setup."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.helpers_cli import Run, runner
from tests.helpers_lang import MANIFEST, content, write_pack

HIDEOUT = Path(__file__).resolve().parent.parent / "docs" / "examples" / "hideout"


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    return runner(capsys)


def test_a_variant_that_ends_at_round_3_ends_there(run: Run, tmp_path: Path) -> None:
    folder = tmp_path / "short"
    folder.mkdir()
    (folder / "pack.yaml").write_text('id: short\nname: Short\nversion: "1"\n'
                                      "extends: carchase\ninclude: [end.yaml]\n")
    (folder / "end.yaml").write_text(
        'flow:\n  end_when: [{when: "round >= 3", winner: fugitive, reason: Three turns}]\n')
    code, out, _ = run("simulate", folder, "-n", "40", "--json")
    result = json.loads(out)
    assert code == 0 and result["length"]["max"] == 3
    assert "Three turns" in [end["reason"] for end in result["ends"]]


@pytest.mark.parametrize("agents", ["a=random", "a=heuristic"])  # played whole, or by steps
def test_a_condition_on_the_phase_ends_the_game_as_the_phase_starts(run: Run, tmp_path: Path,
                                                                     agents: str) -> None:
    text = content(phases={"one": "score += 1", "two": "let x = choose a one of [1, 2]"},
                   rounds="turns",
                   end_when=[('round == 2 and phase == \\"two\\"', "b", "Late")])
    folder = write_pack(tmp_path / "pack", text)
    _, out, _ = run("simulate", folder, "-n", "3", "-p", "turns=5", "--json", "--agents", agents)
    result = json.loads(out)
    assert ends(result) == [("Late", "b", 3)] and result["length"]["max"] == 2


def ends(result: dict[str, list[dict[str, object]]]) -> list[tuple[object, ...]]:
    return [(end["reason"], end["winner"], end["games"]) for end in result["ends"]]


def lint(run: Run, folder: Path) -> str:
    """The end conditions' warnings of ``rulekit validate``."""
    code, _, err = run("validate", folder)
    assert code == 0, err
    return "\n".join(line for line in err.splitlines() if "end condition" in line)


@pytest.mark.parametrize("when", ["true", "turns < 20"])
def test_a_condition_that_always_holds_ends_every_game_after_setup(run: Run, tmp_path: Path,
                                                                   when: str) -> None:
    folder = write_pack(tmp_path / "pack", content(end_when=[(when, "a", "Always")]))
    assert ("content.yaml:24:8: warning: this end condition holds right after setup, so games "
            "end before their first round, with a winning") in lint(run, folder)
    _, out, _ = run("simulate", folder, "-n", "2", "--json")
    result = json.loads(out)
    assert ends(result) == [("Always", "a", 2)] and result["length"]["max"] == 0


@pytest.mark.parametrize("when", ["false", "turns > 20"])
def test_a_condition_that_never_holds_is_said_to_end_no_game(run: Run, tmp_path: Path,
                                                             when: str) -> None:
    folder = write_pack(tmp_path / "pack", content(end_when=[(when, "a", "Never")]))
    err = lint(run, folder)
    assert err.endswith("content.yaml:24:8: warning: this end condition can never hold: it reads "
                        "only parameters and constants, so it never ends a game")


def test_a_condition_that_setup_makes_true_is_reported(run: Run, tmp_path: Path) -> None:
    folder = tmp_path / "hideout"
    shutil.copytree(HIDEOUT, folder)
    flow = folder / "flow.yaml"
    flow.write_text(flow.read_text().replace("setup: |\n  shuffle deck\n",
                                             "setup: |\n  shuffle deck\n  heat = 3\n"))
    assert lint(run, folder).endswith(
        "flow.yaml:70:7: warning: this end condition holds right after setup, so games end "
        "before their first round, with law winning")


def test_a_condition_that_holds_only_later_is_not_reported(run: Run, tmp_path: Path) -> None:
    folder = write_pack(tmp_path / "pack", content(
        phases={"main": "score += 1"}, rounds="3",
        end_when=[("score >= 4", "a", "Four"), ("round >= 3", "b", "Late")]))
    assert lint(run, folder) == ""


def test_a_condition_on_the_phase_sees_the_phase_that_starts(run: Run, tmp_path: Path) -> None:
    """Round 2 starts with phase one: the condition waits for phase two."""
    text = content(phases={"one": "score += 1", "two": "let x = choose a one of [1, 2]"},
                   rounds="5", end_when=[('round == 2 and phase == \\"two\\"', "b", "Late")])
    folder = write_pack(tmp_path / "pack", text, MANIFEST + "scenarios: [s.yaml]\n")
    (folder / "s.yaml").write_text(
        "scenarios:\n  - name: Late\n    play: [{a: '1'}]\n"
        "    expect: [\"winner == b and round == 2 and score == 4\"]\n")
    code, out, err = run("test", folder)
    assert code == 0 and "ok   Late" in out, out + err
