"""What the tests of ``rulekit play`` share: typed input and the ``play`` fixture that runs the
command line with it."""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from rulekit.cli import main
from rulekit.engine.decisions import NONE_ID
from rulekit.play.prompt import Menu

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


def key_of(menu: Menu, option_id: str) -> str:
    """The text a person types at ``menu`` for an option, or a subset's option id."""
    if menu.subset and not option_id.startswith("!"):
        if option_id == NONE_ID:
            return NONE_ID
        indexes = [menu.item_ids.index(part) for part in option_id.split("+")]
        return " ".join(next(e.key for e in menu.entries if e.index == index)
                        for index in indexes)
    lines = [(e.key, e.option.id, e.label) for e in menu.entries if e.option is not None]
    key = next((key for key, line_id, _ in lines if line_id == option_id), None)
    if key is None:  # one of equal options, shown once
        at = menu.item_ids.index(option_id) if option_id in menu.item_ids else None
        label = menu.item_labels[at] if at is not None else next(
            (o.label for o in menu.decision.options() if o.id == option_id), None)
        key = next((key for key, _, line_label in lines if line_label == label), None)
    if key is None:
        raise KeyError(option_id)
    return key


ENTRY = re.compile(r"^ +(\d+[a-z]?|[a-z])  \S")  # a line's key: 3, 2l; an action's: a
CONTINUED = re.compile(r"^ {5,}\S")  # a long label wrapped under itself
HINT = re.compile(r"^(Type a number|Type numbers|Press Enter)")


def menu_keys(screen: str) -> list[str]:
    """The keys of the last menu on ``screen``: the entry lines just above its hint line."""
    lines = screen.replace("\r", "").split("\n")
    hints = [i for i, line in enumerate(lines) if HINT.match(line)]
    if not hints:  # the question asked again after a refusal: no menu on this screen
        return []
    hint = hints[-1]
    keys: list[str] = []
    for line in reversed(lines[:hint]):
        found = ENTRY.match(line)
        if found:
            keys.insert(0, found.group(1))
        elif not CONTINUED.match(line) and not line.startswith("  ... and "):
            break
    return keys


def first_key(screen: str) -> str:
    """What a person types to take the first line of the last menu on ``screen`` (a number;
    Enter where there is none)."""
    numbers = [key for key in menu_keys(screen) if key[:1].isdigit()]
    return numbers[0] if numbers else ""
