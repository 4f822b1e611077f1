"""What a role sees, as a scenario asserts it: ``sees``, ``never_sees``, ``log_for`` and
``options_for`` (see the scenarios section of ``docs/pack-format.md``).

Every assertion reads ``Game.observe(state, role)`` or ``Game.pending(state)``, what a player or
a bot is given, never the state itself. :func:`view_problems` finds the names that do not exist
(before anything runs: ``rulekit validate``); :func:`check_views` checks a finished scenario.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from rulekit.engine.decisions import Decision, item_ids
from rulekit.engine.game import Game, State
from rulekit.errors import did_you_mean
from rulekit.model.symbols import Symbols
from rulekit.scenarios.explain import show_value
from rulekit.scenarios.file import Failure, Scenario, reference

HIDDEN = "hidden"
ASKED, NOT_ASKED = "asked", "not asked"
REFERENCE_KINDS = ("card", "node", "edge", "region", "role")
LAST_LINES = 6  # lines of a log quoted when an expected line is missing


def view_problems(game: Game, scenario: Scenario) -> list[Failure]:
    """Every unknown role, zone, variable, card or component the view assertions name."""
    return list(_problems(game, scenario))


def check_views(game: Game, scenario: Scenario, state: State) -> None:
    """Raise a :class:`Failure` for the first view assertion that does not hold."""
    problems = view_problems(game, scenario)
    if problems:
        raise problems[0]
    data = scenario.data
    for role, seen in (data.get("sees") or {}).items():
        view = game.observe(state, role)
        for ref, wanted in seen.items():
            kind = _kind(game.symbols, ref)
            key = reference(game, scenario, ("sees", role, ref), ref, kind)
            where = ("sees", role, ref)
            if kind == "zone":
                _check_zone(game, scenario, where, role, view["zones"][key], wanted)
            else:
                _check_variable(game, scenario, where, role, view["vars"], key, wanted)
    for role, ids in (data.get("never_sees") or {}).items():
        _check_never(game, scenario, role, game.observe(state, role), ids)
    for role, entries in (data.get("log_for") or {}).items():
        lines = [game.format_event(e) for e in game.observe(state, role)["log"]]
        _check_log(scenario, role, lines, entries)
    for role, wanted in (data.get("options_for") or {}).items():
        _check_options(game, scenario, role, game.decision_for(state, role), wanted)


# ------------------------------------------------------------------ names


def _kind(symbols: Symbols, ref: str) -> str:
    name = ref.split("[", 1)[0]
    return "zone" if name in symbols.zones or name not in symbols.variables else "variable"


def _problems(game: Game, scenario: Scenario) -> Iterator[Failure]:
    symbols = game.symbols
    data = scenario.data
    for section in ("sees", "never_sees", "log_for", "options_for"):
        for role in data.get(section) or {}:
            if role not in symbols.roles:
                hint = did_you_mean(role, symbols.roles)
                yield Failure(f"unknown role '{role}'" + (f"; {hint}" if hint else ""),
                              scenario.key_at(section, role))
    for role, seen in (data.get("sees") or {}).items():
        for ref, wanted in seen.items():
            name = ref.split("[", 1)[0]
            if name not in symbols.zones and name not in symbols.variables:
                hint = did_you_mean(name, [*symbols.zones, *symbols.variables])
                yield Failure(f"unknown zone or variable '{name}'"
                              + (f"; {hint}" if hint else ""),
                              scenario.key_at("sees", role, ref))
                continue
            kind = _kind(symbols, ref)
            try:
                reference(game, scenario, ("sees", role, ref), ref, kind)
            except Failure as failure:
                yield failure
                continue
            path = ("sees", role, ref)
            if kind == "zone":
                yield from _form_problem(scenario, path, wanted, ZONE_FORMS, ZONE_TESTS)
                yield from _card_problems(symbols, scenario, path, wanted)
            else:
                yield from _form_problem(scenario, path, wanted, VARIABLE_FORMS, VALUE_TESTS)
                var_type = symbols.variables[name].type
                for value, at in _values(wanted, path):
                    if var_type in REFERENCE_KINDS and value not in (HIDDEN, "none", None):
                        yield from _id_problem(symbols, scenario, at, value, var_type)
    for role, ids in (data.get("never_sees") or {}).items():
        for i, ident in enumerate(ids):
            if symbols.kind_of(ident) is None:
                hint = did_you_mean(ident, list(symbols.components()))
                yield Failure(f"'{ident}' is no card, node, edge or region"
                              + (f"; {hint}" if hint else ""),
                              scenario.at("never_sees", role, i))


ZONE_TESTS = ("count", "cards", "contains", "not_contains")
VALUE_TESTS = ("contains", "not_contains")
ZONE_FORMS = ("a zone is seen as `hidden`, a number of cards, the cards from the top "
              "([hidden, CARD]) or {count: N, cards: ..., contains: [...], not_contains: [...]}")
VARIABLE_FORMS = ("a variable is seen as `hidden`, a value, or {contains: [...], "
                  "not_contains: [...]} for a list")


def _form_problem(scenario: Scenario, path: tuple[str | int, ...], wanted: Any, forms: str,
                  tests: tuple[str, ...]) -> Iterator[Failure]:
    """A mistake in the form of what a role sees of a zone (a card id where a list is meant,
    say) or of a variable (a zone's test such as ``count``)."""
    if isinstance(wanted, dict):
        for key in wanted:
            if key not in tests:
                hint = did_you_mean(key, tests)
                yield Failure(f"'{key}' is no test of what a role sees here; {forms}"
                              + (f"; {hint}" if hint else ""), scenario.key_at(*path, key))
    elif tests is ZONE_TESTS and not (wanted == HIDDEN or isinstance(wanted, list)
                                      or (isinstance(wanted, int)
                                          and not isinstance(wanted, bool))):
        yield Failure(f"{wanted!r} is no view of a zone: {forms}", scenario.at(*path))


def _values(wanted: Any, path: tuple[str | int, ...]
            ) -> Iterator[tuple[Any, tuple[str | int, ...]]]:
    """Each single value an assertion names, with its path."""
    if isinstance(wanted, dict):
        for key, value in wanted.items():
            yield from _values(value, (*path, key))
    elif isinstance(wanted, list):
        for i, value in enumerate(wanted):
            yield value, (*path, i)
    else:
        yield wanted, path


def _card_problems(symbols: Symbols, scenario: Scenario, path: tuple[str | int, ...],
                   wanted: Any) -> Iterator[Failure]:
    for value, at in _values(wanted, path):
        if isinstance(value, str) and value != HIDDEN:
            yield from _id_problem(symbols, scenario, at, value, "card")


def _id_problem(symbols: Symbols, scenario: Scenario, at: tuple[str | int, ...], value: Any,
                kind: str) -> Iterator[Failure]:
    known = symbols.roles if kind == "role" else [
        ident for ident in symbols.components() if symbols.kind_of(ident) == kind]
    if value not in known:
        hint = did_you_mean(str(value), known)
        yield Failure(f"'{value}' is not a {kind}" + (f"; {hint}" if hint else ""),
                      scenario.at(*at))


# ------------------------------------------------------------------ sees


def _check_zone(game: Game, scenario: Scenario, path: tuple[str, ...], role: str,
                pile: dict[str, Any], wanted: Any) -> None:
    """``pile``: the role's view of a zone, ``{"cards": [...], "count": n}`` (None for a card
    it may not see) or ``{"count": n}``."""
    count = pile["count"]
    shown = list(reversed(pile.get("cards", [None] * count)))  # top first
    seen = [HIDDEN if card is None else card for card in shown]
    what = f"{role} sees {path[-1]} as {_pile_text(seen, game.symbols)}"
    checks = wanted if isinstance(wanted, dict) else {
        "count" if isinstance(wanted, int) else "cards": wanted}
    for key, value in checks.items():
        at = scenario.at(*path, key) if isinstance(wanted, dict) else scenario.at(*path)
        if key in VALUE_TESTS and not isinstance(value, list):
            value = [value]
        if key == "count" and count != value:
            raise Failure(f"expected {value} card(s): {what}", at)
        if key == "cards":
            if value == HIDDEN and any(card != HIDDEN for card in seen):
                raise Failure(f"expected hidden: {what}", at)
            if isinstance(value, list) and seen != value:
                raise Failure(f"expected {_pile_text(value, game.symbols)}: {what}", at)
        if key == "contains":
            missing = [card for card in value if card not in seen]
            if missing:
                raise Failure(f"expected {_pile_text(missing, game.symbols)} among the "
                              f"cards: {what}", at)
        if key == "not_contains":
            present = [card for card in value if card in seen]
            if present:
                raise Failure(f"expected no {_pile_text(present, game.symbols)}: {what}", at)


def _pile_text(cards: list[Any], symbols: Symbols) -> str:
    return "[" + ", ".join(HIDDEN if card == HIDDEN else show_value(card, symbols)
                           for card in cards) + "]"


def _check_variable(game: Game, scenario: Scenario, path: tuple[str, ...], role: str,
                    seen: dict[str, Any], key: str, wanted: Any) -> None:
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
        items = value if isinstance(value, list) else [value]
        for test, listed in wanted.items():
            at = scenario.at(*path, test)
            listed = listed if isinstance(listed, list) else [listed]
            if test == "contains" and any(v not in items for v in listed):
                raise Failure(f"expected {show_value(listed, symbols)} in it: {shown}", at)
            if test == "not_contains" and any(v in items for v in listed):
                raise Failure(f"expected none of {show_value(listed, symbols)} in it: "
                              f"{shown}", at)
        return
    if wanted == "none" and symbols.variables[key.split(".")[0]].type != "text":
        wanted = None
    if value != wanted:
        raise Failure(f"expected {show_value(wanted, symbols)}: {shown}", at)


def _check_never(game: Game, scenario: Scenario, role: str, view: dict[str, Any],
                 ids: list[str]) -> None:
    found: dict[str, str] = {}
    for text, where in _strings(view):
        for part in [text, *text.split("+")]:  # an option id names its items: a+b
            found.setdefault(part, where)
    for i, ident in enumerate(ids):
        if ident in found:
            raise Failure(f"{role} sees {show_value(ident, game.symbols)} "
                          f"(in {found[ident]})", scenario.at("never_sees", role, i))


def _strings(view: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """Every text of an observation, with where it is (``zone hand[east]``, ``its log``)."""
    for section, kind in (("zones", "zone"), ("vars", "variable")):
        for key, value in view[section].items():
            name, _, index = key.partition(".")
            shown = f"{name}[{index}]" if index else name
            for text in _texts(value):
                yield text, f"{kind} {shown}"
    for section, where in (("decisions", "its decision"), ("log", "its log"),
                           ("result", "the result")):
        for text in _texts(view[section]):
            yield text, where


def _texts(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _texts(item)
    elif isinstance(value, list):
        for item in value:
            yield from _texts(item)


# ------------------------------------------------------------------ log_for


def _check_log(scenario: Scenario, role: str, lines: list[str], entries: list[Any]) -> None:
    """Plain lines must be found in order (other lines may come between); ``contains`` and
    ``not_contains`` look at every line, in any case."""
    after = 0
    for i, entry in enumerate(entries):
        at = scenario.at("log_for", role, i)
        if isinstance(entry, str):
            pattern = _line_pattern(entry)
            found = next((k for k in range(after, len(lines)) if pattern.fullmatch(lines[k])),
                         None)
            if found is None:
                where = f" after the line '{lines[after - 1]}'" if after else ""
                raise Failure(f"{role}'s log has no line '{entry}'{where}"
                              + _last_lines(lines), at)
            after = found + 1
            continue
        for test, texts in entry.items():
            for text in texts if isinstance(texts, list) else [texts]:
                hits = [line for line in lines if text.lower() in line.lower()]
                if test == "contains" and not hits:
                    raise Failure(f"no line of {role}'s log contains '{text}'"
                                  + _last_lines(lines), scenario.at("log_for", role, i, test))
                if test == "not_contains" and hits:
                    raise Failure(f"{role}'s log contains '{text}': '{hits[0]}'",
                                  scenario.at("log_for", role, i, test))


def _line_pattern(entry: str) -> re.Pattern[str]:
    """A line as written, where ``*`` stands for any text."""
    return re.compile(".*".join(re.escape(part) for part in entry.split("*")), re.DOTALL)


def _last_lines(lines: list[str]) -> str:
    if not lines:
        return " (the log is empty)"
    return f"; its last lines: {' | '.join(lines[-LAST_LINES:])}"


# ------------------------------------------------------------------ options_for


def _check_options(game: Game, scenario: Scenario, role: str, decision: Decision | None,
                   wanted: Any) -> None:
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
    if wanted == ASKED:
        return
    if isinstance(wanted, list):
        unmatched = [w for w in wanted if not any(_names(w, o) for o in offered)]
        extra = [o for o in offered if not any(_names(w, o) for w in wanted)]
        if unmatched or extra:
            raise Failure(f"expected the options {', '.join(map(str, wanted))}: {shown}", at)
        return
    for test, listed in wanted.items():
        at = scenario.at("options_for", role, test)
        for item in listed if isinstance(listed, list) else [listed]:
            present = any(_names(item, o) for o in offered)
            if test == "contains" and not present:
                raise Failure(f"expected '{item}' among the options: {shown}", at)
            if test == "not_contains" and present:
                raise Failure(f"expected no option '{item}': {shown}", at)


def _offered(game: Game, decision: Decision) -> list[tuple[str, str]]:
    """(id, label) of each option: for a choice of several items, each item that may be
    chosen (not every combination of them)."""
    if decision.kind == "subset":
        ids = decision.spec.get("ids") or item_ids(decision.items)
        items = [(ident, decision.item_label(item) or game.label(item))
                 for ident, item in zip(ids, decision.items, strict=True)]
        return items + [(o.id, o.label) for o in decision.extras]
    return [(option.id, option.label) for option in decision.options()]


def _names(wanted: Any, option: tuple[str, str]) -> bool:
    text = str(wanted).strip().lower()
    return text in (option[0].lower(), option[1].lower())
