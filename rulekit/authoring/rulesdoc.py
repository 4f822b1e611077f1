"""The rules of a pack as a Markdown document a player or reviewer can read.

``rules_document(pack, scenarios)`` writes, from a loaded pack and its scenarios: the roles, the
parameters with their defaults and bounds, the components (cards grouped by type with their
properties and texts, the map, zones, variables), the setup, the flow phase by phase, the end
conditions, the anytime actions, the procedures and functions, and every rule of the rules file
with the scenarios that cover it. Effect code is shown as it is written; the author's YAML
comments beside a declaration are its prose.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from rulekit.authoring.markdown import code, fenced, table
from rulekit.authoring.source import PackSource
from rulekit.pack.loader import LoadedPack
from rulekit.scenarios.runner import Scenario

__all__ = ["rules_document"]

CODE = "rulekit"  # the info string of effect-code blocks
_CARD_KEYS = ("id", "name", "copies", "type", "text")


def rules_document(pack: LoadedPack, scenarios: list[Scenario], name: str | None = None) -> str:
    """The Markdown rules document of ``pack``; ``scenarios`` give the rules' coverage.
    ``name`` is how the document's commands name the pack (as it was given: a folder, or an
    id that finds it); by default its id."""
    return _Writer(pack, scenarios, name or pack.id).document()


class _Writer:
    def __init__(self, pack: LoadedPack, scenarios: list[Scenario], name: str) -> None:
        self.pack = pack
        self.name = name
        self.manifest = pack.manifest
        self.source = PackSource(pack)
        self.scenarios = scenarios
        self.game = pack.game
        self.role_names = self.game.role_names

    def document(self) -> str:
        parts: list[str] = []
        for section in (self.title(), self.roles(), self.parameters(), self.components(),
                        self.setup(), self.flow(), self.end(), self.anytime(),
                        self.definitions(), self.rules()):
            if section:
                parts.append(section.strip())
        return "\n\n".join(parts) + "\n"

    # ------------------------------------------------------------ helpers

    def role(self, role: str) -> str:
        name = self.role_names.get(role, role)
        return f"**{name}** ({code(role)})" if name != role else f"**{role}**"

    def snippets(self) -> Iterator[tuple[str, str]]:
        """(where, code) of every piece of effect code, for finding what mentions a card."""
        setup = self.source.get("setup")
        if isinstance(setup, str):
            yield "setup", setup
        flow = self.source.get("flow", {})
        for phase in flow.get("phases", []):
            yield f"phase {code(phase['id'])}", str(phase.get("do", ""))
        if "after_rounds" in flow:
            yield "after the last round", str(flow["after_rounds"])
        for name, spec in self.source.get("procedures", {}).items():
            yield f"procedure {code(name)}", str(spec.get("do", ""))
        for name, spec in self.source.get("functions", {}).items():
            yield f"function {code(name)}", str(spec.get("returns", ""))
        for check in flow.get("end_when", []):
            yield "end conditions", str(check.get("when", ""))
        for action in self.source.get("anytime", []):
            yield f"anytime action {code(action['id'])}", str(action.get("when", ""))

    # ------------------------------------------------------------ sections

    def title(self) -> str:
        m = self.manifest
        lines = [f"# {m['name']}", ""]
        if m.get("description"):
            lines += [" ".join(str(m["description"]).split()), ""]
        lines.append(f"*Rules of the pack {code(m['id'])}, version {m['version']}, written by "
                     f"`rulekit docs` from the pack itself.*")
        return "\n".join(lines)

    def roles(self) -> str:
        lines = ["## Players", "", "In seating order:", ""]
        lines += [f"- {self.role(role)}" for role in self.game.roles]
        return "\n".join(lines)

    def parameters(self) -> str:
        declared: dict[str, Any] = self.manifest.get("parameters") or {}
        if not declared:
            return ""
        rows = [(code(name), spec.get("default"), _bound(spec.get("min")), _bound(spec.get("max")),
                 spec.get("description", "")) for name, spec in declared.items()]
        return "\n".join([
            "## Parameters", "",
            "Whole numbers a player may change without editing the pack "
            "(`--param NAME=VALUE`).", "",
            table(("parameter", "default", "min", "max", "what it sets"), rows)])

    def components(self) -> str:
        parts = ["## Components"]
        for part in (self.cards(), self.board(), self.zones(), self.variables()):
            if part:
                parts.append(part)
        return "\n\n".join(parts) if len(parts) > 1 else ""

    def cards(self) -> str:
        entries: list[dict[str, Any]] = self.source.get("cards", [])
        if not entries:
            return ""
        groups: dict[str, list[dict[str, Any]]] = {}
        for entry in entries:
            groups.setdefault(str(entry.get("type", "")), []).append(entry)
        mentions = self.card_mentions(entries)
        total = len(self.game.symbols.cards)
        lines = [f"### Cards ({total})"]
        prose = self.source.comment("cards", ())
        if prose:
            lines += ["", prose]
        mentioned = any(mentions.values())
        for kind, group in groups.items():
            count = sum(int(e.get("copies", 1)) for e in group)
            heading = f"type {code(kind)}" if kind else "without a type"
            lines += ["", f"#### Cards of {heading} ({count})", ""]
            props = _property_names(group)
            has_text = any("text" in e for e in group)
            header = ["card", "id", "copies", *props]
            if has_text:
                header.append("text")
            if mentioned:
                header.append("in the code")
            rows = []
            for entry in group:
                row: list[object] = [entry.get("name", entry["id"]), code(entry["id"]),
                                     entry.get("copies", 1)]
                row += [_value(entry[p]) if p in entry else "" for p in props]
                if has_text:
                    row.append(entry.get("text", ""))
                if mentioned:
                    row.append(", ".join(mentions.get(entry["id"], [])) or "-")
                rows.append(row)
            lines.append(table(header, rows))
        return "\n".join(lines)

    def card_mentions(self, entries: list[dict[str, Any]]) -> dict[str, list[str]]:
        """Card id -> where the effect code names it (``@id`` or ``@id#n``)."""
        snippets = list(self.snippets())
        found: dict[str, list[str]] = {}
        for entry in entries:
            pattern = re.compile(rf"@{re.escape(entry['id'])}(?![A-Za-z0-9_])")
            for where, text in snippets:
                if pattern.search(text) and where not in found.setdefault(entry["id"], []):
                    found[entry["id"]].append(where)
        return found

    def board(self) -> str:
        board = self.game.symbols.board
        if not board.nodes:
            return ""
        lines = [f"### Map ({len(board.nodes)} places, {len(board.edges)} routes)", ""]
        if board.regions:
            rows = []
            for region, props in board.regions.items():
                places = [p.get("name", ident) for ident, p in board.nodes.items()
                          if p.get("region") == region]
                rows.append((props.get("name", region), code(region), len(places),
                             ", ".join(places)))
            lines += [table(("region", "id", "places", "names"), rows), ""]
        places = []
        for ident, props in board.nodes.items():
            near = [board.nodes[other].get("name", other) for other in board.neighbors(ident)]
            places.append((props.get("name", ident), code(ident), ", ".join(near)))
        lines.append(table(("place", "id", "routes to"), places))
        return "\n".join(lines)

    def zones(self) -> str:
        zones = self.game.symbols.zones
        if not zones:
            return ""
        rows = []
        for name, zone in zones.items():
            initial = zone.initial
            if isinstance(initial, list):
                initial = ", ".join(initial)
            seen_by = _visibility(zone.visibility, zone.per, zone.owner, self.role_names)
            if zone.visibility == "hidden":
                seen_by += " (sizes are public)"
            rows.append((code(name), _per(zone.per), seen_by, initial or "",
                         zone.capacity or "", self.source.comment("zones", (name,))))
        return "\n".join([
            "### Zones", "", "Piles of cards; draws take from the top.", "",
            table(("zone", "one per", "seen by", "starts with", "holds at most", "notes"),
                  rows)])

    def variables(self) -> str:
        variables = self.game.symbols.variables
        if not variables:
            return ""
        rows = []
        for name, var in variables.items():
            bounds = " to ".join(_bound(b) for b in (var.minimum, var.maximum)) \
                if var.minimum is not None or var.maximum is not None else ""
            rows.append((code(name), _per(var.per), _value(var.initial), bounds,
                         _visibility(var.visibility, var.per, var.owner, self.role_names),
                         self.source.comment("variables", (name,))))
        return "\n".join(["### Variables", "",
                          table(("variable", "one per", "starts at", "bounds", "seen by",
                                 "notes"), rows)])

    def setup(self) -> str:
        setup = self.source.get("setup")
        if not isinstance(setup, str) or not setup.strip():
            return ""
        return "\n".join(["## Setup", "", "Once, before the first round:", "",
                          fenced(setup, CODE)])

    def flow(self) -> str:
        flow = self.source.get("flow", {})
        phases = flow.get("phases", [])
        rounds = flow.get("rounds")
        lines = ["## Flow", ""]
        names = ", ".join(str(p.get("name", p["id"])) for p in phases)
        if rounds is None:
            lines.append(f"Each round runs its phases in this order: {names}. Rounds go on "
                         "until the game ends.")
        else:
            lines.append(f"Each round runs its phases in this order: {names}. The game has "
                         f"at most {code(rounds)} rounds{self.rounds_note(rounds)}.")
        for i, phase in enumerate(phases, start=1):
            lines += ["", f"### {i}. {phase.get('name', phase['id'])} "
                      f"(phase {code(phase['id'])})", ""]
            prose = phase.get("description") or self.source.comment(
                "flow", ("phases", i - 1))
            if prose:
                lines += [str(prose), ""]
            lines.append(fenced(str(phase.get("do", "")), CODE))
        if "after_rounds" in flow:
            lines += ["", "### After the last round", "",
                      fenced(str(flow["after_rounds"]), CODE)]
        return "\n".join(lines)

    def rounds_note(self, rounds: Any) -> str:
        declared = self.manifest.get("parameters") or {}
        if isinstance(rounds, str) and rounds in declared:
            return f" (the parameter, {declared[rounds]['default']} unless changed)"
        return ""

    def end(self) -> str:
        flow = self.source.get("flow", {})
        checks = flow.get("end_when", [])
        lines = ["## End of the game", ""]
        if checks:
            lines += ["The game ends the moment one of these holds (checked after every "
                      "change, in this order):", ""]
            for check in checks:
                reason = f": {check['reason']}" if check.get("reason") else ""
                lines.append(f"- when {code(check['when'])}, {self.role(check['winner'])} "
                             f"wins{reason}")
        if "after_rounds" in flow:
            lines += ["", "After the last round, the code of *After the last round* "
                      "decides (see the flow)."]
        elif flow.get("rounds") is not None:
            lines += ["", "A game that reaches the end of its last round has no winner."]
        return "\n".join(lines) if len(lines) > 2 else ""

    def anytime(self) -> str:
        actions = self.game.symbols.anytime
        if not actions:
            return ""
        rows = [(self.role(a.role), a.label, code(a.when) if a.when else "always",
                 code(a.procedure)) for a in actions]
        return "\n".join([
            "## Anytime actions", "",
            "Extra options a player has at each of their decisions; after one runs, the same "
            "decision is asked again.", "",
            table(("player", "action", "offered when", "runs"), rows)])

    def definitions(self) -> str:
        procedures = self.source.get("procedures", {})
        functions = self.source.get("functions", {})
        if not procedures and not functions:
            return ""
        lines = ["## Procedures and functions", "",
                 "The named pieces of code the flow and the cards use."]
        for kind, table_, key in (("function", functions, "returns"),
                                  ("procedure", procedures, "do")):
            for name, spec in table_.items():
                params = ", ".join(f"{p}: {t}" for p, t in (spec.get("params") or {}).items())
                lines += ["", f"### {kind.capitalize()} {code(f'{name}({params})')}", ""]
                prose = self.source.comment(f"{kind}s", (name,))
                if prose:
                    lines += [prose, ""]
                lines.append(fenced(str(spec.get(key, "")), CODE))
        return "\n".join(lines)

    def rules(self) -> str:
        rules = self.pack.rules
        if not rules:
            return ""
        covering: dict[str, list[str]] = {}
        for scenario in self.scenarios:
            for rule in scenario.covers:
                covering.setdefault(rule, []).append(scenario.name)
        covered = sum(1 for rule_id, _ in rules if covering.get(rule_id))
        lines = ["## Rules", "",
                 f"{len(rules)} rules; {covered} are covered by scenario tests "
                 f"(`rulekit test {self.name}` runs them)."]
        for rule_id, text in rules:
            lines += ["", f"### {rule_id}", "", " ".join(text.split()) or "*(no text)*", ""]
            names = covering.get(rule_id, [])
            if names:
                lines.append("Scenarios: " + "; ".join(f"*{name}*" for name in names))
            else:
                lines.append("Scenarios: none yet.")
        unknown = sorted({r for r in covering} - {rule_id for rule_id, _ in rules})
        if unknown:
            lines += ["", "Scenarios also name rule ids that are not in the rules file: "
                      + ", ".join(code(r) for r in unknown) + "."]
        return "\n".join(lines)


def _property_names(entries: list[dict[str, Any]]) -> list[str]:
    names: list[str] = []
    for entry in entries:
        names += [k for k in entry if k not in _CARD_KEYS and k not in names]
    return names


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "nothing"
    if isinstance(value, list):
        return "[" + ", ".join(str(v) for v in value) + "]"
    return str(value)


def _bound(value: Any) -> str:
    return "-" if value is None else str(value)


def _per(per: str | int | None) -> str:
    if per is None:
        return ""
    return f"number 1 to {per}" if isinstance(per, int) else per


def _visibility(visibility: str, per: str | int | None, owner: str | None,
                role_names: dict[str, str]) -> str:
    if visibility == "owner":
        if owner is not None:
            return f"{role_names.get(owner, owner)} only"
        return "its owner only" if per == "role" else "its owner"
    return {"public": "everyone", "hidden": "nobody",
            "card_owner": "each card by its owner"}.get(visibility, visibility)
