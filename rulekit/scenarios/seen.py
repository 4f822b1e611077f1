"""What a role sees, as a scenario asserts it (``sees``, ``log_for``...), read from ``observe``."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import NotRequired, TypedDict

from rulekit.engine.decisions import Decision
from rulekit.engine.game import Game, State
from rulekit.engine.helpers import pile_name
from rulekit.engine.observe import Observation
from rulekit.errors import Location, ScenarioError, did_you_mean
from rulekit.model.symbols import Symbols
from rulekit.scenarios.explain import show_value
from rulekit.scenarios.file import CheckBudget, Failure, Scenario, reference

HIDDEN = "hidden"
NOT_ASKED = "not asked"
REFERENCE_KINDS = ("card", "node", "edge", "region", "role")
LAST_LINES = 6  # lines of a log quoted when an expected line is missing
SECTIONS = ("sees", "never_sees", "log_for", "options_for")

ZONE_TESTS = ("count", "cards", "contains", "not_contains")
VALUE_TESTS = ("contains", "not_contains")
ZONE_FORMS = ("a zone is seen as `hidden`, a number of cards, the cards from the top "
              "([hidden, CARD]) or {count: N, cards: ..., contains: [...], not_contains: [...]}")
VARIABLE_FORMS = ("a variable is seen as `hidden`, a value, or {contains: [...], "
                  "not_contains: [...]} for a list")

Path = tuple[str | int, ...]


class PileView(TypedDict):
    """What a role sees of one pile: its count, and the cards it may see."""

    count: int
    cards: NotRequired[list[str | None]]


def check_views(game: Game, scenario: Scenario, state: State, budget: CheckBudget) -> None:
    """Raise a :class:`Failure` for the first false view assertion."""
    for role, seen in scenario.views("sees").items():
        _check_sees(game, scenario, state, role, seen)
    for role, ids in scenario.views("never_sees").items():
        _check_never(game, scenario, state, role, ids)
    for role, entries in scenario.views("log_for").items():
        _check_log(game, scenario, state, role, _listed(entries), budget)
    for role, wanted in scenario.views("options_for").items():
        _check_options(game, scenario, state, role, wanted)


def _kind(symbols: Symbols, ref: str) -> str:
    name = ref.split("[", 1)[0]
    return "zone" if name in symbols.zones or name not in symbols.variables else "variable"


def view_problems(game: Game, scenario: Scenario) -> Iterator[ScenarioError]:
    """Each unknown zone, variable or id that the view assertions use, one at a time."""
    symbols = game.symbols
    for role, seen in scenario.views("sees").items():
        for ref, wanted in seen.items():
            yield from _seen_problems(game, scenario, ("sees", role, ref), wanted)
    for role, ids in scenario.views("never_sees").items():
        for i, ident in enumerate(ids):
            if symbols.kind_of(ident) is None:
                yield ScenarioError(f"'{ident}' is no card, node, edge or region",
                                    scenario.at("never_sees", role, i),
                                    did_you_mean(ident, list(symbols.components())))


def _seen_problems(game: Game, scenario: Scenario, path: tuple[str, str, str],
                   wanted: object) -> Iterator[ScenarioError]:
    symbols = game.symbols
    ref = path[-1]
    name = ref.split("[", 1)[0]
    if name not in symbols.zones and name not in symbols.variables:
        yield ScenarioError(f"unknown zone or variable '{name}'", scenario.key_at(*path),
                            did_you_mean(name, [*symbols.zones, *symbols.variables]))
        return
    kind = _kind(symbols, ref)
    try:
        reference(game, scenario, path, ref, kind)
    except ScenarioError as exc:
        yield exc
        return
    if kind == "zone":
        yield from _form_problem(scenario, path, wanted, ZONE_FORMS, ZONE_TESTS)
        yield from _id_problems(symbols, scenario, path, wanted, "card")
    else:
        yield from _form_problem(scenario, path, wanted, VARIABLE_FORMS, VALUE_TESTS)
        var_type = symbols.variables[name].type
        if var_type in REFERENCE_KINDS:
            yield from _id_problems(symbols, scenario, path, wanted, var_type)


def _form_problem(scenario: Scenario, path: Path, wanted: object, forms: str,
                  tests: tuple[str, ...]) -> Iterator[ScenarioError]:
    """A mistake in the form of what a role sees: a card id for a list, ``count`` for a variable."""
    if isinstance(wanted, dict):
        for key in wanted:
            if key not in tests:
                yield ScenarioError(f"'{key}' is no test of what a role sees here; {forms}",
                                    scenario.key_at(*path, key), did_you_mean(key, tests))
    elif tests is ZONE_TESTS and not (wanted == HIDDEN or isinstance(wanted, list) or (
            isinstance(wanted, int) and not isinstance(wanted, bool))):
        yield ScenarioError(f"{wanted!r} is no view of a zone: {forms}", scenario.at(*path))


def _values(wanted: object, path: Path) -> Iterator[tuple[object, Path]]:
    if isinstance(wanted, dict):
        for key, value in wanted.items():
            yield from _values(value, (*path, key))
    elif isinstance(wanted, list):
        for i, value in enumerate(wanted):
            yield value, (*path, i)
    else:
        yield wanted, path


def _id_problems(symbols: Symbols, scenario: Scenario, path: Path, wanted: object,
                 kind: str) -> Iterator[ScenarioError]:
    known = ids_of(symbols, kind)
    for value, at in _values(wanted, path):
        if _names_id(value, kind) and value not in known:
            yield ScenarioError(f"'{value}' is not a {kind}", scenario.at(*at),
                                did_you_mean(str(value), known))


def ids_of(symbols: Symbols, kind: str) -> list[str]:
    """The ids of the components of one kind (``card``, ``node``...), or the roles."""
    if kind == "role":
        return symbols.roles
    return [ident for ident in symbols.components() if symbols.kind_of(ident) == kind]


def _names_id(value: object, kind: str) -> bool:
    if kind == "card":
        return isinstance(value, str) and value != HIDDEN
    return value not in (HIDDEN, "none", None)


def _check_sees(game: Game, scenario: Scenario, state: State, role: str,
                seen: Mapping[str, object]) -> None:
    view = game.observe(state, role)
    for ref, wanted in seen.items():
        kind = _kind(game.symbols, ref)
        key = reference(game, scenario, ("sees", role, ref), ref, kind)
        where = ("sees", role, ref)
        if kind == "zone":
            _check_zone(game, scenario, where, role, view["zones"][key], wanted)
        else:
            _check_variable(game, scenario, where, role, view["vars"], key, wanted)


def _check_zone(game: Game, scenario: Scenario, path: tuple[str, ...], role: str,
                pile: PileView, wanted: object) -> None:
    count = pile["count"]
    cards = pile.get("cards", [None] * count)
    seen: list[object] = [HIDDEN if card is None else card for card in reversed(cards)]
    what = f"{role} sees {path[-1]} as {_pile_text(seen, game.symbols)}"
    plain = "count" if isinstance(wanted, int) else "cards"  # a count, or the cards
    tests = wanted if isinstance(wanted, dict) else {plain: wanted}
    for test, value in tests.items():
        problem = _zone_problem(test, value, count, seen, game.symbols)
        if problem is not None:
            at = (*path, test) if isinstance(wanted, dict) else path
            raise Failure(f"{problem}: {what}", scenario.at(*at))


def _zone_problem(test: str, value: object, count: int, seen: list[object], symbols: Symbols
                  ) -> str | None:
    """What a pile seen as ``seen`` (top first) fails of one test, or None."""
    if test == "count":
        return f"expected {value} card(s)" if count != value else None
    if test == "cards":
        if value == HIDDEN and any(card != HIDDEN for card in seen):
            return "expected hidden"
        if isinstance(value, list) and seen != value:
            return f"expected {_pile_text(value, symbols)}"
        return None
    present = _hashable(seen)
    wrong_cards = [card for card in _listed(value) if _fails(test, card in present)]
    if not wrong_cards:
        return None
    text = _pile_text(wrong_cards, symbols)
    return f"expected {text} among the cards" if test == "contains" else f"expected no {text}"


def _listed(value: object) -> list[object]:
    return value if isinstance(value, list) else [value]


def _hashable(values: list[object]) -> set[object]:
    """The items of a list that a written value may equal (lists and mappings never do)."""
    return {value for value in values if not isinstance(value, list | dict)}


def _pile_text(cards: Sequence[object], symbols: Symbols) -> str:
    return "[" + ", ".join(HIDDEN if card == HIDDEN else show_value(card, symbols)
                           for card in cards) + "]"


def _check_variable(game: Game, scenario: Scenario, path: tuple[str, ...], role: str,
                    seen: Mapping[str, object], key: str, wanted: object) -> None:
    ref = path[-1]
    symbols = game.symbols
    at = scenario.at(*path)
    if wanted == HIDDEN:
        if key in seen:
            raise Failure(f"expected {ref} hidden from {role}, but {role} sees "
                          f"{ref} = {show_value(seen[key], symbols)}", at)
        return
    if key not in seen:
        raise Failure(f"expected {role} to see {ref}, but it is hidden from {role}", at)
    value = seen[key]
    shown = f"{role} sees {ref} = {show_value(value, symbols)}"
    if isinstance(wanted, dict):
        _check_value_tests(scenario, path, symbols, _listed(value), wanted, shown)
        return
    if wanted == "none" and symbols.variables[key.split(".")[0]].type != "text":
        wanted = None
    if value != wanted:
        raise Failure(f"expected {show_value(wanted, symbols)}: {shown}", at)


def _check_value_tests(scenario: Scenario, path: tuple[str, ...], symbols: Symbols,
                       items: list[object], tests: Mapping[str, object], shown: str) -> None:
    present = _hashable(items)
    for test, listed in tests.items():
        wanted = _listed(listed)
        if any(_fails(test, v in present) for v in wanted):
            none = "" if test == "contains" else "none of "
            raise Failure(f"expected {none}{show_value(wanted, symbols)} in it: {shown}",
                          scenario.at(*path, test))


def _check_never(game: Game, scenario: Scenario, state: State, role: str,
                 ids: list[str]) -> None:
    found: dict[str, str] = {}
    for text, where in _strings(game.observe(state, role)):
        for part in [text, *text.split("+")]:  # an option id names its items: a+b
            found.setdefault(part, where)
    for i, ident in enumerate(ids):
        if ident in found:
            raise Failure(f"{role} sees {show_value(ident, game.symbols)} "
                          f"(in {found[ident]})", scenario.at("never_sees", role, i))


def _strings(view: Observation) -> Iterator[tuple[str, str]]:
    for section, kind in (("zones", "zone"), ("vars", "variable")):
        for key, value in view[section].items():
            for text in _texts(value):
                yield text, f"{kind} {pile_name(key)}"
    for section, where in (("decisions", "its decision"), ("log", "its log"),
                           ("result", "the result")):
        for text in _texts(view[section]):
            yield text, where


def _texts(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict | list):
        for item in value.values() if isinstance(value, dict) else value:
            yield from _texts(item)


def _check_log(game: Game, scenario: Scenario, state: State, role: str,
               entries: list[object], budget: CheckBudget) -> None:
    """Check a role's log; each line or text looked for costs ``budget`` a step a log line."""
    lines = [game.format_event(e) for e in game.observe(state, role)["log"]]
    lowered = [line.lower() for line in lines]
    after = 0
    for i, entry in enumerate(entries):
        at = scenario.at("log_for", role, i)
        if isinstance(entry, str):
            budget.spend(len(lines), at)
            after = _line_after(role, lines, entry, after, at) + 1
        elif isinstance(entry, dict):
            for test, texts in entry.items():
                budget.spend(len(lines) * len(_listed(texts)), at)
                _check_log_test(scenario, role, (lines, lowered), (i, test), _listed(texts))


def _line_after(role: str, lines: list[str], entry: str, after: int, at: Location) -> int:
    """The first line from ``after`` that ``entry`` matches."""
    parts = entry.split("*")
    found = next((k for k in range(after, len(lines)) if _matches(parts, lines[k])), None)
    if found is None:
        where = f" after the line '{lines[after - 1]}'" if after else ""
        raise Failure(f"{role}'s log has no line '{entry}'{where}" + _last_lines(lines), at)
    return found


def _check_log_test(scenario: Scenario, role: str, log: tuple[list[str], list[str]],
                    path: tuple[int, str], texts: list[object]) -> None:
    """Check ``contains`` or ``not_contains`` of ``texts`` against the log, in any case."""
    test = path[1]
    lines, lowered = log
    for text in map(str, texts):
        hits = [line for line, low in zip(lines, lowered, strict=True) if text.lower() in low]
        if _fails(test, bool(hits)):
            message = f"no line of {role}'s log contains '{text}'" + _last_lines(lines) \
                if test == "contains" else f"{role}'s log contains '{text}': '{hits[0]}'"
            raise Failure(message, scenario.at("log_for", role, *path))


def _fails(test: str, present: bool) -> bool:
    """Whether ``contains`` fails (absent) or ``not_contains`` does (present)."""
    return present == (test == "not_contains")


def _matches(parts: list[str], line: str) -> bool:
    """Whether ``line`` is ``parts`` with any text between each two, each where it first fits."""
    if len(parts) == 1:
        return line == parts[0]
    first, *middle, last = parts
    end = len(line) - len(last)
    if end < len(first) or not line.startswith(first) or not line.endswith(last):
        return False
    at = len(first)
    for part in middle:
        at = line.find(part, at, end)
        if at < 0:
            return False
        at += len(part)
    return True


def _last_lines(lines: list[str]) -> str:
    if not lines:
        return " (the log is empty)"
    return f"; its last lines: {' | '.join(lines[-LAST_LINES:])}"


def _check_options(game: Game, scenario: Scenario, state: State, role: str,
                   wanted: object) -> None:
    decision = game.decision_for(state, role)
    at = scenario.at("options_for", role)
    if wanted == NOT_ASKED:
        if decision is not None:
            raise Failure(f"expected {role} not to be asked, but {role} is asked: "
                          f"{decision.prompt}", at)
        return
    if decision is None:
        raise Failure(f"expected {role} to be asked, but {role} has no decision to take", at)
    offered = _offered(game, decision)
    shown = f"{role} is offered " + ", ".join(
        ident if ident.lower() == label.lower() else f"{ident} ({label})"
        for ident, label in offered)
    known = {name.lower() for option in offered for name in option}
    if isinstance(wanted, list) and not _same_options(wanted, offered, known):
        raise Failure(f"expected the options {', '.join(map(str, wanted))}: {shown}", at)
    if isinstance(wanted, dict):
        for test, listed in wanted.items():
            _check_option_test(scenario, role, known, test, _listed(listed), shown)


def _same_options(wanted: list[object], offered: list[tuple[str, str]], known: set[str]
                  ) -> bool:
    """Whether ``wanted`` names each option offered (by id or label), and nothing else."""
    names = {_name(w) for w in wanted}
    return names <= known and all(i.lower() in names or label.lower() in names
                                  for i, label in offered)


def _check_option_test(scenario: Scenario, role: str, known: set[str], test: str,
                       items: list[object], shown: str) -> None:
    at = scenario.at("options_for", role, test)
    for item in items:
        if _fails(test, _name(item) in known):
            message = f"expected '{item}' among the options" if test == "contains" else \
                f"expected no option '{item}'"
            raise Failure(f"{message}: {shown}", at)


def _offered(game: Game, decision: Decision) -> list[tuple[str, str]]:
    """The id and label of each option; a choice of several items offers each item."""
    if decision.kind == "subset":
        items = [(ident, decision.item_label(item) or game.label(item))
                 for ident, item in zip(decision.ids, decision.items, strict=True)]
        return items + [(o.id, o.label) for o in decision.extras]
    return [(option.id, option.label) for option in decision.options()]


def _name(wanted: object) -> str:
    """An option as a scenario names it, in the case options are compared in."""
    return str(wanted).strip().lower()

