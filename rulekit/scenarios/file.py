"""Scenario files as read: :class:`Scenario`, the names they refer to, and :class:`Failure`.

Shared by the runner (:mod:`rulekit.scenarios.runner`), the checks of what a role sees
(:mod:`rulekit.scenarios.seen`) and the static checks (:mod:`rulekit.scenarios.check`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulekit.engine.game import Game
from rulekit.errors import Location, PackError, PackErrors, did_you_mean
from rulekit.model.program import zone_key
from rulekit.model.symbols import describe_per
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
        return self.doc.location(self.path)

    def at(self, *path: str | int) -> Location:
        """The place of a value inside this scenario."""
        return self.doc.location((*self.path, *path))

    def key_at(self, *path: str | int) -> Location:
        """The place of a key inside this scenario."""
        return self.doc.key_location((*self.path, *path))


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
        try:
            doc = load_yaml(path, display_path(path))
        except PackError as exc:
            errors.append(exc)
            continue
        problems = validate_document(doc, "scenarios")
        if problems:
            errors.extend(problems)
            continue
        for i, data in enumerate(doc.data.get("scenarios") or []):
            scenarios.append(Scenario(data["name"], list(data.get("covers", [])), data, doc,
                                      ("scenarios", i)))
    if errors:
        raise PackErrors(errors)
    return scenarios


def reference(game: Game, scenario: Scenario, path: tuple[str | int, ...], ref: str,
              kind: str) -> str:
    """The state key of the zone or variable ``ref`` (``hand[east]``) that a scenario names
    as the key at ``path``; a :class:`Failure` with a did-you-mean if there is none."""
    where = scenario.key_at(*path)
    match = _REF.match(ref)
    if match is None:
        raise Failure(f"bad {kind} reference '{ref}'", where)
    name, index = match.group(1), match.group(2)
    table: dict[str, Any] = game.symbols.zones if kind == "zone" else game.symbols.variables
    if name not in table:
        hint = did_you_mean(name, table)
        raise Failure(f"unknown {kind} '{name}'" + (f"; {hint}" if hint else ""), where)
    per = table[name].per
    if per and index is None:
        raise Failure(f"{kind} '{name}' has one per {describe_per(per)}: "
                      f"write {name}[...]", where)
    if not per and index is not None:
        raise Failure(f"{kind} '{name}' is a single one; it takes no index", where)
    if index is None:
        return str(name)
    domain = game.symbols.index_domain(per)
    if index not in domain:
        hint = did_you_mean(index, domain)
        raise Failure(f"'{index}' is not a {describe_per(per)} of {kind} '{name}'"
                      + (f"; {hint}" if hint else ""), where)
    return zone_key(name, index)
