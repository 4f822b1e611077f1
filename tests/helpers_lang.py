"""Helpers for tests of the effect language: tiny packs written to a temporary folder.

A test pack has two roles (``a`` "Alice" and ``b`` "Bob"), a parameter ``turns`` and one content
file, ``content.yaml``, made of :data:`BASE` (cards, zones, variables) followed by whatever
procedures, setup and flow the test gives. :func:`locate` finds where a piece of text sits in
that file, so that tests can check the line and column of an error.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest

from rulekit.engine.game import Game, State
from rulekit.errors import Location, PackError, PackErrors
from rulekit.pack.loader import LoadedPack, load_pack
from rulekit.source.snippet import Snippet

MANIFEST = """\
id: t
name: Test
version: "1"
roles:
  - {id: a, name: Alice}
  - {id: b, name: Bob}
parameters:
  turns: {default: 1, min: 1, max: 10}
include: [content.yaml]
"""

# Zones list cards from the top: the deck starts with c1 on top (its state list is
# [c6, c5, c4, c3, c2, c1], as a zone reads from its bottom to its top).
BASE = """\
cards:
  - {id: c1, name: One, kind: x, score: 1}
  - {id: c2, name: Two, kind: x, score: 2}
  - {id: c3, name: Three, kind: y, score: 3}
  - {id: c4, name: Four, kind: y, score: 4}
  - {id: c5, name: Five, kind: z, score: 5}
  - {id: c6, name: Six, kind: z, score: 6}
zones:
  deck: {visibility: hidden, initial: all}
  discard: {visibility: public}
  hand: {per_role: true, visibility: owner}
variables:
  score: {initial: 2, min: 0, max: 5}
  total: {initial: 0}
  bonus: {per_role: true, initial: 0, max: 3}
  tag: {initial: "start"}
"""

CARDS = ["c1", "c2", "c3", "c4", "c5", "c6"]


def code_block(key: str, code: str, indent: int) -> str:
    """``key: |`` followed by ``code`` as a literal block, the key at ``indent`` spaces."""
    body = textwrap.indent(textwrap.dedent(code).strip("\n") + "\n", " " * (indent + 2))
    return f"{' ' * indent}{key}: |\n{body}"


def content(
    *,
    setup: str | None = None,
    procs: dict[str, tuple[str, str]] | None = None,
    phases: dict[str, str] | None = None,
    rounds: str = "1",
    end_when: list[tuple[str, str, str]] | None = None,
    after_rounds: str | None = None,
    functions: dict[str, tuple[str, str]] | None = None,
    base: str = BASE,
) -> str:
    """The text of content.yaml. ``procs`` maps a name to (params in YAML flow style, code)."""
    text = base
    if functions:
        text += "functions:\n"
        for name, (params, returns) in functions.items():
            quoted = returns.replace("'", "''")
            text += f"  {name}:\n    params: {params}\n    returns: '{quoted}'\n"
    if procs:
        text += "procedures:\n"
        for name, (params, code) in procs.items():
            text += f"  {name}:\n"
            if params:
                text += f"    params: {params}\n"
            text += code_block("do", code, 4)
    if setup is not None:
        text += code_block("setup", code=setup, indent=0)
    text += f"flow:\n  rounds: {rounds}\n  phases:\n"
    for phase_id, code in (phases or {"main": "pass"}).items():
        text += f"    - id: {phase_id}\n"
        text += code_block("do", code, 6)
    if end_when:
        text += "  end_when:\n"
        for when, winner, reason in end_when:
            text += f"    - {{when: \"{when}\", winner: {winner}, reason: \"{reason}\"}}\n"
    if after_rounds is not None:
        text += code_block("after_rounds", after_rounds, 2)
    return text


def write_pack(folder: Path, text: str, manifest: str = MANIFEST) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "pack.yaml").write_text(manifest, encoding="utf-8")
    (folder / "content.yaml").write_text(text, encoding="utf-8")
    return folder


def load(tmp_path: Path, text: str, params: dict[str, Any] | None = None) -> LoadedPack:
    return load_pack(write_pack(tmp_path / "pack", text), params)


def load_errors(tmp_path: Path, text: str) -> list[PackError]:
    """The errors of a pack that must not load."""
    with pytest.raises(PackErrors) as info:
        load(tmp_path, text)
    return info.value.errors


def locate(text: str, needle: str, nth: int = 0, after: str | None = None) -> tuple[int, int]:
    """(line, column), 1-based, of the ``nth`` occurrence of ``needle`` in ``text`` (searched
    from the first occurrence of ``after`` when it is given)."""
    start = text.index(after) - 1 if after is not None else -1
    for _ in range(nth + 1):
        start = text.index(needle, start + 1)
    line = text.count("\n", 0, start) + 1
    column = start - (text.rfind("\n", 0, start) + 1) + 1
    return line, column


def run(tmp_path: Path, text: str, seed: int = 0,
        params: dict[str, Any] | None = None) -> tuple[Game, State]:
    """Load a pack and start a game, run up to its first decision or its end."""
    game = load(tmp_path, text, params).game
    return game, game.new_game(seed)


def logs(game: Game, state: State) -> list[str]:
    """The text of every ``log`` event of a state, in order."""
    return [game.format_event(e) for e in state["log"] if e["e"] == "log"]


def plain_snippet(text: str, file: str = "<text>") -> Snippet:
    """A snippet whose places are those of ``text`` itself."""
    lines = text.splitlines() or [""]

    def locate(line: int, column: int) -> Location:
        src = lines[line - 1] if 0 < line <= len(lines) else None
        return Location(file, line, column, src)

    return Snippet(text, locate)
