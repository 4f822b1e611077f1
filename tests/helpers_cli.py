"""Run the command line in-process and capture what it prints (for the authoring tests)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from rulekit.cli import main

Run = Callable[..., tuple[int, str, str]]


def runner(capsys: pytest.CaptureFixture[str]) -> Run:
    """``run(*argv)``: the exit code, stdout and stderr of ``main(argv)``."""

    def run(*argv: str | Path) -> tuple[int, str, str]:
        code = main([str(a) for a in argv])
        out, err = capsys.readouterr()
        assert "Traceback" not in out + err
        return code, out, err

    return run
