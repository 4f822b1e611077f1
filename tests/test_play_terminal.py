"""``rulekit play`` on a real pseudo-terminal of 80x24 (and 60 columns), as a person plays it:
a few decisions of each pack and role, read off the screen. Menu keys are the lines 1..n
(anytime actions letters), a long label wraps under itself, no line is wider than the
terminal, and with ``NO_COLOR`` no escape code reaches the screen."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

ROOT = Path(__file__).resolve().parent.parent
ENTRY = re.compile(r"^ +(\d+|[a-z])  \S")
CONTINUED = re.compile(r"^ {5,}\S")  # a long label wrapped under itself
HINT = re.compile(r"^(Type a number|Type numbers|Press Enter)")
ROLES = [("carchase", "law", "The Law"), ("carchase", "fugitive", "The Fugitive"),
         ("rednotice", "angela", "Angela"), ("rednotice", "jessah", "Jessah")]


def menu_keys(screen: str) -> list[str]:
    """The keys of the last menu on ``screen``: the entry lines just above its hint line."""
    lines = screen.replace("\r", "").split("\n")
    hint = max(i for i, line in enumerate(lines) if HINT.match(line))
    keys: list[str] = []
    for line in reversed(lines[:hint]):
        found = ENTRY.match(line)
        if found:
            keys.insert(0, found.group(1))
        elif not CONTINUED.match(line):
            break
    return keys


@pytest.mark.parametrize("columns", [80, 60])
@pytest.mark.parametrize("pack, role, name", ROLES)
def test_a_few_moves_at_80_and_60_columns(pack: str, role: str, name: str, columns: int,
                                          tmp_path: Path) -> None:
    env = {**os.environ, "NO_COLOR": "1", "TERM": "xterm-256color",
           "PYTHONPATH": str(ROOT), "COLUMNS": str(columns), "LINES": "24"}
    other = next(r for p, r, _ in ROLES if p == pack and r != role)
    child = pexpect.spawn(sys.executable, ["-m", "rulekit", "play", pack, "--seat",
                                           f"{role}=human,{other}=random", "--seed", "2",
                                           "--fast"],
                          cwd=str(tmp_path), env=env, dimensions=(24, columns),
                          encoding="utf-8", timeout=60)
    try:
        answered = 0
        seen = ""
        actions: list[str] = []
        leave = "Press Enter to leave"
        while answered < 6:
            if child.expect([re.escape(f"{name}> "), leave]) == 1:
                seen += child.before
                child.sendline("")
                break  # the game is over already
            screen = child.before
            seen += screen
            keys = menu_keys(screen)
            numbers = [k for k in keys if k.isdigit()]
            letters = [k for k in keys if not k.isdigit()]
            assert numbers == [str(i) for i in range(1, len(numbers) + 1)], screen
            assert letters == [chr(ord("a") + i) for i in range(len(letters))], screen
            assert keys == numbers + letters, screen
            actions += letters
            child.sendline("1" if numbers else "")
            answered += 1
        found = child.expect([re.escape(f"{name}> "), leave, pexpect.EOF])
        if found == 1:
            child.sendline("")
        if found == 0:
            child.sendline("quit")
            child.expect(pexpect.EOF)
            assert "Goodbye." in child.before
        seen += child.before
    finally:
        child.close(force=True)
    assert answered >= 3
    if role == "angela":  # her anytime action, a letter (wrapped at 60 columns)
        assert "a" in actions
    assert "\x1b" not in seen
    assert all(len(line) <= columns for line in seen.replace("\r", "").split("\n"))
