"""The files the tutorial shows are the example packs' own: every line of its YAML blocks (but
those of the section on deliberate mistakes, and ``...`` for what it leaves out) is a line of
``docs/examples/hideout`` (or, from the section on variants, ``hideout-long``), comments aside."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TUTORIAL = ROOT / "docs" / "tutorial.md"
EXAMPLES = ROOT / "docs" / "examples"


def _code(line: str) -> str:
    """A YAML line without its comment (a '#' after a space, outside quotes enough here)."""
    return re.sub(r"\s+#\s.*$", "", line).rstrip()


def _lines(folder: Path) -> set[str]:
    return {_code(line) for path in folder.rglob("*.yaml")
            for line in path.read_text(encoding="utf-8").splitlines()}


def _blocks() -> list[tuple[str, str]]:
    """(section title, YAML block) of the tutorial, the section on mistakes left out."""
    found = []
    for section in re.split(r"^## ", TUTORIAL.read_text(encoding="utf-8"), flags=re.M)[1:]:
        title = section.splitlines()[0]
        if "error" in title.lower():
            continue
        found += [(title, b) for b in re.findall(r"^```yaml\n(.*?)^```$", section, re.S | re.M)]
    return found


@pytest.mark.parametrize(("title", "block"), _blocks(), ids=lambda v: str(v)[:30])
def test_each_yaml_line_of_the_tutorial_is_in_the_example(title: str, block: str) -> None:
    folder = EXAMPLES / ("hideout-long" if "variant" in title.lower() else "hideout")
    known = _lines(folder)
    missing = [line for line in block.splitlines()
               if _code(line).strip() and not line.lstrip().startswith("#")
               and "..." not in line and _code(line) not in known]
    assert missing == [], f"section '{title}' shows lines {folder.name} does not have"


def test_the_tutorial_shows_the_declared_card_properties() -> None:
    blocks = [b for _, b in _blocks() if "cards:\n  - {id: patrol" in b]
    assert blocks and "properties:\n  cards: {type: text, score: int}\n" in blocks[0]
