"""Scenario tests: set a situation up, play given decisions, assert the outcome.

A scenario file holds a list of scenarios (see ``docs/pack-format.md``). ``run_scenarios`` runs
every scenario of a pack and returns one :class:`ScenarioResult` each; ``rulekit test`` prints
them and the pytest suite runs the shipped packs' scenarios.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulekit.engine.game import Game, State
from rulekit.engine.vm import Runtime
from rulekit.errors import (
    GameRuntimeError,
    IllegalActionError,
    Location,
    PackError,
    PackErrors,
    RulekitError,
    ScenarioError,
    did_you_mean,
)
from rulekit.lang import nodes as n
from rulekit.lang.checker import Checker
from rulekit.lang.compiler import Compiler
from rulekit.lang.parser import parse_expression
from rulekit.pack.loader import LoadedPack, load_pack
from rulekit.scenarios.explain import explain
from rulekit.scenarios.file import Failure, Scenario, load_scenarios, reference
from rulekit.scenarios.seen import check_views
from rulekit.source.document import YamlDocument
from rulekit.source.snippet import Snippet


@dataclass
class ScenarioResult:
    scenario: Scenario
    passed: bool
    message: str = ""
    location: Location | None = None
    decisions: int = 0

    def __str__(self) -> str:
        status = "ok" if self.passed else "FAIL"
        text = f"{status:4} {self.scenario.name}"
        if not self.passed:
            where = f"{self.location}: " if self.location else ""
            text += f"\n     {where}{self.message}"
        return text


@dataclass
class ScenarioRun:
    """The results of all scenarios of a pack, with rule coverage."""

    pack: LoadedPack
    results: list[ScenarioResult] = field(default_factory=list)

    @property
    def passed(self) -> int:
        return sum(1 for r in self.results if r.passed)

    @property
    def failed(self) -> int:
        return len(self.results) - self.passed

    def coverage(self) -> dict[str, list[str]]:
        """Rule id -> names of the passing scenarios that cover it."""
        covered: dict[str, list[str]] = {}
        for result in self.results:
            for rule in result.scenario.covers:
                covered.setdefault(rule, [])
                if result.passed:
                    covered[rule].append(result.scenario.name)
        return dict(sorted(covered.items(), key=lambda kv: _rule_sort_key(kv[0])))


def _rule_sort_key(rule: str) -> tuple[str, int]:
    match = re.match(r"^(.*?)(\d+)$", rule)
    return (match.group(1), int(match.group(2))) if match else (rule, 0)


class ScenarioRunner:
    """Runs the scenarios of one pack (compiling it again for scenarios with parameters)."""

    def __init__(self, pack: LoadedPack, params: dict[str, Any] | None = None) -> None:
        self.pack = pack
        self.params = dict(params or {})
        self._games: dict[tuple[tuple[str, Any], ...], Game] = {}

    def game_for(self, overrides: dict[str, Any]) -> Game:
        merged = {**self.params, **overrides}
        key = tuple(sorted(merged.items()))
        if not merged:
            return self.pack.game
        if key not in self._games:
            self._games[key] = load_pack(self.pack.folder, merged).game
        return self._games[key]

    def run(self, scenario: Scenario) -> ScenarioResult:
        result = ScenarioResult(scenario, False, location=scenario.location)
        data = scenario.data
        expect_error = data.get("expect_error")
        try:
            game = self.game_for(data.get("params") or {})
            state = self._setup(game, scenario)
            state = self._play(game, scenario, state, result)
        except Failure as failure:
            result.message, result.location = failure.message, failure.location
            return result
        except (GameRuntimeError, IllegalActionError) as exc:
            if expect_error and expect_error in str(exc):
                result.passed = True
                return result
            result.message = f"the game failed: {exc}"
            return result
        except PackErrors as exc:
            result.message = str(exc)
            return result
        except RulekitError as exc:
            result.message = str(exc)
            return result
        if expect_error:
            result.message = f"expected an error containing '{expect_error}', but none came"
            return result
        try:
            self._check(game, scenario, state)
        except Failure as failure:
            result.message, result.location = failure.message, failure.location
            return result
        result.passed = True
        return result

    # ------------------------------------------------------------ set-up

    def _setup(self, game: Game, scenario: Scenario) -> State:
        data = scenario.data
        seed = int(data.get("seed", 0))
        start = data.get("start")
        if start:
            state = game.start_state(seed, round=int(start.get("round", 1)),
                                     phase=start["phase"])
        else:
            state = game.initial_state(seed)
        zones = data.get("zones") or {}
        if zones:
            self._place(game, scenario, state, zones)
        for ref, value in (data.get("variables") or {}).items():
            key = self.reference(game, scenario, ("variables", ref), ref, "variable")
            decl = game.symbols.variables[key.split(".")[0]]
            lo, hi = decl.minimum, decl.maximum
            if isinstance(value, int) and ((lo is not None and value < lo)
                                           or (hi is not None and value > hi)):
                raise Failure(f"{value} is outside the bounds of '{ref}' ({lo} to {hi})",
                               scenario.doc.location((*scenario.path, "variables", ref)))
            expected = decl.type
            if not _fits(game, value, expected):
                raise Failure(f"'{ref}' holds a value of type {expected}, not {value!r}",
                               scenario.doc.location((*scenario.path, "variables", ref)))
            state["vars"][key] = value
        return game.run(state)

    def reference(self, game: Game, scenario: Scenario, path: tuple[str | int, ...], ref: str,
                  kind: str) -> str:
        return reference(game, scenario, path, ref, kind)

    def _place(self, game: Game, scenario: Scenario, state: State,
               zones: dict[str, list[str]]) -> None:
        """Put the listed cards in the listed zones (listed top first); cards pushed out of a
        listed zone go under the cards of the pack's starting zone (usually the deck)."""
        keys = {self.reference(game, scenario, ("zones", ref), ref, "zone"): ref for ref in zones}
        listed: set[str] = set()
        for ref in keys.values():
            for i, card in enumerate(zones[ref]):
                if card not in game.symbols.cards:
                    hint = did_you_mean(card, game.symbols.cards)
                    raise Failure(f"unknown card '{card}'" + (f"; {hint}" if hint else ""),
                                   scenario.doc.location((*scenario.path, "zones", ref, i)))
                if card in listed:
                    raise Failure(f"card '{card}' is listed twice",
                                   scenario.doc.location((*scenario.path, "zones", ref, i)))
                listed.add(card)
        spare = next((z.name for z in game.symbols.zones.values() if z.initial == "all"), None)
        pushed: list[str] = []
        for key in keys:
            pushed.extend(c for c in state["zones"][key] if c not in listed)
            state["zones"][key] = []
        for zone_cards in state["zones"].values():
            zone_cards[:] = [c for c in zone_cards if c not in listed]
        for key, ref in keys.items():
            state["zones"][key] = list(reversed(zones[ref]))
        if pushed:
            if spare is None:
                raise Failure("cards were pushed out of the listed zones and the pack has no "
                               "zone with 'initial: all' to take them", scenario.location)
            state["zones"][spare][:0] = pushed

    # ------------------------------------------------------------ play and check

    def _play(self, game: Game, scenario: Scenario, state: State,
              result: ScenarioResult) -> State:
        for i, step in enumerate(scenario.data.get("play") or []):
            where = scenario.doc.location((*scenario.path, "play", i))
            if state["result"] is not None:
                raise Failure(f"step {i + 1}: the game is already over "
                               f"({game.format_event(state['log'][-1])})", where)
            pending = {d.player: d for d in game.pending(state)}
            actions: dict[str, str] = {}
            for role, answer in step.items():
                decision = pending.get(role)
                if decision is None:
                    raise Failure(f"step {i + 1}: {role} has no decision to take; waiting for "
                                   f"{', '.join(pending) or 'nobody'}", where)
                try:
                    if isinstance(answer, list):
                        option = decision.option("+".join(str(a) for a in answer) or "none")
                    else:
                        option = decision.find(str(answer))
                except IllegalActionError as exc:
                    if scenario.data.get("expect_error"):
                        raise
                    choices = ", ".join(o.id for o in decision.options()[:12])
                    raise Failure(f"step {i + 1}: {role}: {exc.message} "
                                   f"(decision: {decision.prompt}; options: {choices})",
                                   where) from None
                actions[role] = option.id
            state = game.apply(state, actions, in_place=True)
            result.decisions += 1
        return state

    def _check(self, game: Game, scenario: Scenario, state: State) -> None:
        data = scenario.data
        for i, text in enumerate(data.get("expect") or []):
            path = (*scenario.path, "expect", i)
            doc = scenario.doc

            def locate(line: int, column: int, path: tuple[str | int, ...] = path,
                       doc: YamlDocument = doc) -> Location:
                return doc.text_location(path, line, column)

            snippet = Snippet(str(text), locate)
            try:
                expr = parse_expression(snippet)
            except PackError as exc:
                raise Failure(exc.message, exc.location) from None
            checker = Checker(game.symbols, snippet, context="expect")
            checker.check_expr(expr, "bool")
            if checker.errors:
                first = checker.errors[0]
                raise Failure(first.message + (f" ({first.hint})" if first.hint else ""),
                               first.location)
            compiler = Compiler(game.symbols, game.program)
            rt = Runtime(game.program, state)
            try:
                ok = compiler.expr(expr)(rt, [None] * checker.nslots)
            except (LookupError, TypeError, ValueError, ArithmeticError) as exc:
                raise Failure(f"cannot evaluate '{text}': {exc}", doc.location(path)) from None
            if not ok:
                detail = _explain(compiler, expr, rt, checker.nslots, game)
                raise Failure(f"expected {text}{detail}", doc.location(path))
        check_views(game, scenario, state)
        waiting = data.get("expect_pending")
        if waiting is not None:
            wanted = [waiting] if isinstance(waiting, str) else list(waiting)
            actual = [d.player for d in game.pending(state)]
            if sorted(actual) != sorted(wanted):
                raise Failure(f"expected {', '.join(wanted) or 'nobody'} to decide, but "
                               f"waiting for {', '.join(actual) or 'nobody'}",
                               scenario.doc.location((*scenario.path, "expect_pending")))


def _fits(game: Game, value: Any, expected: str) -> bool:
    """Whether a scenario may give ``value`` to a variable of type ``expected``."""
    if value is None or expected in ("any", "list"):
        return value is None or expected == "any" or isinstance(value, list)
    if expected == "text":
        return isinstance(value, str)
    return game.symbols.reference_type(value) == expected


def _explain(compiler: Compiler, expr: n.Expr, rt: Runtime, nslots: int, game: Game) -> str:
    """The values of the parts of a false expectation, and how the game ended if it did."""

    def evaluate(part: n.Expr) -> Any:
        return compiler.expr(part)(rt, [None] * nslots)

    detail = explain(expr, evaluate, game.symbols)
    if state_result := rt.state["result"]:
        detail += f" (the game ended: {state_result['reason']})"
    return detail


def run_scenarios(pack: LoadedPack, params: dict[str, Any] | None = None,
                  name_filter: str | None = None,
                  files: list[Path] | None = None) -> ScenarioRun:
    """Run every scenario of a pack (those whose name contains ``name_filter``); ``files``:
    the scenario files to run instead of the pack's own (those of its base, say)."""
    scenarios = load_scenarios(pack.scenario_files if files is None else files)
    runner = ScenarioRunner(pack, params)
    run = ScenarioRun(pack)
    for scenario in scenarios:
        if name_filter and name_filter.lower() not in scenario.name.lower():
            continue
        run.results.append(runner.run(scenario))
    return run


__all__ = ["Failure", "Scenario", "ScenarioError", "ScenarioResult", "ScenarioRun",
           "ScenarioRunner", "load_scenarios", "run_scenarios"]
