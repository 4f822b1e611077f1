"""Scenario tests: set a situation up, play given decisions, assert the outcome."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from rulekit.engine.decisions import Decision
from rulekit.engine.game import Game, State
from rulekit.engine.helpers import BudgetExceeded
from rulekit.engine.vm import CODE_ERRORS, Runtime
from rulekit.errors import (
    GameRuntimeError,
    IllegalActionError,
    Location,
    RulekitError,
    ScenarioError,
)
from rulekit.lang.compiler import Compiler
from rulekit.pack.loader import LoadedPack, load_pack
from rulekit.scenarios.check import first_mistake
from rulekit.scenarios.explain import explain
from rulekit.scenarios.file import CheckBudget, Failure, Scenario, load_scenarios, reference
from rulekit.scenarios.seen import check_views


@dataclass
class ScenarioResult:
    """How one scenario ended: passed, or failed and why."""

    scenario: Scenario
    passed: bool
    message: str = ""
    location: Location | None = None
    decisions: int = 0

    def __str__(self) -> str:
        """``ok NAME``, or ``FAIL NAME`` with where and why."""
        status = "ok" if self.passed else "FAIL"
        text = f"{status:4} {self.scenario.name}"
        if not self.passed:
            where = f"{self.location}: " if self.location else ""
            text += f"\n     {where}{self.message}"
        return text

    def failing(self, failure: Failure) -> ScenarioResult:
        """This result, failed for ``failure``."""
        self.message, self.location = failure.message, failure.location
        return self

    def stopped_by(self, error: RulekitError, expected: str | None) -> ScenarioResult:
        """This result, for a scenario an error stopped."""
        if not isinstance(error, GameRuntimeError | IllegalActionError):
            self.message = str(error)
        elif expected and expected in str(error):
            self.passed = True
        else:
            self.message = f"the game failed: {error}"
        return self


@dataclass
class ScenarioRun:
    """The results of a pack's scenarios, with rule coverage."""

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
    """Rule ids by their numbers: ``R-2`` before ``R-10``."""
    match = re.match(r"^(.*?)(\d+)$", rule)
    return (match.group(1), int(match.group(2))) if match else (rule, 0)


class ScenarioRunner:
    """Runs the scenarios of one pack, their checks sharing one step budget."""

    def __init__(self, pack: LoadedPack, params: Mapping[str, str | int] | None = None) -> None:
        self.pack = pack
        self.params = dict(params or {})
        self._games: dict[tuple[tuple[str, str | int], ...], Game] = {}
        self.budget = CheckBudget()

    def game_for(self, overrides: Mapping[str, str | int]) -> Game:
        """The game of the pack with these parameters, compiled once."""
        merged = {**self.params, **overrides}
        key = tuple(sorted(merged.items()))
        if not merged:
            return self.pack.game
        if key not in self._games:
            self._games[key] = load_pack(self.pack.folder, merged).game
        return self._games[key]

    def run(self, scenario: Scenario) -> ScenarioResult:
        """Check one scenario as ``rulekit validate`` does, then set up, play, check."""
        result = ScenarioResult(scenario, False, location=scenario.location)
        mistake = first_mistake(self.pack, scenario)
        if mistake is not None:
            hint = f"; {mistake.hint}" if mistake.hint else ""
            return result.failing(Failure(mistake.message + hint, mistake.location))
        expect_error = scenario.data.get("expect_error")
        try:
            game = self.game_for(scenario.params)
            state = self._setup(game, scenario)
            for i, step in enumerate(scenario.play):
                state = _step(game, scenario, state, i, step)
                result.decisions += 1
            if expect_error:
                result.message = f"expected an error containing '{expect_error}', but none came"
                return result
            self._check(game, scenario, state)
        except Failure as failure:
            return result.failing(failure)
        except RulekitError as exc:
            return result.stopped_by(exc, expect_error)
        result.passed = True
        return result

    def _setup(self, game: Game, scenario: Scenario) -> State:
        data = scenario.data
        seed = int(data.get("seed", 0))
        start = data.get("start")
        if start:
            state = game.start_state(seed, round=int(start.get("round", 1)),
                                     phase=start["phase"])
        else:
            state = game.initial_state(seed)
        _place(game, scenario, state, scenario.zones)
        for ref, value in scenario.variables.items():
            state["vars"][reference(game, scenario, ("variables", ref), ref, "variable")] = value
        return game.run(state)

    def _check(self, game: Game, scenario: Scenario, state: State) -> None:
        for i, text in enumerate(scenario.expect):
            _check_expectation(game, scenario, state, i, str(text), self.budget)
        check_views(game, scenario, state, self.budget)
        waiting = scenario.data.get("expect_pending")
        if waiting is not None:
            _check_pending(game, scenario, state, waiting)


def _place(game: Game, scenario: Scenario, state: State,
           zones: Mapping[str, list[str]]) -> None:
    """Put the listed cards in their zones, top first; cards pushed out go under the deck."""
    keys = {reference(game, scenario, ("zones", ref), ref, "zone"): ref for ref in zones}
    listed = {card for cards in zones.values() for card in cards}
    for zone_cards in state["zones"].values():
        zone_cards[:] = [card for card in zone_cards if card not in listed]
    pushed = [card for key in keys for card in state["zones"][key]]
    for key, ref in keys.items():
        state["zones"][key] = list(reversed(zones[ref]))
    if pushed:
        spare = next((z.name for z in game.symbols.zones.values() if z.initial == "all"), None)
        if spare is None:
            raise Failure("cards were pushed out of the listed zones and the pack has no "
                          "zone with 'initial: all' to take them", scenario.location)
        state["zones"][spare][:0] = pushed


def _step(game: Game, scenario: Scenario, state: State, i: int,
          step: Mapping[str, object]) -> State:
    where = scenario.at("play", i)
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
        actions[role] = _option(scenario, decision, answer, f"step {i + 1}: {role}", where)
    return game.apply(state, actions, in_place=True)


def _option(scenario: Scenario, decision: Decision, answer: object, who: str,
            where: Location) -> str:
    """The id of the option an answer names: by id or label, or its items."""
    try:
        if isinstance(answer, list):
            return decision.option("+".join(str(a) for a in answer) or "none").id
        return decision.find(str(answer)).id
    except IllegalActionError as exc:
        if scenario.data.get("expect_error"):
            raise
        choices = ", ".join(o.id for o in decision.options()[:12])
        raise Failure(f"{who}: {exc.message} (decision: {decision.prompt}; options: "
                      f"{choices})", where) from None


def _check_expectation(game: Game, scenario: Scenario, state: State, i: int, text: str,
                       budget: CheckBudget) -> None:
    """Check one ``expect`` line, its steps counted against ``budget``."""
    where = scenario.at("expect", i)
    expr, checker = scenario.expectation(i, game)
    compiler = Compiler(game.symbols, game.program)
    rt = Runtime(game.program, state, max(budget.left, 0))
    try:
        ok = compiler.expr(expr)(rt, [None] * checker.nslots)
        if not ok:
            detail = explain(expr, lambda part: compiler.expr(part)(rt, [None] * checker.nslots),
                             game.symbols)
            if rt.state["result"]:
                detail += f" (the game ended: {rt.state['result']['reason']})"
    except BudgetExceeded:
        raise budget.over(where) from None
    except CODE_ERRORS as exc:
        raise Failure(f"cannot evaluate '{text}': {exc}", where) from None
    finally:
        budget.left = rt.ticks
    if not ok:
        raise Failure(f"expected {text}{detail}", where)


def _check_pending(game: Game, scenario: Scenario, state: State,
                   waiting: str | list[str]) -> None:
    wanted = [waiting] if isinstance(waiting, str) else list(waiting)
    actual = [d.player for d in game.pending(state)]
    if sorted(actual) != sorted(wanted):
        raise Failure(f"expected {', '.join(wanted) or 'nobody'} to decide, but "
                      f"waiting for {', '.join(actual) or 'nobody'}",
                      scenario.at("expect_pending"))


def run_scenarios(pack: LoadedPack, params: Mapping[str, str | int] | None = None,
                  name_filter: str | None = None,
                  files: list[Path] | None = None) -> ScenarioRun:
    """Run every scenario whose name contains ``name_filter``; ``files`` replace the pack's."""
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
