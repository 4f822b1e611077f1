"""User text of any length is cut in messages: a name, a value or a path reads in one line."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers_cli import Run, runner
from helpers_lang import content, write_pack

from rulekit.limits import MAX_CODE_CHARS

LONG = "x" * 100_000


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    return runner(capsys)


@pytest.mark.parametrize("argv", [
    ["simulate", "carchase", "-n", "1", "--agents", f"{LONG}=random"],
    ["simulate", "carchase", "-n", "1", "--agents", f"law=nosuch.{LONG}:Agent"],
    ["validate", f"/tmp/{LONG}"],
])
def test_a_long_argument_is_cut_in_the_message(run: Run, argv: list[str]) -> None:
    code, _, err = run(*argv)
    assert code == 1
    assert "x" * 100 + "…(99," in err and " more)…" + "x" * 39 in err
    assert len(err) < 1000


def test_a_long_name_in_a_pack_is_cut_and_its_line_too(run: Run, tmp_path: Path) -> None:
    name = LONG[:MAX_CODE_CHARS - 100]  # as long as a piece of code may be
    folder = write_pack(tmp_path / "pack", content(setup=f"shuffle {name}"))
    code, _, err = run("validate", folder)
    assert code == 1
    assert f"unknown zone '{'x' * 100}" in err and " more)…" in err
    line, caret = err.splitlines()[1:3]
    assert line.strip().startswith("shuffle xxx") and line.endswith("…") and len(line) < 200
    assert caret == " " * line.index("x") + "^"
    assert len(err) < 2000
