"""A pack's rules as Markdown: effect code as written, the author's YAML comments as prose."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rulekit.pack.loader import LoadedPack
from rulekit.pack.merge import ENTRY_NAMES, REMOVABLE
from rulekit.scenarios.runner import Scenario
from rulekit.source.document import YamlDocument

__all__ = ["rules_document"]

CODE = "rulekit"  # the info string of effect-code blocks
_CARD_KEYS = ("id", "name", "copies", "type", "text", "effects", "anytime")
_COMMENT_LINE = re.compile(r"^\s*#\s?(.*)$")
_CARD_LITERAL = re.compile(r"@([A-Za-z0-9_]+)")  # the id of each card literal, as ``@id#2``

Row = Sequence[object]  # the cells of a table's row


def rules_document(pack: LoadedPack, scenarios: list[Scenario], name: str,
                   base_scenarios: Sequence[Scenario]) -> str:
    """The rules of ``pack``, named ``name``, with the coverage its scenarios give."""
    return _Writer(pack, scenarios, name, base_scenarios).document()


@dataclass
class _Card:
    """A card as the pack writes it, before copies are made."""

    id: str
    name: str
    copies: int
    type: str
    text: object  # None if the card has no text
    props: dict[str, object]  # its other properties
    effects: list[str]  # the procedures it gives its own version of
    actions: list[str]  # the ids of the anytime actions it carries

    @classmethod
    def of(cls, entry: Mapping[str, Any]) -> _Card:
        """The card of an entry of the ``cards`` section."""
        return cls(str(entry["id"]), str(entry.get("name", entry["id"])),
                   int(entry.get("copies", 1)), str(entry.get("type", "")), entry.get("text"),
                   {key: value for key, value in entry.items() if key not in _CARD_KEYS},
                   list(entry.get("effects") or {}),
                   [str(action["id"]) for action in entry.get("anytime") or []])


class _Source:
    """The merged sections of a loaded pack, and the comments their authors wrote."""

    def __init__(self, pack: LoadedPack) -> None:
        self.content = pack.content
        data = None if self.content is None else self.content.data
        self.data: dict[str, Any] = data if isinstance(data, dict) else {}

    def get(self, key: str, default: Any = None) -> Any:
        """The value of section ``key``, or ``default`` if it has none."""
        value = self.data.get(key)
        return default if value is None else value

    def comment(self, section: str, path: Sequence[str | int]) -> str:
        """The comments above the key at ``(section, *path)``, else the one on its line."""
        if self.content is None:
            return ""
        doc, full = self.content.resolve((section, *path))  # the file it was read from
        if not doc.has_path(full):
            return ""
        line = doc.key_location(full).line
        above = _comments_above(doc, line)
        if above:
            return " ".join(above)
        return _trailing_comment(doc.source_line(line) or "")


def _comments_above(doc: YamlDocument, line: int) -> list[str]:
    """The comments just above ``line``, up to a ``# ---`` rule."""
    found: list[str] = []
    number = line - 1
    while (text := doc.source_line(number)) is not None and (
            match := _COMMENT_LINE.match(text)) and not text.lstrip().startswith("# ---"):
        found.insert(0, match.group(1).strip())
        number -= 1
    return found


def _trailing_comment(line: str) -> str:
    """The comment at the end of a YAML line, if any: a ``#`` outside quotes, after a space."""
    quote = ""
    for i, char in enumerate(line):
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and (i == 0 or line[i - 1] in " \t"):
            return line[i + 1:].strip()
    return ""


class _Writer:
    """Writes the sections of one pack's rules document."""

    def __init__(self, pack: LoadedPack, scenarios: list[Scenario], name: str,
                 base_scenarios: Sequence[Scenario]) -> None:
        self.pack = pack
        self.name = name
        self.manifest = pack.manifest
        self.source = _Source(pack)
        self.scenarios = scenarios
        self.base_scenarios = base_scenarios
        self.game = pack.game
        self.role_names = self.game.role_names

    def document(self) -> str:
        """The whole document: its sections that have something to say."""
        sections = (self.title(), self.changes(), self.roles(), self.parameters(),
                    self.components(), self.setup(), self.flow(), self.end(), self.anytime(),
                    self.definitions(), self.rules())
        return "\n\n".join(section.strip() for section in sections if section) + "\n"

    def role(self, role: str) -> str:
        name = self.role_names.get(role, role)
        return f"**{name}** ({code(role)})" if name != role else f"**{role}**"

    def snippets(self) -> Iterator[tuple[str, str]]:
        """(where, code) of every piece of effect code."""
        setup = self.source.get("setup")
        if isinstance(setup, str):
            yield "setup", setup
        flow = self.source.get("flow", {})
        for phase in flow.get("phases", []):
            yield f"phase {code(phase['id'])}", str(phase.get("do", ""))
        if "after_rounds" in flow:
            yield "after the last round", str(flow["after_rounds"])
        for name, spec in self.procedures().items():
            yield f"procedure {code(name)}", str(spec.get("do", ""))
        for name, spec in self.source.get("functions", {}).items():
            yield f"function {code(name)}", str(spec.get("returns", ""))
        for owner, name, text in self.effects():
            yield f"effect {code(name)} of {owner}", text
        for owner, action in self.card_actions():
            yield f"action {code(str(action['id']))} of {owner}", str(action["do"])
        for check in flow.get("end_when", []):
            yield "end conditions", str(check.get("when", ""))
        for action in self.source.get("anytime", []):
            yield f"anytime action {code(action['id'])}", str(action.get("when", ""))

    def procedures(self) -> dict[str, Any]:
        """The pack's procedures; not those a variant replaced, which ``base(...)`` runs."""
        return {name: spec for name, spec in self.source.get("procedures", {}).items()
                if "@" not in name}

    def carriers(self) -> Iterator[tuple[str, Mapping[str, Any]]]:
        """(whose, entry) of each card, then each card type: what may carry effects and actions."""
        for entry in self.source.get("cards", []):
            yield code(entry["id"]), entry
        for kind, spec in (self.source.get("card_types") or {}).items():
            yield f"the cards of type {code(kind)}", spec

    def effects(self) -> Iterator[tuple[str, str, str]]:
        """(whose, procedure, code) of each effect of a card or a card type."""
        for owner, entry in self.carriers():
            for name, text in (entry.get("effects") or {}).items():
                yield owner, name, str(text)

    def card_actions(self) -> Iterator[tuple[str, Mapping[str, Any]]]:
        """(whose, action) of each anytime action of a card or a card type."""
        for owner, entry in self.carriers():
            for action in entry.get("anytime") or []:
                yield owner, action

    def title(self) -> str:
        """The pack's name, description and version."""
        m = self.manifest
        lines = [f"# {m['name']}", ""]
        if m.get("description"):
            lines += [" ".join(str(m["description"]).split()), ""]
        lines.append(f"*Rules of the pack {code(m['id'])}, version {m['version']}, written by "
                     f"`rulekit docs` from the pack itself.*")
        return "\n".join(lines)

    def changes(self) -> str:
        """What a variant changes of its base: each entry it adds, replaces or removes."""
        pack = self.pack
        if pack.base_id is None:
            return ""
        own = [doc.data for doc in pack.documents if not doc.origin]  # (each a mapping)
        base = [doc.data for doc in pack.documents if doc.origin]
        lines = ["## What this variant changes", "",
                 f"{self.manifest['name']} extends {code(pack.base_id)}. Everything else is "
                 "the base's.", ""]
        return "\n".join(lines + [f"- {what}: {how}" for what, how in _changes(own, base)])

    def roles(self) -> str:
        """The players, in seating order."""
        lines = ["## Players", "", "In seating order:", ""]
        lines += [f"- {self.role(role)}" for role in self.game.roles]
        return "\n".join(lines)

    def parameters(self) -> str:
        """The parameters, with their defaults and bounds."""
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
        """The cards, the map, the zones and the variables."""
        parts = [part for part in (self.cards(), self.board(), self.zones(), self.variables())
                 if part]
        return "\n\n".join(["## Components", *parts]) if parts else ""

    def cards(self) -> str:
        """The cards, a table per type."""
        cards = [_Card.of(entry) for entry in self.source.get("cards", [])]
        if not cards:
            return ""
        mentions = self.card_mentions(cards)
        shown = mentions if any(mentions.values()) else None  # no column if none is named
        lines = [f"### Cards ({len(self.game.symbols.cards)})"]
        prose = self.source.comment("cards", ())
        if prose:
            lines += ["", prose]
        for kind in dict.fromkeys(card.type for card in cards):
            group = [card for card in cards if card.type == kind]
            heading = f"type {code(kind)}" if kind else "without a type"
            lines += ["", f"#### Cards of {heading} ({sum(card.copies for card in group)})", "",
                      _card_table(group, shown)]
        return "\n".join(lines)

    def card_mentions(self, cards: list[_Card]) -> dict[str, list[str]]:
        """Card id -> where effect code names it (``@id`` or ``@id#n``)."""
        named: dict[str, list[str]] = {}
        for where, text in self.snippets():
            for ident in _CARD_LITERAL.findall(text):
                named.setdefault(ident, []).append(where)
        types = self.source.get("card_types") or {}
        found: dict[str, list[str]] = {}
        for card in cards:
            places = [f"effect {code(name)}" for name in card.effects]
            places += [f"effect {code(name)} of its type"
                       for name in (types.get(card.type) or {}).get("effects") or {}]
            places += [f"action {code(name)}" for name in card.actions]
            found[card.id] = list(dict.fromkeys(places + named.get(card.id, [])))
        return found

    def board(self) -> str:
        """The map: its regions, then its places and their routes."""
        board = self.game.symbols.board
        if not board.nodes:
            return ""
        lines = [f"### Map ({len(board.nodes)} places, {len(board.edges)} routes)", ""]
        if board.regions:
            lines += [self.regions(), ""]
        places = [(props.get("name", ident), code(ident),
                   ", ".join(board.nodes[other].get("name", other)
                             for other in board.neighbors(ident)))
                  for ident, props in board.nodes.items()]
        lines.append(table(("place", "id", "routes to"), places))
        return "\n".join(lines)

    def regions(self) -> str:
        """The table of the map's regions and their places."""
        board = self.game.symbols.board
        rows = []
        for region, props in board.regions.items():
            places = [p.get("name", ident) for ident, p in board.nodes.items()
                      if p.get("region") == region]
            rows.append((props.get("name", region), code(region), len(places), ", ".join(places)))
        return table(("region", "id", "places", "names"), rows)

    def zones(self) -> str:
        """The zones: who sees them, what they start with."""
        zones = self.game.symbols.zones
        if not zones:
            return ""
        return "\n".join([
            "### Zones", "", "Piles of cards; draws take from the top.", "",
            table(("zone", "one per", "seen by", "starts with", "holds at most", "notes"),
                  [self.zone_row(name) for name in zones])])

    def zone_row(self, name: str) -> Row:
        zone = self.game.symbols.zones[name]
        initial = ", ".join(zone.initial) if isinstance(zone.initial, list) else zone.initial
        seen_by = _visibility(zone.visibility, zone.per, zone.owner, self.role_names) \
            + (" (sizes are public)" if zone.visibility == "hidden" else "")
        return (code(name), _per(zone.per), seen_by, initial or "", zone.capacity or "",
                self.source.comment("zones", (name,)))

    def variables(self) -> str:
        """The variables: where they start, their bounds, who sees them."""
        variables = self.game.symbols.variables
        if not variables:
            return ""
        rows = [(code(name), _per(var.per), _value(var.initial), _bounds(var.minimum, var.maximum),
                 _visibility(var.visibility, var.per, var.owner, self.role_names),
                 self.source.comment("variables", (name,))) for name, var in variables.items()]
        return "\n".join(["### Variables", "",
                          table(("variable", "one per", "starts at", "bounds", "seen by",
                                 "notes"), rows)])

    def setup(self) -> str:
        """The setup's code."""
        setup = self.source.get("setup")
        if not isinstance(setup, str) or not setup.strip():
            return ""
        return "\n".join(_piece("## Setup", "Once, before the first round:", setup))

    def flow(self) -> str:
        """The round's phases in order, each with its code."""
        flow = self.source.get("flow", {})
        phases = flow.get("phases", [])
        lines = ["## Flow", "", self.flow_intro(phases, flow.get("rounds"))]
        for number, phase in enumerate(phases, start=1):
            lines += ["", *self.phase(number, phase)]
        if "after_rounds" in flow:
            lines += ["", *_piece("### After the last round", None, flow["after_rounds"])]
        return "\n".join(lines)

    def flow_intro(self, phases: list[Mapping[str, object]], rounds: object) -> str:
        names = ", ".join(str(p.get("name", p["id"])) for p in phases)
        intro = f"Each round runs its phases in this order: {names}."
        if rounds is None:
            return f"{intro} Rounds go on until the game ends."
        declared = self.manifest.get("parameters") or {}
        note = f" (the parameter, {declared[rounds]['default']} unless changed)" \
            if isinstance(rounds, str) and rounds in declared else ""
        return f"{intro} The game has at most {code(rounds)} rounds{note}."

    def phase(self, number: int, phase: Mapping[str, object]) -> list[str]:
        """The lines of one phase: its heading, its prose, its code."""
        prose = phase.get("description") or self.source.comment("flow", ("phases", number - 1))
        return _piece(f"### {number}. {phase.get('name', phase['id'])} (phase "
                      f"{code(phase['id'])})", prose, phase.get("do", ""))

    def end(self) -> str:
        """How the game ends."""
        flow = self.source.get("flow", {})
        lines = ["## End of the game", "", *self.end_conditions(flow.get("end_when", []))]
        if "after_rounds" in flow:
            lines += ["", "After the last round, the code of *After the last round* "
                      "decides (see the flow)."]
        elif flow.get("rounds") is not None:
            lines += ["", "A game that reaches the end of its last round has no winner."]
        return "\n".join(lines) if len(lines) > 2 else ""

    def end_conditions(self, checks: list[Mapping[str, str]]) -> list[str]:
        if not checks:
            return []
        lines = ["The game ends the moment one of these holds (checked after every change, "
                 "in this order):", ""]
        for check in checks:
            reason = f": {check['reason']}" if check.get("reason") else ""
            lines.append(f"- when {code(check['when'])}, {self.role(check['winner'])} "
                         f"wins{reason}")
        return lines

    def anytime(self) -> str:
        """The anytime actions: who may take them, and when."""
        actions = self.game.symbols.anytime
        if not actions:
            return ""
        rows = [(self.role(a.role), a.label, code(a.when) if a.when else "always",
                 code(a.procedure) if a.card is None else f"the action of {code(a.card)}")
                for a in actions]
        return "\n".join([
            "## Anytime actions", "",
            "Extra options a player has at each of their decisions; after one runs, the same "
            "decision is asked again.", "",
            table(("player", "action", "offered when", "runs"), rows)])

    def definitions(self) -> str:
        """The functions, then the procedures, each with its code."""
        procedures = self.procedures()
        functions = self.source.get("functions", {})
        if not procedures and not functions:
            return ""
        lines = ["## Procedures and functions", "",
                 "The named pieces of code the flow and the cards use."]
        for kind, specs, key in (("function", functions, "returns"),
                                 ("procedure", procedures, "do")):
            for name, spec in specs.items():
                lines += ["", *self.definition(kind, name, spec, key)]
        for owner, name, text in self.effects():
            lines += ["", *_piece(f"### Effect {code(name)} of {owner}",
                                  f"Runs instead of the procedure {code(name)} for these cards.",
                                  text)]
        for owner, action in self.card_actions():
            when = f" and {code(str(action['when']))} holds" if "when" in action else ""
            lines += ["", *_piece(f"### Action {code(str(action['id']))} of {owner}",
                                  f"Offered while the card lies in {code(str(action['zone']))}"
                                  f"{when}; {code('card')} is the card, {code('player')} the "
                                  "role taking it.", action["do"])]
        return "\n".join(lines)

    def definition(self, kind: str, name: str, spec: Mapping[str, Any], key: str) -> list[str]:
        params = ", ".join(f"{p}: {t}" for p, t in (spec.get("params") or {}).items())
        return _piece(f"### {kind.capitalize()} {code(f'{name}({params})')}",
                      self.source.comment(f"{kind}s", (name,)), spec.get(key, ""))

    def rules(self) -> str:
        """Every rule, with the scenarios that cover it."""
        rules = self.pack.rules
        if not rules:
            return ""
        covering = self.covering()
        covered = sum(1 for rule_id, _ in rules if rule_id in covering)
        lines = ["## Rules", "",
                 f"{len(rules)} rules; {covered} are covered by scenario tests "
                 f"(`rulekit test {self.name}` runs them)."]
        for rule_id, text in rules:
            lines += ["", *_rule(rule_id, text, covering.get(rule_id, []), self.pack.base_id)]
        unknown = sorted(set(covering) - {rule_id for rule_id, _ in rules})
        if unknown:
            lines += ["", "Scenarios also name rule ids that are not in the rules file: "
                      + ", ".join(code(r) for r in unknown) + "."]
        return "\n".join(lines)

    def covering(self) -> dict[str, list[str]]:
        covering: dict[str, list[str]] = {}
        named = [(s, s.name) for s in self.scenarios]
        named += [(s, f"{self.pack.base_id}: {s.name}") for s in self.base_scenarios]
        for scenario, name in named:
            for rule in scenario.covers:
                covering.setdefault(rule, []).append(name)
        return covering


# The parts of a content file a variant replaces whole, as ``flow.rounds``.
_WHOLE = ("setup", "flow.rounds", "flow.after_rounds", "flow.end_when", "flow.evaluate",
          "flow.initiative")


def _part(data: Mapping[str, Any], keys: Sequence[str | int]) -> object:
    """The value at a path of keys (``flow``, ``rounds``) of a file's data, or None."""
    value: object = data
    for key in keys:
        value = value.get(key) if isinstance(value, Mapping) else None
    return value


def _entries(data: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    """(kind, name) of each entry a content file gives."""
    for path, kind in ENTRY_NAMES.items():
        part = _part(data, path) if path[0] != "properties" else None
        if isinstance(part, Mapping):
            yield from ((kind, str(name)) for name in part)
        elif isinstance(part, list):
            yield from ((kind, str(item["id"])) for item in part
                        if isinstance(item, Mapping) and "id" in item)


def _changes(own: list[dict[str, Any]], base: list[dict[str, Any]]
             ) -> Iterator[tuple[str, str]]:
    """(what, how) of each parameter, entry and part that the files ``own`` change."""
    params: dict[str, dict[str, Any]] = {}
    for data in base:  # (the base of a base first)
        for name, spec in (data.get("parameters") or {}).items():
            params[name] = {**params.get(name, {}), **spec}
    known = {entry for data in base for entry in _entries(data)}
    for data in own:  # (the parameters are in the manifest, the first file)
        for name, spec in (data.get("parameters") or {}).items():
            yield f"parameter {code(name)}", _parameter_change(spec, params.get(name))
        for kind, name in _entries(data):
            yield f"{kind} {code(name)}", "replaced" if (kind, name) in known else "added"
        for section, names in (data.get("remove") or {}).items():
            yield from ((f"{ENTRY_NAMES[REMOVABLE[section]]} {code(name)}", "removed")
                        for name in names)
        yield from ((code(key), "replaced") for key in _WHOLE if _part(data, key.split(".")))


def _parameter_change(spec: Mapping[str, Any], old: Mapping[str, Any] | None) -> str:
    if old is None:
        return f"added (default {spec.get('default')})"
    said = [f"{key} {spec[key]} (was {old.get(key, '-')})" for key in ("default", "min", "max")
            if key in spec and spec[key] != old.get(key)]
    return ", ".join(said) or "described anew"


def _piece(heading: str, prose: object, text: object) -> list[str]:
    """The lines of a piece of effect code: its heading, its prose if any, the code."""
    return [heading, "", *([str(prose), ""] if prose else []), fenced(str(text), CODE)]


def _rule(rule_id: str, text: str, scenarios: list[str], base: str | None) -> list[str]:
    covered = "; ".join(f"*{name}*" for name in scenarios)
    if base and any(name.startswith(f"{base}: ") for name in scenarios):
        covered += " (`rulekit test --with-base`)"
    return [f"### {rule_id}", "", " ".join(text.split()) or "*(no text)*", "",
            f"Scenarios: {covered}" if covered else "Scenarios: none yet."]


def _card_table(group: list[_Card], mentions: dict[str, list[str]] | None) -> str:
    """The table of a group of cards, with where the code names each if ``mentions``."""
    props = list(dict.fromkeys(name for card in group for name in card.props))
    texts = any(card.text is not None for card in group)
    header = ["card", "id", "copies", *props, *(["text"] if texts else []),
              *(["in the code"] if mentions is not None else [])]
    return table(header, [_card_row(card, props, texts, mentions) for card in group])


def _card_row(card: _Card, props: list[str], texts: bool,
              mentions: dict[str, list[str]] | None) -> list[object]:
    row: list[object] = [card.name, code(card.id), card.copies]
    row += [_value(card.props[p]) if p in card.props else "" for p in props]
    if texts:
        row.append("" if card.text is None else card.text)
    if mentions is not None:
        row.append(", ".join(mentions.get(card.id, [])) or "-")
    return row


def _value(value: object) -> str:
    """A value of a property or a variable, for a reader."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "nothing"
    if isinstance(value, list):
        return "[" + ", ".join(str(v) for v in value) + "]"
    return str(value)


def _bound(value: object) -> str:
    return "-" if value is None else str(value)


def _bounds(minimum: int | None, maximum: int | None) -> str:
    """A variable's bounds, such as ``0 to 5`` or ``- to 5``."""
    if minimum is None and maximum is None:
        return ""
    return f"{_bound(minimum)} to {_bound(maximum)}"


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


def cell(value: object) -> str:
    """``value`` as a table cell: one line, pipes escaped."""
    text = "" if value is None else str(value)
    return " ".join(text.split()).replace("|", "\\|")


def code(text: object) -> str:
    """``text`` as inline code, fenced by enough backticks."""
    value = " ".join(str(text).split())
    runs = [len(run) for run in re.findall(r"`+", value)]
    fence = "`" * (max(runs, default=0) + 1)
    pad = " " if value.startswith("`") or value.endswith("`") else ""
    return f"{fence}{pad}{value}{pad}{fence}"


def fenced(text: str, info: str = "") -> str:
    """``text`` as a fenced code block, fenced by enough backticks."""
    runs = [len(run) for run in re.findall(r"`{3,}", text)]
    fence = "`" * max(3, max(runs, default=0) + 1)
    return f"{fence}{info}\n{text.rstrip()}\n{fence}"


def table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A Markdown table; every value goes through :func:`cell`."""
    lines = ["| " + " | ".join(cell(h) for h in header) + " |",
             "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)
