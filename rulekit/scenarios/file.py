"""Scenario files as read: :class:`Scenario`, the names they refer to, and :class:`Failure`."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulekit.engine.game import Game
from rulekit.engine.state import Value
from rulekit.errors import Location, PackError, PackErrors, did_you_mean
from rulekit.model.program import zone_key
from rulekit.model.symbols import VarDecl, ZoneDecl, describe_per
from rulekit.pack.loader import display_path
from rulekit.source.document import YamlDocument, load_yaml
from rulekit.source.schema import validate_document

_REF = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)(?:\[([A-Za-z0-9_][A-Za-z0-9_-]*)\])?$")


@dataclass
class Scenario:
    """One scenario as read from its file."""

    name: str
    covers: list[str]
    data: dict[str, Any]
    doc: YamlDocument
    path: tuple[str | int, ...]

    @property
    def location(self) -> Location:
        """Where the scenario starts."""
        return self.doc.location(self.path)

    def at(self, *path: str | int) -> Location:
        """The place of a value inside this scenario."""
        return self.doc.location((*self.path, *path))

    def key_at(self, *path: str | int) -> Location:
        """The place of a key inside this scenario."""
        return self.doc.key_location((*self.path, *path))

    # What the scenario gives; a key it leaves out, or gives as null, is empty.

    @property
    def params(self) -> dict[str, int]:
        return self.data.get("params") or {}

    @property
    def zones(self) -> dict[str, list[str]]:
        """The cards each listed zone starts with, top first."""
        return self.data.get("zones") or {}

    @property
    def variables(self) -> dict[str, Value]:
        return self.data.get("variables") or {}

    @property
    def play(self) -> list[dict[str, object]]:
        """Each step: the answer of each role that decides."""
        return self.data.get("play") or []

    @property
    def expect(self) -> list[str]:
        return self.data.get("expect") or []

    @property
    def sees(self) -> dict[str, dict[str, object]]:
        """By role, what it sees of zones and variables."""
        return self.data.get("sees") or {}

    @property
    def never_sees(self) -> dict[str, list[str]]:
        """By role, the ids it must never see."""
        return self.data.get("never_sees") or {}

    def views(self, section: str) -> dict[str, object]:
        """A section of view assertions (``sees``, ``log_for``...), by role."""
        return self.data.get(section) or {}


def hinted(message: str, name: str, known: Iterable[str]) -> str:
    """A message, with a did-you-mean for ``name`` if one fits."""
    hint = did_you_mean(name, known)
    return message + (f"; {hint}" if hint else "")


class Failure(Exception):
    """Why a scenario fails, and where."""

    def __init__(self, message: str, location: Location | None) -> None:
        super().__init__(message)
        self.message = message
        self.location = location


def load_scenarios(files: Iterable[Path]) -> list[Scenario]:
    """Read and schema-check scenario files; every error is raised together."""
    errors: list[PackError] = []
    scenarios: list[Scenario] = []
    for path in files:
        scenarios += _read(path, errors)
    if errors:
        raise PackErrors(errors)
    return scenarios


def _read(path: Path, errors: list[PackError]) -> list[Scenario]:
    try:
        doc = load_yaml(path, display_path(path))
    except PackError as exc:
        errors.append(exc)
        return []
    problems = validate_document(doc, "scenarios")
    errors.extend(problems)
    if problems:
        return []
    return [Scenario(data["name"], list(data.get("covers", [])), data, doc, ("scenarios", i))
            for i, data in enumerate(doc.data.get("scenarios") or [])]


def reference(game: Game, scenario: Scenario, path: tuple[str | int, ...], ref: str,
              kind: str) -> str:
    """The state key of the zone or variable ``ref`` at ``path`` (``hand[east]``), or a Failure."""
    where = scenario.key_at(*path)
    match = _REF.match(ref)
    if match is None:
        raise Failure(f"bad {kind} reference '{ref}'", where)
    name, index = match.group(1), match.group(2)
    table: Mapping[str, ZoneDecl | VarDecl] = \
        game.symbols.zones if kind == "zone" else game.symbols.variables
    if name not in table:
        raise Failure(hinted(f"unknown {kind} '{name}'", name, table), where)
    problem = _index_problem(game, kind, name, table[name].per, index)
    if problem is not None:
        raise Failure(problem, where)
    return str(name) if index is None else zone_key(name, index)


def _index_problem(game: Game, kind: str, name: str, per: str | int | None,
                   index: str | None) -> str | None:
    if per and index is None:
        return f"{kind} '{name}' has one per {describe_per(per)}: write {name}[...]"
    if not per:
        return None if index is None else f"{kind} '{name}' is a single one; it takes no index"
    domain = game.symbols.index_domain(per)
    if index in domain:
        return None
    return hinted(f"'{index}' is not a {describe_per(per)} of {kind} '{name}'", str(index),
                  domain)
