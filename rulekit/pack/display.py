"""The ``display:`` section of a pack: how its table looks to a player, checked against the
pack's names.

The section (see ``docs/pack-format.md``) names zones and variables, hides bookkeeping, groups
what is shown in panels (one of them the compact status block), reads a zone per number as a
row table, gives the text of each type of card and the words for text values, and says how
some decisions are asked. :func:`read_display` turns it into a :class:`Display`, reporting
every unknown name at its place in the file with a "did you mean" hint; a pack without the
section gets an empty :class:`Display` (its table is drawn as by default). A ``context:``
field that may show the player who decides what they may not see is an error too (see
:mod:`rulekit.lang.contexts`).
"""

from __future__ import annotations

import string
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rulekit.errors import EffectCheckError, PackError, did_you_mean
from rulekit.lang.contexts import CodeBody, ContextCheck
from rulekit.model.symbols import Symbols
from rulekit.source.document import JsonPath, YamlDocument


@dataclass
class Item:
    """One line of a panel: a variable, a zone or a row table."""

    kind: str  # "var", "zone" or "row"
    ref: str
    name: str | None = None
    of: int | str | None = None  # "of N": a number or a parameter's name
    count: bool = False
    whose: str = "all"  # "you": only the viewer's value of a per-role zone or variable
    belief: bool = False
    routes: bool = False
    group: str | None = None  # a card property the zone's cards are grouped by
    sort: str | None = None  # a card property they are sorted by, highest first


@dataclass
class Column:
    """A column of a row table: a text from the row's card, or the pile of a zone per number
    numbered ``first + every * (k - 1)`` on row k (the first of ``zones`` that holds a card)."""

    name: str
    card: str | None = None
    zones: tuple[str, ...] = ()
    first: int = 1
    every: int = 1
    side: str | None = None

    def index(self, row: int) -> int:
        return self.first + self.every * (row - 1)

    def row_of(self, number: int) -> int | None:
        """The row whose pile of this column is ``number``, if any."""
        if not self.zones or number < self.first or (number - self.first) % self.every:
            return None
        return (number - self.first) // self.every + 1


@dataclass
class Row:
    """A row table: one line per pile of ``zone`` (a zone per number)."""

    id: str
    zone: str
    columns: tuple[Column, ...]
    name: str | None = None
    each: str | None = None


@dataclass
class Panel:
    name: str
    items: tuple[Item, ...]
    status: bool = False


@dataclass
class Asking:
    """How the choices whose prompt starts with ``prompt`` are asked."""

    prompt: str
    ask: str | None = None
    options: str | None = None  # a row table naming the options


@dataclass
class Display:
    """A pack's ``display:`` section, checked."""

    declared: bool = False
    hidden: frozenset[str] = frozenset()
    names: dict[str, str] = field(default_factory=dict)
    words: dict[str, str] = field(default_factory=dict)
    cards: dict[str, str] = field(default_factory=dict)
    rows: dict[str, Row] = field(default_factory=dict)
    panels: tuple[Panel, ...] = ()
    choices: tuple[Asking, ...] = ()
    round: str = "round"  # what the pack calls a round
    # By procedure: a template of what a decision asked inside it is about (``context:``).
    context: dict[str, str] = field(default_factory=dict)

    def asking(self, prompt: str) -> Asking | None:
        for entry in self.choices:
            if prompt.startswith(entry.prompt):
                return entry
        return None

    def listed(self) -> set[str]:
        """The zones and variables some panel or row table shows."""
        shown = {item.ref for panel in self.panels for item in panel.items
                 if item.kind != "row"}
        for row in self.rows.values():
            shown.add(row.zone)
            shown.update(zone for column in row.columns for zone in column.zones)
        return shown


def template_keys(text: str) -> list[str] | None:
    """The ``{key}`` names of a text (None if its braces are unbalanced)."""
    try:
        return [name for _, name, _, _ in string.Formatter().parse(text) if name is not None]
    except ValueError:
        return None


class _Reader:
    def __init__(self, doc: YamlDocument, symbols: Symbols, errors: list[PackError],
                 code: Sequence[CodeBody] = ()) -> None:
        self.doc = doc
        self.symbols = symbols
        self.errors = errors
        self.code = code
        self._secrets: ContextCheck | None = None
        self.card_props = set(symbols.properties("card")) if symbols.cards else {"id", "name"}

    def fail(self, message: str, at: JsonPath, hint: str | None = None, key: bool = False
             ) -> None:
        where = self.doc.key_location(at) if key else self.doc.location(at)
        self.errors.append(EffectCheckError(message, where, hint))

    def name(self, ref: str, at: JsonPath, what: str = "zone or variable",
             key: bool = False) -> bool:
        symbols = self.symbols
        known = {"zone": set(symbols.zones), "variable": set(symbols.variables),
                 "zone or variable": set(symbols.zones) | set(symbols.variables)}[what]
        if ref in known:
            return True
        self.fail(f"unknown {what} '{ref}'", at, did_you_mean(ref, known), key)
        return False

    def template(self, text: str, at: JsonPath) -> None:
        keys = template_keys(text)
        if keys is None:
            self.fail("a '{' or '}' without its pair", at, "write {key} for a card property")
            return
        for key in keys:
            if key not in self.card_props:
                self.fail(f"unknown card property '{key}'", at,
                          did_you_mean(key, self.card_props) or
                          f"cards have: {', '.join(sorted(self.card_props))}")

    def per_number(self, zone: str, at: JsonPath) -> None:
        if self.name(zone, at, "zone") and not isinstance(self.symbols.zones[zone].per, int):
            self.fail(f"zone '{zone}' is not a zone per number (per: N)", at,
                      "a row table reads the piles of a zone per number")

    def row(self, rid: str, data: dict[str, Any]) -> Row:
        at: JsonPath = ("display", "rows", rid)
        self.per_number(data["zone"], (*at, "zone"))
        columns = []
        for i, col in enumerate(data["columns"]):
            where = (*at, "columns", i)
            if "card" in col:
                self.template(col["card"], (*where, "card"))
            zones = col.get("zone", [])
            zones = [zones] if isinstance(zones, str) else list(zones)
            for j, zone in enumerate(zones):
                self.per_number(zone, (*where, "zone") if isinstance(col["zone"], str)
                                else (*where, "zone", j))
            if ("card" in col) == bool(zones):
                self.fail("a column shows either a card's text (card) or a pile (zone)", where)
            columns.append(Column(col["name"], col.get("card"), tuple(zones),
                                  col.get("first", 1), col.get("every", 1), col.get("side")))
        return Row(rid, data["zone"], tuple(columns), data.get("name"), data.get("each"))

    def item(self, data: dict[str, Any], at: JsonPath, rows: dict[str, Any]) -> Item:
        kind = "var" if "var" in data else "zone" if "zone" in data else "row"
        ref = data[kind]
        if kind == "row":
            if ref not in rows:
                self.fail(f"unknown row table '{ref}'", (*at, "row"),
                          did_you_mean(ref, rows) or "declare it under display.rows")
        else:
            self.name(ref, (*at, kind), "variable" if kind == "var" else "zone")
        of = data.get("of")
        if isinstance(of, str) and of not in self.symbols.parameters:
            self.fail(f"unknown parameter '{of}'", (*at, "of"),
                      did_you_mean(of, self.symbols.parameters))
        if data.get("belief") and kind != "var":
            self.fail("belief applies to a variable", (*at, "belief"))
        for key in ("group", "sort"):
            prop = data.get(key)
            if prop is not None and prop not in self.card_props:
                self.fail(f"unknown card property '{prop}'", (*at, key),
                          did_you_mean(prop, self.card_props))
        return Item(kind, ref, data.get("name"), of, bool(data.get("count")),
                    data.get("whose", "all"), bool(data.get("belief")),
                    bool(data.get("routes")), data.get("group"), data.get("sort"))

    def read(self, data: dict[str, Any]) -> Display:
        top: JsonPath = ("display",)
        for i, ref in enumerate(data.get("hidden", [])):
            self.name(ref, (*top, "hidden", i))
        for ref in data.get("names", {}):
            self.name(ref, (*top, "names", ref), key=True)
        types = {str(p.get("type")) for p in self.symbols.cards.values()}
        for kind, text in data.get("cards", {}).items():
            if kind not in types:
                self.fail(f"no card is of type '{kind}'", (*top, "cards", kind),
                          did_you_mean(kind, types), key=True)
            self.template(text, (*top, "cards", kind))
        raw_rows = data.get("rows", {})
        rows = {rid: self.row(rid, spec) for rid, spec in raw_rows.items()}
        panels = []
        for p, panel in enumerate(data.get("panels", [])):
            items = tuple(self.item(item, (*top, "panels", p, "items", i), raw_rows)
                          for i, item in enumerate(panel["items"]))
            panels.append(Panel(panel["name"], items, bool(panel.get("status"))))
        choices = []
        for c, entry in enumerate(data.get("choices", [])):
            options = entry.get("options")
            if options is not None and options not in raw_rows:
                self.fail(f"unknown row table '{options}'", (*top, "choices", c, "options"),
                          did_you_mean(options, raw_rows))
            choices.append(Asking(entry["prompt"], entry.get("ask"), options))
        context = dict(data.get("context", {}))
        for proc, text in context.items():
            self.context_template(proc, text, (*top, "context", proc))
        return Display(True, frozenset(data.get("hidden", [])), dict(data.get("names", {})),
                       dict(data.get("words", {})), dict(data.get("cards", {})), rows,
                       tuple(panels), tuple(choices), data.get("round", "round"), context)

    def context_template(self, proc: str, text: str, at: JsonPath) -> None:
        """A ``context:`` entry: a procedure of the pack, a text of its parameters."""
        decl = self.symbols.procedures.get(proc)
        if decl is None:
            self.fail(f"unknown procedure '{proc}'", at,
                      did_you_mean(proc, self.symbols.procedures), key=True)
            return
        keys = template_keys(text)
        if keys is None:
            self.fail("a '{' or '}' without its pair", at, "write {param} for a parameter")
            return
        params = dict(decl.params)
        for key in keys:
            name, _, prop = key.partition(".")
            if name != "step" and name not in params:
                self.fail(f"'{name}' is not a parameter of '{proc}'", at,
                          did_you_mean(name, [*params, "step"]) or
                          f"its parameters: {', '.join(params) or 'none'}; and step")
            elif prop and (params.get(name) != "card" or prop not in self.card_props):
                self.fail(f"'{key}': only a card parameter has properties", at,
                          did_you_mean(prop, self.card_props))
            elif name != "step":
                self.context_secret(proc, text, key, at)

    def context_secret(self, proc: str, text: str, key: str, at: JsonPath) -> None:
        """A field shows each player deciding inside ``proc`` only what they see."""
        if not self.code:
            return
        if self._secrets is None:
            self._secrets = ContextCheck(self.symbols, self.code)
        leak = self._secrets.leak(proc, key.partition(".")[0])
        if leak is None:
            return
        offset = max(text.find("{" + key), 0)
        line = text.count("\n", 0, offset) + 1
        column = offset - (text.rfind("\n", 0, offset) + 1) + 1
        passed = "" if leak.site == leak.read else f", passed at {leak.site}"
        self.errors.append(EffectCheckError(
            f"a context is shown to the player who decides inside '{proc}', here "
            f"{leak.decider}, who may not see '{{{key}}}': it may hold {leak.what} (read at "
            f"{leak.read}{passed})", self.doc.text_location(at, line, column),
            "name in a context only what every player deciding inside it sees: public data, "
            "their own piles, what they chose; wrap in reveal(...) what the rules make public"))


def read_display(doc: YamlDocument | None, data: Any, symbols: Symbols,
                 errors: list[PackError], code: Sequence[CodeBody] = ()) -> Display:
    """The pack's ``display:`` section (``data``, from ``doc``), its mistakes added to
    ``errors``; an empty :class:`Display` when the pack has none. With the pack's checked
    ``code`` (and no error so far), what its contexts may show is checked too."""
    if doc is None or not isinstance(data, dict):
        return Display()
    return _Reader(doc, symbols, errors, () if errors else code).read(data)


__all__ = ["Asking", "Column", "Display", "Item", "Panel", "Row", "read_display",
           "template_keys"]
