"""Shared fixtures: a tiny valid pack ("duel") written into a temporary folder.

Duel: two roles, ``red`` and ``blue``; each of ``turns`` rounds both secretly pick 1, 2 or 3,
and the higher number scores a point; after the last round the player with more points wins,
and equal points are a draw (the rules end the game without a winner). ``make_pack`` writes it
with any file replaced (or removed with ``None``), so tests can break it one piece at a time.
"""

from __future__ import annotations

import importlib
import os
import sys
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import Phase, settings

# Property tests: no deadline (games vary in length) and no "explain" phase, which traces every
# line while shrinking a failure and can make a failing run take many minutes.
settings.register_profile(
    "rulekit", deadline=None, phases=[phase for phase in Phase if phase is not Phase.explain]
)
settings.load_profile("rulekit")

# The validation cache is off in tests (a test of the cache turns it on in a folder of its own),
# so that no test reads a result another one left, nor writes to the user's cache folder.
os.environ["RULEKIT_NO_CACHE"] = "1"

DUEL_FILES: dict[str, str] = {
    "pack.yaml": """\
        id: duel
        name: Duel
        version: "1.0"
        roles:
          - {id: red, name: Red}
          - {id: blue, name: Blue}
        parameters:
          turns: {default: 3, min: 1, max: 20, description: Rounds in a game}
        include: [game.yaml]
        scenarios: [scenarios/*.yaml]
        rules: rules.yaml
        """,
    "game.yaml": """\
        cards:
          - {id: ace, name: Ace, score: 1}
          - {id: king, name: King, score: 13}
        zones:
          deck: {visibility: hidden, initial: all}
          discard: {visibility: public}
          hand: {per_role: true, visibility: owner}
        variables:
          points: {per_role: true, initial: 0}
        flow:
          rounds: turns
          phases:
            - id: pick
              name: Pick
              do: |
                simultaneous {
                  let r = choose red one of [1, 2, 3] prompt "Pick a number"
                  let b = choose blue one of [1, 2, 3] prompt "Pick a number"
                }
                if r > b { points[red] += 1 }
                if b > r { points[blue] += 1 }
          after_rounds: |
            if points[red] > points[blue] { win red "Red has more points" }
            if points[blue] > points[red] { win blue "Blue has more points" }
        """,
    "scenarios/duel.yaml": """\
        scenarios:
          - name: the higher number scores
            covers: [D-1]
            params: {turns: 1}
            play:
              - {red: "3", blue: "1"}
            expect:
              - "winner == red"
              - "points[red] == 1"
          - name: equal points are a draw
            covers: [D-2]
            params: {turns: 1}
            play:
              - {red: "2", blue: "2"}
            expect:
              - "winner == none"
              - "finished"
        """,
    "rules.yaml": """\
        rules:
          - {id: D-1, text: The higher number scores a point.}
          - {id: D-2, text: Equal points at the end are a draw.}
          - {id: D-3, text: A game lasts 'turns' rounds.}
        """,
}

PackMaker = Callable[..., Path]
Locator = Callable[[Path, str], tuple[int, int]]


def write_pack(folder: Path, files: dict[str, str | None] | None = None,
               replace: dict[str, tuple[str, str]] | None = None) -> Path:
    """Write the duel pack into ``folder``: ``files`` replaces whole files (``None`` drops
    one); ``replace`` maps a file name to ``(old, new)``, a text to swap inside that file."""
    merged: dict[str, str | None] = {name: textwrap.dedent(text)
                                     for name, text in DUEL_FILES.items()}
    merged.update({name: None if text is None else textwrap.dedent(text)
                   for name, text in (files or {}).items()})
    for name, (old, new) in (replace or {}).items():
        text = merged[name]
        assert text is not None and old in text, f"{old!r} is not in {name}"
        merged[name] = text.replace(old, new, 1)
    folder.mkdir(parents=True, exist_ok=True)
    for name, content in merged.items():
        if content is None:
            continue
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")
    return folder


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Caching on, in a folder of the test's own (returned; made when first written)."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("RULEKIT_NO_CACHE", "")
    monkeypatch.setenv("RULEKIT_CACHE_DIR", str(folder))
    return folder


@pytest.fixture
def make_pack(tmp_path: Path) -> PackMaker:
    """``make_pack(name, files=..., replace=...)``: write a variant of the duel pack under
    ``tmp_path`` (see :func:`write_pack`) and return its folder."""

    def make(name: str = "duel", files: dict[str, str | None] | None = None,
             replace: dict[str, tuple[str, str]] | None = None) -> Path:
        return write_pack(tmp_path / name, files, replace)

    return make


@pytest.fixture
def duel_pack(make_pack: PackMaker) -> Path:
    """The valid duel pack."""
    return make_pack()


def _locate(path: Path, needle: str) -> tuple[int, int]:
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        column = line.find(needle)
        if column >= 0:
            return number, column + 1
    raise AssertionError(f"{needle!r} is not in {path}")


@pytest.fixture
def locate() -> Locator:
    """``locate(path, text)``: the 1-based (line, column) where ``text`` first appears."""
    return _locate


AGENTS_MODULE = "duel_bots"
AGENTS_SOURCE = '''\
"""Agents for the duel pack, used by the CLI and simulation tests."""


class Three:
    """Always picks 3 (by option id)."""

    def choose(self, view, decision):
        return "3"


class Broken:
    """Raises at its first decision."""

    def choose(self, view, decision):
        raise RuntimeError("broken on purpose")


def one(view, decision):
    """Always picks 1 (as an Option)."""
    return decision.option("1")


class Watcher:
    """Plays at random but reads its observation first."""

    calls = 0

    def choose(self, view, decision):
        observation = view.observation
        assert observation["role"] == view.role
        assert observation is view.observation
        Watcher.calls += 1
        return decision.sample(view.rng)


class ByLabel:
    """Answers with the label of the last option."""

    def choose(self, view, decision):
        return decision.options()[-1].label


class Cheater:
    """Answers with an option that does not exist."""

    def choose(self, view, decision):
        return "7"


class NeedsArgs:
    def __init__(self, strength):
        self.strength = strength

    def choose(self, view, decision):
        return "1"


def wrong_type(view, decision):
    return 42


NOT_AN_AGENT = 3
'''


@pytest.fixture
def agents_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A module ``duel_bots`` of agents, importable for the test (and its worker processes)."""
    folder = tmp_path / "agents"
    folder.mkdir()
    (folder / f"{AGENTS_MODULE}.py").write_text(AGENTS_SOURCE, encoding="utf-8")
    monkeypatch.syspath_prepend(str(folder))
    importlib.invalidate_caches()
    sys.modules.pop(AGENTS_MODULE, None)
    yield AGENTS_MODULE
    sys.modules.pop(AGENTS_MODULE, None)


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Callable[..., tuple[int, str, str]]:
    """``run(*argv)``: the exit code, stdout and stderr of ``rulekit.cli.main(argv)``."""
    from helpers_cli import runner

    return runner(capsys)


@pytest.fixture
def loads(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The folders loaded from scratch (``load_pack``) while the test runs."""
    import rulekit.pack.loader

    seen: list[Path] = []
    load = rulekit.pack.loader.load_pack

    def counting(ref: str | Path, params: dict[str, object] | None = None,
                 **options: bool) -> rulekit.pack.loader.LoadedPack:
        seen.append(Path(ref))
        return load(ref, params, **options)

    monkeypatch.setattr(rulekit.pack.loader, "load_pack", counting)
    return seen
