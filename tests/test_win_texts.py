"""A win's text is written as a log text is: ``{...}`` fields show values by their names."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers_cli import Run, runner
from tests.helpers_lang import content, write_pack


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    return runner(capsys)


def test_a_win_text_shows_its_fields(run: Run, tmp_path: Path) -> None:
    text = content(phases={"main": 'win b "{b} wins with {score + 1} points and {@c3} {{!}}"'})
    folder = write_pack(tmp_path / "pack", text)
    code, out, _ = run("simulate", folder, "-n", "2")
    [line] = [line for line in out.splitlines() if line.startswith("Bob wins with")]
    assert code == 0 and " ".join(line.split()) == "Bob wins with 3 points and Three {!} 2 100.0% b"


def test_a_win_text_that_prints_a_secret_is_a_warning(run: Run, tmp_path: Path) -> None:
    text = content(phases={"main": 'draw 1 from deck to hand[a]\nwin b "{hand[a]}"'})
    code, _, err = run("validate", write_pack(tmp_path / "pack", text))
    assert code == 0 and "warning: this log line is public, and it prints 'hand'" in err
