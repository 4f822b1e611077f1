"""Check what scenarios name, their ``params`` and ``expect`` code against their pack."""

from __future__ import annotations

from rulekit.engine.state import Value
from rulekit.errors import PackError, PackErrors, ScenarioError, did_you_mean
from rulekit.model.symbols import Symbols, VarDecl
from rulekit.pack.loader import LoadedPack
from rulekit.pack.params import outside
from rulekit.scenarios.file import Scenario, load_scenarios, reference
from rulekit.scenarios.seen import REFERENCE_KINDS, ids_of, view_problems

MAX_REPORTED = 100  # mistakes of a pack's scenarios reported at most (each may look for a hint)


class _Enough(Exception):
    """Raised when a check has found as many mistakes as are reported."""


def check_scenario_files(pack: LoadedPack) -> tuple[list[PackError], int]:
    """The mistakes in the scenario files of ``pack``, and their count."""
    scenarios = load_scenarios(pack.scenario_files)
    return check_scenarios(pack, scenarios), len(scenarios)


def check_scenarios(pack: LoadedPack, scenarios: list[Scenario]) -> list[PackError]:
    """The mistakes found in the scenarios of ``pack``: the first :data:`MAX_REPORTED`."""
    errors: list[PackError] = []
    names: dict[str, Scenario] = {}
    for scenario in scenarios:
        first = names.setdefault(scenario.name, scenario)
        if first is not scenario:
            errors.append(ScenarioError(
                f"scenario name '{scenario.name}' is already used at {first.location}",
                scenario.at("name"), "give each scenario its own name"))
        errors.extend(_ScenarioCheck(pack, scenario, MAX_REPORTED - len(errors)).run(covers=True))
        if len(errors) >= MAX_REPORTED:
            break
    return PackErrors(errors[:MAX_REPORTED]).errors  # in file order


def first_mistake(pack: LoadedPack, scenario: Scenario) -> PackError | None:
    """The first mistake that keeps ``scenario`` from running, if any."""
    return next(iter(_ScenarioCheck(pack, scenario, 1).run(covers=False)), None)


class _ScenarioCheck:
    """Checks what one scenario names against its pack."""

    def __init__(self, pack: LoadedPack, scenario: Scenario, room: int) -> None:
        self.pack = pack
        self.game = pack.game
        self.symbols = pack.game.symbols
        self.scenario = scenario
        self.data = scenario.data
        self.errors: list[PackError] = []
        self.room = room  # the mistakes it may still report

    def error(self, message: str, path: tuple[str | int, ...], hint: str | None = None,
              key: bool = False) -> None:
        """Keep a mistake at ``path`` of the scenario, or its key."""
        where = self.scenario.key_at(*path) if key else self.scenario.at(*path)
        self._keep(ScenarioError(message, where, hint))

    def _keep(self, *errors: PackError) -> None:
        """Keep mistakes; stop the check when there is no room for more."""
        self.errors.extend(errors)
        if len(self.errors) >= self.room:
            raise _Enough

    def run(self, covers: bool) -> list[PackError]:
        """The mistakes of the scenario, as many as there is room for; ``covers`` too."""
        try:
            self._params()
            self._start()
            self._zones()
            self._variables()
            self._roles()
            for problem in view_problems(self.game, self.scenario):
                self._keep(problem)
            self._expect()
            if covers:
                self._covers()
        except _Enough:
            pass
        return self.errors

    def _params(self) -> None:
        declared = self.pack.manifest.get("parameters") or {}
        for name, value in self.scenario.params.items():
            if name not in declared:
                self.error(f"unknown parameter '{name}'", ("params", name),
                           did_you_mean(name, declared), key=True)
                continue
            lo, hi = declared[name].get("min"), declared[name].get("max")
            if outside(value, lo, hi):
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
        except ScenarioError as exc:
            self._keep(exc)
            return None

    def _zones(self) -> None:
        cards = self.symbols.cards
        placed: set[str] = set()
        for ref, listed in self.scenario.zones.items():
            self._reference("zones", ref, "zone")
            for i, card in enumerate(listed):
                if card not in cards:
                    self.error(f"unknown card '{card}'", ("zones", ref, i),
                               did_you_mean(card, cards))
                elif card in placed:
                    self.error(f"card '{card}' is listed twice", ("zones", ref, i))
                placed.add(card)

    def _variables(self) -> None:
        for ref, value in self.scenario.variables.items():
            key = self._reference("variables", ref, "variable")
            if key is not None:
                self._value(ref, self.symbols.variables[key.split(".")[0]], value)

    def _value(self, ref: str, var: VarDecl, value: Value) -> None:
        """The value a scenario gives a variable fits it."""
        kind = var.type
        if kind in REFERENCE_KINDS and isinstance(value, str):
            self._component(ref, kind, value)
        elif not _fits(self.symbols, value, kind):
            self.error(f"'{ref}' holds a value of type {kind}, not {value!r}", ("variables", ref))
        elif isinstance(value, int) and outside(value, var.minimum, var.maximum):
            self.error(f"{value} is outside the bounds of '{ref}' ({var.minimum} to "
                       f"{var.maximum})", ("variables", ref))

    def _component(self, ref: str, kind: str, value: str) -> None:
        known = ids_of(self.symbols, kind)
        if value not in known:
            self.error(f"'{value}' is not a {kind} (variable '{ref}' holds a {kind})",
                       ("variables", ref), did_you_mean(value, known))

    def _roles(self) -> None:
        """The roles that ``play`` and ``expect_pending`` name."""
        for i, step in enumerate(self.scenario.play):
            for role in step:
                self._role(role, ("play", i, role), key=True)
        pending = self.data.get("expect_pending")
        for role in [pending] if isinstance(pending, str) else list(pending or []):
            self._role(role, ("expect_pending",))

    def _role(self, role: str, path: tuple[str | int, ...], key: bool = False) -> None:
        if role not in self.symbols.roles:
            self.error(f"unknown role '{role}'", path, did_you_mean(role, self.symbols.roles),
                       key=key)

    def _expect(self) -> None:
        for i in range(len(self.scenario.expect)):
            try:
                _, checker = self.scenario.expectation(i, self.game)
            except PackError as exc:
                self._keep(exc)
                continue
            self._keep(*checker.errors)

    def _covers(self) -> None:
        rules = [rule_id for rule_id, _ in self.pack.rules]
        if not rules:
            return
        for i, rule in enumerate(self.scenario.covers):
            if rule not in rules:
                self.error(f"rule '{rule}' is not in the rules of {self.pack.id}",
                           ("covers", i), did_you_mean(rule, rules))


def _fits(symbols: Symbols, value: object, kind: str) -> bool:
    """Whether a variable of type ``kind`` may hold ``value``."""
    if value is None or kind == "any":
        return True
    if kind == "list":
        return isinstance(value, list)
    if kind == "text":
        return isinstance(value, str)
    return symbols.reference_type(value) == kind
