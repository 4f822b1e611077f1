"""`rulekit validate` checks a pack's ``display:`` section: every unknown name is reported at
its place, with a did-you-mean."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulekit.pack.loader import load_pack
from tests.helpers_cli import Run, runner


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    return runner(capsys)


def copy_of(pack: str, tmp_path: Path) -> Path:
    folder = tmp_path / pack
    shutil.copytree(load_pack(pack).folder, folder)
    return folder


def invalid_display(run: Run, tmp_path: Path, pack: str,
                    edits: list[tuple[str, str]]) -> tuple[list[str], str]:
    """Validate a copy of ``pack`` whose display.yaml has each ``old`` text (found once) made
    ``new``; it must fail. The lines of the edited file and what validate printed."""
    folder = copy_of(pack, tmp_path)
    display = folder / "display.yaml"
    text = display.read_text(encoding="utf-8")
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    display.write_text(text, encoding="utf-8")
    code, _, err = run("validate", str(folder))
    assert code == 1
    return text.splitlines(), err


def test_unknown_names_in_display_are_located_with_a_hint(run: Run, tmp_path: Path) -> None:
    lines, err = invalid_display(run, tmp_path, "rednotice", [
        ("hidden: [box,", "hidden: [boxx,"),
        ("{var: security, name: Security", "{var: securty, name: Security"),
        ("of: goal}", "of: gaol}"),
        ("{row: actions}", "{row: action}"),
        ("{left} ×{left_icons}\", side", "{lefft} ×{left_icons}\", side"),
        ("zone: card_at", "zone: cashed"),
        ("options: actions", "options: acts")])

    def at(snippet: str, message: str, hint: str, where: str | None = None) -> None:
        line = next(i for i, line in enumerate(lines, 1) if (where or snippet) in line)
        column = lines[line - 1].index(snippet) + 1
        assert f"display.yaml:{line}:{column}: {message}" in err, err
        assert f"hint: {hint}" in err

    at("boxx", "unknown zone or variable 'boxx'", "did you mean 'box'?")
    at("securty", "unknown variable 'securty'", "did you mean 'security'?")
    at("gaol", "unknown parameter 'gaol'", "did you mean 'goal'?")
    at("action}", "unknown row table 'action'", "did you mean 'actions'?")
    at("cashed", "zone 'cashed' is not a zone per number",
       "a row table reads the piles of a zone per number", where="zone: cashed")
    at("acts", "unknown row table 'acts'", "did you mean 'actions'?")
    assert "unknown card property 'lefft'" in err and "did you mean 'left'?" in err


def test_an_unknown_card_property_far_from_any_is_hinted_with_the_known_ones(
        run: Run, tmp_path: Path) -> None:
    _, err = invalid_display(run, tmp_path, "carchase", [("sort: score", "sort: zzz")])
    assert "unknown card property 'zzz'" in err
    assert "hint: cards have: " in err


def test_a_misspelt_key_of_display_is_a_schema_error(run: Run, tmp_path: Path) -> None:
    folder = copy_of("carchase", tmp_path)
    display = folder / "display.yaml"
    text = display.read_text(encoding="utf-8").replace("status: true", "stauts: true")
    display.write_text(text, encoding="utf-8")
    code, _, err = run("validate", str(folder))
    assert code == 1 and "stauts" in err and "display.yaml:" in err


def test_a_context_names_a_procedure_and_its_parameters(run: Run, tmp_path: Path) -> None:
    lines, err = invalid_display(run, tmp_path, "rednotice", [
        ('resolve: "Card {k}"', 'resolv: "Card {k}"'),
        ('perform: "{kind} {icons}"', 'perform: "{kinds} {icons}"'),
        ('escape: "escaping as {tile}"', 'escape: "escaping as {tile.txt}"'),
        ('"step {step} of {icons+move_bonus}"', '"step {step} of {icons+angela_at}"')])
    line = next(i for i, text in enumerate(lines, 1) if "resolv:" in text)
    assert f"display.yaml:{line}:5: unknown procedure 'resolv'" in err, err
    assert "did you mean 'resolve'?" in err
    assert "'kinds' is not a parameter of 'perform'" in err and "did you mean 'kind'?" in err
    assert "'tile.txt': only a card parameter has properties" in err
    assert "did you mean 'text'?" in err
    # a public variable may be named, and added (move_bonus was): not a secret one
    assert "'angela_at' is not a parameter of 'movement_action'" in err
    assert "move_bonus" not in err
