"""What the tests of ``rulekit play`` share: typed input and the ``play`` fixture that runs the
command line with it."""

from __future__ import annotations

import io
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from rulekit.cli import main

Play = Callable[..., tuple[int, str, str]]


class Keyboard(io.StringIO):
    """Typed lines; a line :data:`CTRL_C` raises KeyboardInterrupt instead."""

    CTRL_C = "<ctrl-c>"

    def __init__(self, lines: list[str]) -> None:
        super().__init__()
        self.lines = list(lines)

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        if not self.lines:
            return ""
        line = self.lines.pop(0)
        if line == self.CTRL_C:
            raise KeyboardInterrupt
        return line + "\n"


@pytest.fixture
def play(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
         tmp_path: Path) -> Callable[..., tuple[int, str, str]]:
    """``play(lines, *argv)``: run ``rulekit *argv`` (in a fresh working folder) with ``lines``
    as the typed input; the exit code, stdout and stderr."""
    monkeypatch.chdir(tmp_path)

    def run(lines: list[str], *argv: str | Path) -> tuple[int, str, str]:
        monkeypatch.setattr(sys, "stdin", Keyboard(lines))
        code = main([str(a) for a in argv])
        out, err = capsys.readouterr()
        assert "Traceback" not in out + err
        return code, out, err

    return run
