"""A pack's scenarios cannot make ``rulekit validate`` or ``rulekit test`` work for long: what
they hold in all is bounded, each bound refused at the item past it, and their checks share
one step budget. (``benchmarks/bench_hostile_scenarios.py`` measures the worst cases.)"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulekit.limits import (
    MAX_EXPECT_CHARS,
    MAX_SCENARIO_BYTES,
    MAX_SCENARIO_EXPECTS,
    MAX_SCENARIO_FILES,
    MAX_SCENARIO_PARAMS,
    MAX_SCENARIO_STEPS,
    MAX_SCENARIOS,
)
from tests.helpers_cli import Run, runner

HIDEOUT = Path(__file__).resolve().parent.parent / "docs" / "examples" / "hideout"
ONE = "  - name: {i}\n    start: {{round: 1, phase: stash}}\n"


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    return runner(capsys)


def pack_with(tmp_path: Path, *texts: str) -> Path:
    """A copy of the tutorial's pack whose scenario files are ``texts``."""
    folder = tmp_path / "hideout"
    shutil.copytree(HIDEOUT, folder)
    shutil.rmtree(folder / "scenarios")
    (folder / "scenarios").mkdir()
    for i, text in enumerate(texts):
        (folder / "scenarios" / f"s{i:03}.yaml").write_text(text, encoding="utf-8")
    return folder


def refused(run: Run, folder: Path, line: int, column: int, quoted: str | None) -> str:
    """The one error both ``validate`` and ``test`` give, at ``line``:``column`` of the last
    scenario file, quoting ``quoted`` (if given); its message."""
    last = sorted((folder / "scenarios").iterdir())[-1]
    for command in ("validate", "test"):
        code, out, err = run(command, folder)
        assert code == 1, out + err
        text = out + err
        assert f"{last.name}:{line}:{column}: " in text, text
        if quoted is not None:
            assert quoted.strip() in [shown.strip() for shown in text.splitlines()], text
    return text


def test_a_pack_with_too_many_scenarios_is_refused_at_the_first_past_the_limit(
        run: Run, tmp_path: Path) -> None:
    text = "scenarios:\n" + "".join(ONE.format(i=f"s{i}") for i in range(MAX_SCENARIOS + 1))
    shown = refused(run, pack_with(tmp_path, text), 2 + 2 * MAX_SCENARIOS, 5,
                    f"  - name: s{MAX_SCENARIOS}")
    assert f"the pack has more than {MAX_SCENARIOS:,} scenarios" in shown
    assert "hint: let one scenario check all that one situation shows" in shown


def test_play_steps_in_all_are_bounded(run: Run, tmp_path: Path) -> None:
    half = MAX_SCENARIO_STEPS // 2 + 1  # two scenarios of that many steps pass the limit
    body = "    play:\n" + "      - {fugitive: vanish}\n" * half
    text = "scenarios:\n" + ONE.format(i="a") + body + ONE.format(i="b") + body
    line = 1 + (2 + 1 + half) + 2 + 1 + (MAX_SCENARIO_STEPS - half) + 1
    shown = refused(run, pack_with(tmp_path, text), line, 9, "      - {fugitive: vanish}")
    assert f"more than {MAX_SCENARIO_STEPS:,} play steps in all" in shown
    assert "start nearer what a scenario tests" in shown


@pytest.mark.parametrize(("expect", "limit", "what"), [
    ("round >= 1", MAX_SCENARIO_EXPECTS, f"more than {MAX_SCENARIO_EXPECTS:,} expect lines"),
    ("round == 1 and " * 9 + "true", None,
     f"more than {MAX_EXPECT_CHARS:,} characters of expect lines"),
])
def test_expect_lines_in_all_are_bounded(run: Run, tmp_path: Path, expect: str,
                                         limit: int | None, what: str) -> None:
    past = limit if limit is not None else MAX_EXPECT_CHARS // len(expect)
    text = "scenarios:\n" + ONE.format(i="a") + "    expect:\n" + f"      - {expect}\n" * (
        past + 1)
    shown = refused(run, pack_with(tmp_path, text), 5 + past, 9, f"      - {expect}")
    assert what in shown


def test_sets_of_params_are_bounded(run: Run, tmp_path: Path) -> None:
    text = "scenarios:\n" + "".join(
        f"  - {{name: s{i}, params: {{turns: {i % 20 + 1}, hand_size: {i // 20 + 1}}}}}\n"
        for i in range(MAX_SCENARIO_PARAMS + 1))
    shown = refused(run, pack_with(tmp_path, text), MAX_SCENARIO_PARAMS + 2, 25, None)
    assert f"more than {MAX_SCENARIO_PARAMS} different sets of params" in shown
    assert "each set compiles the pack again" in shown


def test_scenario_files_are_bounded_in_number_and_in_size(run: Run, tmp_path: Path) -> None:
    small = "scenarios:\n" + ONE.format(i="s")
    shown = refused(run, pack_with(tmp_path, *[small] * (MAX_SCENARIO_FILES + 1)), 1, 1, None)
    assert f"the pack has more than {MAX_SCENARIO_FILES:,} scenario files" in shown
    big = "# " + "x" * (MAX_SCENARIO_BYTES // 2) + "\n" + small
    shown = refused(run, pack_with(tmp_path / "big", big, big), 1, 1, None)
    assert f"come to more than {MAX_SCENARIO_BYTES:,} bytes with this one" in shown


def test_the_checks_of_a_run_share_one_step_budget(run: Run, tmp_path: Path) -> None:
    # Each line walks about 200,000 items: the sixth goes past the budget of 1,000,000.
    heavy = "      - sum(range(1, 99999)) > 0\n"
    text = "scenarios:\n" + ONE.format(i="a") + "    expect:\n" + heavy * 5 + \
        ONE.format(i="b") + "    expect:\n" + heavy * 5
    folder = pack_with(tmp_path, text)
    code, out, _ = run("test", folder)
    assert code == 1
    assert out.splitlines()[:2] == [
        "ok   a",
        "FAIL b",
    ]
    assert out.splitlines()[2].strip() == (
        f"{folder / 'scenarios' / 's000.yaml'}:13:9: the checks of the scenarios ran past their"
        " budget of 1,000,000 steps in all (expect lines, and each log line log_for looks in);"
        " check less in each")


def test_a_log_line_with_many_stars_is_matched_without_backtracking(
        run: Run, tmp_path: Path) -> None:
    stars = "*e" * 30 + "*Z"  # a regular expression would try every way to place the stars
    stash = ("    zones:\n      hand[fugitive]: [vanish, back_door#1]\n"
             "    play:\n      - fugitive: vanish\n    log_for:\n      law: ")
    text = "scenarios:\n" + ONE.format(i="a") + stash + "['T*s*a*.']\n" + \
        ONE.format(i="b") + stash + f"['The Fugitive stashes a *', '{stars}']\n"
    code, out, _ = run("test", pack_with(tmp_path, text))
    assert code == 1
    assert out.splitlines()[0] == "ok   a"
    assert out.splitlines()[2].endswith(
        f"law's log has no line '{stars}' after the line 'The Fugitive stashes a card.'; its "
        "last lines: The Fugitive stashes a card.")
