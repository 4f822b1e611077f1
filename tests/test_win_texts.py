"""A win's text is written as a log text is: ``{...}`` fields show values by their names."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers_cli import Run, runner
from tests.helpers_lang import content, load_errors, locate, write_pack
from tests.helpers_lang import run as run_pack


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


def test_a_prompt_shows_its_fields(tmp_path: Path) -> None:
    code = 'let c = choose a one of [1, 2] prompt "Pick one, {a}, with {score} in {{hand}}"'
    game, state = run_pack(tmp_path, content(phases={"main": code}))
    [decision] = game.pending(state)
    assert decision.prompt == "Pick one, Alice, with 2 in {hand}"


def test_a_prompt_that_tells_a_secret_is_a_located_error(tmp_path: Path) -> None:
    code = 'draw 1 from deck to hand[a]\nlet c = choose b one of [1, 2] prompt "{hand[a]}?"'
    text = content(phases={"main": code})
    [error] = load_errors(tmp_path, text)
    assert (error.location.line, error.location.column) == locate(text, "hand[a]}")
    assert error.message == "a prompt is told to the chooser, who may not see this"
