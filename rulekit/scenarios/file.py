"""Scenario files as read: :class:`Scenario`, the names they refer to, and :class:`Failure`."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from rulekit.engine.game import Game
from rulekit.engine.state import Value
from rulekit.errors import Location, PackError, PackErrors, ScenarioError, did_you_mean
from rulekit.lang import nodes as n
from rulekit.lang.checker import Checker
from rulekit.lang.parser import parse_expression
from rulekit.limits import (
    MAX_CHECK_STEPS,
    MAX_EXPECT_CHARS,
    MAX_SCENARIO_BYTES,
    MAX_SCENARIO_EXPECTS,
    MAX_SCENARIO_FILES,
    MAX_SCENARIO_PARAMS,
    MAX_SCENARIO_STEPS,
    MAX_SCENARIOS,
)
from rulekit.model.program import zone_key
from rulekit.model.symbols import VarDecl, ZoneDecl, describe_per
from rulekit.pack.loader import display_path
from rulekit.source.document import YamlDocument, load_yaml
from rulekit.source.schema import validate_document
from rulekit.source.snippet import Snippet


@dataclass
class Scenario:
    """One scenario as read from its file."""

    name: str
    covers: list[str]
    data: dict[str, Any]
    doc: YamlDocument
    path: tuple[str | int, ...]
    _checked: dict[tuple[int, Game], tuple[n.Expr, Checker]] = field(
        default_factory=dict, repr=False, compare=False)

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

    def expectation(self, i: int, game: Game) -> tuple[n.Expr, Checker]:
        """``expect`` line ``i`` parsed and checked for ``game``, once."""
        if (i, game) not in self._checked:
            self._checked[i, game] = self._check_expectation(i, game)
        return self._checked[i, game]

    def _check_expectation(self, i: int, game: Game) -> tuple[n.Expr, Checker]:
        snippet = Snippet(str(self.expect[i]),
                          partial(self.doc.text_location, (*self.path, "expect", i)))
        expr = parse_expression(snippet)
        checker = Checker(game.symbols, snippet, context="expect")
        checker.check_expr(expr, "bool")
        return expr, checker

    def views(self, section: str) -> dict[str, Any]:
        """A section of view assertions (``sees``, ``log_for``...), by role."""
        return self.data.get(section) or {}


def _past(scenarios: list[Scenario], key: str, measure: Callable[[object], int],
          limit: int) -> Location | None:
    """Where the items under ``key`` of the scenarios, measured, go past ``limit``."""
    total = 0
    for scenario in scenarios:
        for i, item in enumerate(scenario.data.get(key) or []):
            total += measure(item)
            if total > limit:
                return scenario.at(key, i)
    return None


class Failure(Exception):
    """Why a scenario fails, and where."""

    def __init__(self, message: str, location: Location | None) -> None:
        super().__init__(message)
        self.message = message
        self.location = location


class CheckBudget:
    """The steps left to the checks of a run of scenarios (see :data:`MAX_CHECK_STEPS`)."""

    def __init__(self) -> None:
        self.left = MAX_CHECK_STEPS

    def spend(self, steps: int, where: Location) -> None:
        """Count ``steps``: a Failure at ``where`` past the budget."""
        self.left -= steps
        if self.left < 0:
            raise self.over(where)

    @staticmethod
    def over(where: Location) -> Failure:
        """The failure of the check at ``where``, past the budget."""
        return Failure(f"the checks of the scenarios ran past their budget of "
                       f"{MAX_CHECK_STEPS:,} steps in all (expect lines, and each log line "
                       f"log_for looks in); check less in each", where)


def load_scenarios(files: Iterable[Path]) -> list[Scenario]:
    """Read and schema-check scenario files, within the limits; every error is raised together."""
    errors: list[PackError] = []
    scenarios: list[Scenario] = []
    size = 0
    for number, path in enumerate(files, 1):
        size += path.stat().st_size if path.is_file() else 0
        if number > MAX_SCENARIO_FILES or size > MAX_SCENARIO_BYTES:
            errors.append(_too_much(path, number > MAX_SCENARIO_FILES))
            break
        scenarios += _read(path, errors)
    if not errors:
        errors = list(_over_limits(scenarios))
    if errors:
        raise PackErrors(errors)
    return scenarios


def _too_much(path: Path, files: bool) -> PackError:
    """The error of the scenario file that takes a pack's scenarios past a limit."""
    where = Location(display_path(path), 1, 1, None)
    if files:
        return ScenarioError(f"the pack has more than {MAX_SCENARIO_FILES:,} scenario files",
                             where, "put more scenarios in each file")
    return ScenarioError(f"the scenario files of the pack come to more than "
                         f"{MAX_SCENARIO_BYTES:,} bytes with this one", where,
                         "let each scenario set up only what it tests")


# The totals of a pack's scenarios: key, measure of an item, limit, what is measured, hint.
_TOTALS: list[tuple[str, Callable[[object], int], int, str, str]] = [
    ("play", lambda step: 1, MAX_SCENARIO_STEPS, "play steps",
     "start nearer what a scenario tests, with start, zones and variables"),
    ("expect", lambda line: 1, MAX_SCENARIO_EXPECTS, "expect lines",
     "check only what each scenario tests"),
    ("expect", lambda line: len(str(line)), MAX_EXPECT_CHARS, "characters of expect lines",
     "check only what each scenario tests"),
]


def _over_limits(scenarios: list[Scenario]) -> Iterator[PackError]:
    """The first item past each limit on what the scenarios of a pack hold in all."""
    if len(scenarios) > MAX_SCENARIOS:
        yield ScenarioError(f"the pack has more than {MAX_SCENARIOS:,} scenarios",
                            scenarios[MAX_SCENARIOS].location,
                            "let one scenario check all that one situation shows")
    for key, measure, limit, what, hint in _TOTALS:
        where = _past(scenarios, key, measure, limit)
        if where is not None:
            yield ScenarioError(f"the scenarios of the pack have more than {limit:,} {what} "
                                f"in all", where, hint)
    sets: set[tuple[tuple[str, int], ...]] = set()
    for scenario in scenarios:
        if scenario.params:
            sets.add(tuple(sorted(scenario.params.items())))
        if len(sets) > MAX_SCENARIO_PARAMS:
            yield ScenarioError(f"the scenarios of the pack give more than "
                                f"{MAX_SCENARIO_PARAMS} different sets of params",
                                scenario.at("params"),
                                "each set compiles the pack again: let scenarios share them")
            break


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
    """The state key of the zone or variable ``ref`` at ``path`` (``hand[east]``)."""
    where = scenario.key_at(*path)
    name, bracket, index = ref.removesuffix("]").partition("[")
    table: Mapping[str, ZoneDecl | VarDecl] = \
        game.symbols.zones if kind == "zone" else game.symbols.variables
    if name not in table:
        raise ScenarioError(f"unknown {kind} '{name}'", where, did_you_mean(name, table))
    per = table[name].per
    if per and not bracket:
        raise ScenarioError(f"{kind} '{name}' has one per {describe_per(per)}: write "
                            f"{name}[...]", where)
    if not per:
        if bracket:
            raise ScenarioError(f"{kind} '{name}' is a single one; it takes no index", where)
        return name
    domain = game.symbols.index_domain(per)
    if index not in domain:
        raise ScenarioError(f"'{index}' is not a {describe_per(per)} of {kind} '{name}'",
                            where, did_you_mean(index, domain))
    return zone_key(name, index)
