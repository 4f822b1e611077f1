"""Check what scenarios say against their pack, before any of them runs.

``rulekit validate`` calls :func:`check_scenario_files`: every zone, card, variable, role,
phase and component a scenario names must exist (with a did-you-mean), its ``params`` must be
parameters of the pack within their bounds, its ``expect`` code must parse and check, the rule
ids of ``covers`` must be in the pack's rules, and no two scenarios may share a name. What ``sees``,
``never_sees``, ``log_for`` and ``options_for`` name is checked by
:func:`rulekit.scenarios.seen.view_problems`.
"""

from __future__ import annotations

from typing import Any

from rulekit.errors import Location, PackError, PackErrors, ScenarioError, did_you_mean
from rulekit.lang.checker import Checker
from rulekit.lang.parser import parse_expression
from rulekit.pack.loader import LoadedPack
from rulekit.scenarios.file import Failure, Scenario, load_scenarios, reference
from rulekit.scenarios.seen import view_problems
from rulekit.source.snippet import Snippet

_REFERENCE_KINDS = ("card", "node", "edge", "region", "role")


def check_scenario_files(pack: LoadedPack) -> tuple[list[PackError], int]:
    """Every mistake in the scenario files of ``pack``, and how many scenarios they hold;
    raises :class:`~rulekit.errors.PackErrors` for a file that cannot be read."""
    scenarios = load_scenarios(pack.scenario_files)
    return check_scenarios(pack, scenarios), len(scenarios)


def check_scenarios(pack: LoadedPack, scenarios: list[Scenario]) -> list[PackError]:
    """Every mistake found in the scenarios of ``pack``."""
    errors: list[PackError] = []
    names: dict[str, Scenario] = {}
    for scenario in scenarios:
        first = names.setdefault(scenario.name, scenario)
        if first is not scenario:
            errors.append(ScenarioError(
                f"scenario name '{scenario.name}' is already used at {first.location}",
                _at(scenario, ("name",)), "give each scenario its own name"))
        errors.extend(_ScenarioCheck(pack, scenario).run())
    return PackErrors(errors).errors  # in file order


def _at(scenario: Scenario, path: tuple[str | int, ...]) -> Location:
    return scenario.doc.location((*scenario.path, *path))


class _ScenarioCheck:
    def __init__(self, pack: LoadedPack, scenario: Scenario) -> None:
        self.pack = pack
        self.game = pack.game
        self.symbols = pack.game.symbols
        self.scenario = scenario
        self.data = scenario.data
        self.errors: list[PackError] = []

    def error(self, message: str, path: tuple[str | int, ...], hint: str | None = None,
              key: bool = False) -> None:
        full = (*self.scenario.path, *path)
        where = self.scenario.doc.key_location(full) if key else self.scenario.doc.location(full)
        self.errors.append(ScenarioError(message, where, hint))

    def run(self) -> list[PackError]:
        self._params()
        self._start()
        self._zones()
        self._variables()
        self._roles()
        self._views()
        self._expect()
        self._covers()
        return self.errors

    def _params(self) -> None:
        declared = self.pack.manifest.get("parameters") or {}
        for name, value in (self.data.get("params") or {}).items():
            if name not in declared:
                self.error(f"unknown parameter '{name}'", ("params", name),
                           did_you_mean(name, declared), key=True)
                continue
            lo, hi = declared[name].get("min"), declared[name].get("max")
            if (lo is not None and value < lo) or (hi is not None and value > hi):
                self.error(f"parameter '{name}' must be between {lo} and {hi}, not {value}",
                           ("params", name))

    def _start(self) -> None:
        phase = (self.data.get("start") or {}).get("phase")
        if phase is not None and phase not in self.symbols.phases:
            self.error(f"unknown phase '{phase}'", ("start", "phase"),
                       did_you_mean(phase, self.symbols.phases))

    def _reference(self, section: str, ref: str, kind: str) -> str | None:
        try:
            return reference(self.game, self.scenario, (section, ref), ref, kind)
        except Failure as failure:
            self._failure(failure)
            return None

    def _failure(self, failure: Failure) -> None:
        hint = None
        message = failure.message
        if "; did you mean" in message:
            message, _, hint = message.rpartition("; ")
        self.errors.append(ScenarioError(message, failure.location, hint))

    def _views(self) -> None:
        for failure in view_problems(self.game, self.scenario):
            self._failure(failure)

    def _zones(self) -> None:
        cards = self.symbols.cards
        for ref, listed in (self.data.get("zones") or {}).items():
            self._reference("zones", ref, "zone")
            for i, card in enumerate(listed):
                if card not in cards:
                    self.error(f"unknown card '{card}'", ("zones", ref, i),
                               did_you_mean(card, cards))

    def _variables(self) -> None:
        for ref, value in (self.data.get("variables") or {}).items():
            key = self._reference("variables", ref, "variable")
            if key is None:
                continue
            var = self.symbols.variables[key.split(".")[0]]
            kind = var.type
            if isinstance(value, list) and kind not in ("list", "any"):
                self.error(f"'{ref}' holds a value of type {kind}, not a list",
                           ("variables", ref))
            elif kind in _REFERENCE_KINDS and isinstance(value, str):
                known = self._ids(kind)
                if value not in known:
                    self.error(f"'{value}' is not a {kind} (variable '{ref}' holds a {kind})",
                               ("variables", ref), did_you_mean(value, known))
            elif kind == "int" and isinstance(value, int) and not isinstance(value, bool):
                lo, hi = var.minimum, var.maximum
                if (lo is not None and value < lo) or (hi is not None and value > hi):
                    self.error(f"{value} is outside the bounds of '{ref}' ({lo} to {hi})",
                               ("variables", ref))

    def _ids(self, kind: str) -> list[str]:
        board = self.symbols.board
        tables: dict[str, Any] = {"card": self.symbols.cards, "node": board.nodes,
                                  "edge": board.edges, "region": board.regions,
                                  "role": self.symbols.roles}
        return list(tables[kind])

    def _roles(self) -> None:
        roles = self.symbols.roles
        for i, step in enumerate(self.data.get("play") or []):
            for role in step:
                if role not in roles:
                    self.error(f"unknown role '{role}'", ("play", i, role),
                               did_you_mean(role, roles), key=True)
        pending = self.data.get("expect_pending")
        for role in [pending] if isinstance(pending, str) else list(pending or []):
            if role not in roles:
                self.error(f"unknown role '{role}'", ("expect_pending",),
                           did_you_mean(role, roles))

    def _expect(self) -> None:
        doc, base = self.scenario.doc, self.scenario.path
        for i, text in enumerate(self.data.get("expect") or []):
            path = (*base, "expect", i)

            def locate(line: int, column: int, path: tuple[str | int, ...] = path) -> Location:
                return doc.text_location(path, line, column)

            snippet = Snippet(str(text), locate)
            try:
                expr = parse_expression(snippet)
            except PackError as exc:
                self.errors.append(exc)
                continue
            checker = Checker(self.symbols, snippet, context="expect")
            checker.check_expr(expr, "bool")
            self.errors.extend(checker.errors)

    def _covers(self) -> None:
        rules = [rule_id for rule_id, _ in self.pack.rules]
        if not rules:
            return
        for i, rule in enumerate(self.scenario.covers):
            if rule not in rules:
                self.error(f"rule '{rule}' is not in the rules of {self.pack.id}",
                           ("covers", i), did_you_mean(rule, rules))
