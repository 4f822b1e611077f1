"""Every command of the tutorial runs, from a copy of the repository's examples, and prints what
the tutorial shows.

The tutorial's commands are the ``$ `` lines of its fenced ``sh`` blocks; the lines after one,
up to the next, are its output. In the shown output a line ``...`` stands for any number of
lines, and the ``time:`` line of ``rulekit simulate`` (a speed, which depends on the machine) is
compared up to its first word only. ``rulekit play`` is played with scripted answers. The
section on errors shows what a pack with deliberate mistakes prints (``text`` blocks): those
mistakes are made in a copy of the pack, and the output is compared the same way.
"""

from __future__ import annotations

import io
import re
import shlex
import shutil
from pathlib import Path

import pytest
from helpers_cli import runner

from rulekit.play.screen import Screen

ROOT = Path(__file__).resolve().parent.parent
TUTORIAL = ROOT / "docs" / "tutorial.md"
HIDEOUT = Path("docs") / "examples" / "hideout"
ANY = "..."


def _blocks(info: str) -> list[str]:
    text = TUTORIAL.read_text(encoding="utf-8")
    return re.findall(rf"^```{info}\n(.*?)^```$", text, re.S | re.M)


def _commands(block: str) -> list[tuple[str, list[str]]]:
    """(command, shown output lines) of each ``$ `` line of a block."""
    found: list[tuple[str, list[str]]] = []
    for line in block.splitlines():
        if line.startswith("$ "):
            found.append((line[2:].strip(), []))
        elif found:
            found[-1][1].append(line.rstrip())
    while found and found[-1][1] and not found[-1][1][-1]:
        found[-1][1].pop()
    return found


TUTORIAL_COMMANDS = [command for block in _blocks("sh") for command in _commands(block)]


def _matches(shown: list[str], printed: list[str]) -> bool:
    """Whether the printed lines are the shown ones (``...``: any lines; ``time:`` lines)."""
    if not shown:
        return not printed
    head, rest = shown[0], shown[1:]
    if head == ANY:
        return any(_matches(rest, printed[i:]) for i in range(len(printed) + 1))
    if not printed:
        return False
    line = printed[0]
    same = line.split(":")[0] == "time" if head.startswith("time:") else line == head
    return same and _matches(rest, printed[1:])


def _run(command: str, capsys: pytest.CaptureFixture[str],
         monkeypatch: pytest.MonkeyPatch, cwd: Path) -> tuple[int, str]:
    """Run one shell-like command line in-process from ``cwd``: its exit code and output."""
    words = shlex.split(command)
    while "=" in words[0]:
        name, _, value = words.pop(0).partition("=")
        assert name == "PYTHONPATH", f"unexpected variable in {command!r}"
        for folder in reversed(value.split(":")):
            monkeypatch.syspath_prepend(str(cwd / folder))
    assert words[0] == "rulekit", command
    monkeypatch.chdir(cwd)
    if words[1] == "play":  # a person at the terminal: scripted answers, no pauses
        monkeypatch.setattr("sys.stdin", io.StringIO("1\nnone\n" * 400))
        monkeypatch.setattr(Screen, "pause", lambda self, seconds: None)
    code, out, err = runner(capsys)(*words[1:])
    return code, out + err


def test_the_tutorial_has_its_commands() -> None:
    commands = [command for command, _ in TUTORIAL_COMMANDS]
    assert any(c.startswith("rulekit validate docs/examples/hideout") for c in commands)
    for verb in ("test", "simulate", "play", "docs"):
        assert any(c.startswith(f"rulekit {verb} ") for c in commands), verb
    assert sum("--agents" in c for c in commands) == 1


@pytest.mark.parametrize("command, shown", TUTORIAL_COMMANDS,
                         ids=[c for c, _ in TUTORIAL_COMMANDS])
def test_tutorial_command(command: str, shown: list[str], capsys: pytest.CaptureFixture[str],
                          monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # Each command runs in a folder of its own: a game's save file, written in the folder it
    # is played from, never shows in another test's check.
    shutil.copytree(ROOT / "docs" / "examples", tmp_path / "docs" / "examples",
                    ignore=shutil.ignore_patterns("__pycache__"))
    code, printed = _run(command, capsys, monkeypatch, tmp_path)
    assert code == 0, printed
    if " play " in f" {command} ":
        assert "Game over:" in printed
    else:
        assert _matches(shown, printed.splitlines()), (
            "the tutorial shows:\n" + "\n".join(shown) + "\n\nrulekit prints:\n" + printed)
    assert list(tmp_path.iterdir()) == [tmp_path / "docs"]  # nothing left behind


# The mistakes of the tutorial's section on errors, as (file, right text, wrong text).
MISTAKES = {
    "validate": [("flow.yaml", "move all from played[law] to discard",
                  "move all from played[law] to dicard"),
                 ("flow.yaml", "heat += 1", 'heat += "1"')],
    "failing expectation": [("scenarios/hideout.yaml", '"count(deck) == 22 - 1 - 2 * hand_size"',
                             '"count(deck) == 24 - 1 - 2 * hand_size"')],
    "illegal answer": [("scenarios/search.yaml", "law: [docks, patrol#1]",
                        "law: [alley, docks]")],
}


def _broken_copy(tmp_path: Path, mistakes: list[tuple[str, str, str]]) -> Path:
    copy = tmp_path / HIDEOUT
    shutil.copytree(ROOT / HIDEOUT, copy)
    for name, right, wrong in mistakes:
        path = copy / name
        text = path.read_text(encoding="utf-8")
        assert text.count(right) == 1, (name, right)
        path.write_text(text.replace(right, wrong), encoding="utf-8")
    return tmp_path


def _error_blocks() -> list[str]:
    return [block for block in _blocks("text") if "docs/examples/hideout" in block]


def test_the_error_section_shows_the_mistakes_it_makes() -> None:
    text = TUTORIAL.read_text(encoding="utf-8")
    for mistakes in MISTAKES.values():
        for _, _, wrong in mistakes:
            shown = wrong.split(": ", 1)[-1].strip('"') if wrong.startswith('"') else wrong
            assert shown in text, wrong
    assert len(_error_blocks()) == 3


@pytest.mark.parametrize("case, index", [("validate", 0), ("failing expectation", 1),
                                         ("illegal answer", 2)])
def test_tutorial_error_output(case: str, index: int, tmp_path: Path,
                               capsys: pytest.CaptureFixture[str],
                               monkeypatch: pytest.MonkeyPatch) -> None:
    block = _error_blocks()[index]
    where = _broken_copy(tmp_path, MISTAKES[case])
    commands = _commands(block)
    if commands:
        [(command, shown)] = commands
    else:  # an excerpt of what `rulekit test` prints
        command, shown = f"rulekit test {HIDEOUT}", [ANY, *block.rstrip().splitlines(), ANY]
    code, printed = _run(command, capsys, monkeypatch, where)
    assert code == 1
    assert _matches(shown, printed.splitlines()), (
        "the tutorial shows:\n" + "\n".join(shown) + "\n\nrulekit prints:\n" + printed)
