"""Check what scenarios name, their ``params`` and ``expect`` code against their pack."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice

from rulekit.engine.state import Value
from rulekit.errors import PackError, PackErrors, ScenarioError, did_you_mean
from rulekit.model.symbols import Symbols, VarDecl
from rulekit.pack.loader import LoadedPack
from rulekit.pack.params import outside
from rulekit.scenarios.file import Scenario, load_scenarios, reference
from rulekit.scenarios.seen import REFERENCE_KINDS, SECTIONS, ids_of, view_problems

MAX_REPORTED = 100  # mistakes of a pack's scenarios reported at most (each may look for a hint)


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
        errors += islice(_ScenarioCheck(pack, scenario).problems(covers=True),
                         MAX_REPORTED - len(errors))
        if len(errors) >= MAX_REPORTED:
            break
    return PackErrors(errors[:MAX_REPORTED]).errors  # in file order


def first_mistake(pack: LoadedPack, scenario: Scenario) -> PackError | None:
    """The first mistake that keeps ``scenario`` from running, if any."""
    return next(_ScenarioCheck(pack, scenario).problems(covers=False), None)


class _ScenarioCheck:
    """Finds the mistakes in what one scenario names, one at a time."""

    def __init__(self, pack: LoadedPack, scenario: Scenario) -> None:
        self.pack = pack
        self.game = pack.game
        self.symbols = pack.game.symbols
        self.scenario = scenario
        self.data = scenario.data

    def error(self, message: str, path: tuple[str | int, ...], hint: str | None = None,
              key: bool = False) -> ScenarioError:
        """A mistake at ``path`` of the scenario, or at its key."""
        where = self.scenario.key_at(*path) if key else self.scenario.at(*path)
        return ScenarioError(message, where, hint)

    def problems(self, covers: bool) -> Iterator[PackError]:
        """The mistakes of the scenario; with ``covers``, in its rule ids too."""
        yield from self._params()
        yield from self._start()
        yield from self._zones()
        yield from self._variables()
        yield from self._roles()
        yield from view_problems(self.game, self.scenario)
        yield from self._expect()
        if covers:
            yield from self._covers()

    def _params(self) -> Iterator[PackError]:
        declared = self.pack.manifest.get("parameters") or {}
        for name, value in self.scenario.params.items():
            if name not in declared:
                yield self.error(f"unknown parameter '{name}'", ("params", name),
                                 did_you_mean(name, declared), key=True)
                continue
            lo, hi = declared[name].get("min"), declared[name].get("max")
            if outside(value, lo, hi):
                yield self.error(f"parameter '{name}' must be between {lo} and {hi}, not "
                                 f"{value}", ("params", name))

    def _start(self) -> Iterator[PackError]:
        phase = (self.data.get("start") or {}).get("phase")
        if phase is not None and phase not in self.symbols.phases:
            yield self.error(f"unknown phase '{phase}'", ("start", "phase"),
                             did_you_mean(phase, self.symbols.phases))

    def _zones(self) -> Iterator[PackError]:
        cards = self.symbols.cards
        placed: set[str] = set()
        for ref, listed in self.scenario.zones.items():
            try:
                reference(self.game, self.scenario, ("zones", ref), ref, "zone")
            except ScenarioError as exc:
                yield exc
            for i, card in enumerate(listed):
                if card not in cards:
                    yield self.error(f"unknown card '{card}'", ("zones", ref, i),
                                     did_you_mean(card, cards))
                elif card in placed:
                    yield self.error(f"card '{card}' is listed twice", ("zones", ref, i))
                placed.add(card)

    def _variables(self) -> Iterator[PackError]:
        for ref, value in self.scenario.variables.items():
            try:
                key = reference(self.game, self.scenario, ("variables", ref), ref, "variable")
            except ScenarioError as exc:
                yield exc
                continue
            yield from self._value(ref, self.symbols.variables[key.split(".")[0]], value)

    def _value(self, ref: str, var: VarDecl, value: Value) -> Iterator[PackError]:
        """The value a scenario gives a variable fits it."""
        kind = var.type
        if kind in REFERENCE_KINDS and isinstance(value, str):
            yield from self._component(ref, kind, value)
        elif not _fits(self.symbols, value, kind):
            yield self.error(f"'{ref}' holds a value of type {kind}, not {value!r}",
                             ("variables", ref))
        elif isinstance(value, int) and outside(value, var.minimum, var.maximum):
            yield self.error(f"{value} is outside the bounds of '{ref}' ({var.minimum} to "
                             f"{var.maximum})", ("variables", ref))

    def _component(self, ref: str, kind: str, value: str) -> Iterator[PackError]:
        known = ids_of(self.symbols, kind)
        if value not in known:
            yield self.error(f"'{value}' is not a {kind} (variable '{ref}' holds a {kind})",
                             ("variables", ref), did_you_mean(value, known))

    def _roles(self) -> Iterator[PackError]:
        """The roles that ``play``, ``expect_pending`` and the view assertions name."""
        for i, step in enumerate(self.scenario.play):
            for role in step:
                yield from self._role(role, ("play", i, role), key=True)
        pending = self.data.get("expect_pending")
        for role in [pending] if isinstance(pending, str) else list(pending or []):
            yield from self._role(role, ("expect_pending",))
        for section in SECTIONS:
            for role in self.scenario.views(section):
                yield from self._role(role, (section, role), key=True)

    def _role(self, role: str, path: tuple[str | int, ...], key: bool = False
              ) -> Iterator[PackError]:
        if role not in self.symbols.roles:
            yield self.error(f"unknown role '{role}'", path,
                             did_you_mean(role, self.symbols.roles), key=key)

    def _expect(self) -> Iterator[PackError]:
        for i in range(len(self.scenario.expect)):
            try:
                _, checker = self.scenario.expectation(i, self.game)
            except PackError as exc:
                yield exc
                continue
            yield from checker.errors

    def _covers(self) -> Iterator[PackError]:
        rules = [rule_id for rule_id, _ in self.pack.rules]
        if not rules:
            return
        for i, rule in enumerate(self.scenario.covers):
            if rule not in rules:
                yield self.error(f"rule '{rule}' is not in the rules of {self.pack.id}",
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
