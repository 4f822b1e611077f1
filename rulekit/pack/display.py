"""The ``display:`` section of a pack, checked: how its table looks to a player."""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, NotRequired, TypedDict

from rulekit.errors import EffectCheckError, PackError, did_you_mean
from rulekit.lang.compiler import Body
from rulekit.lang.contexts import ContextCheck
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
    places: bool = False  # a zone per place: the places that hold a card, on one line
    mark: dict[str, str] = field(default_factory=dict)  # variable per place -> word if set


@dataclass
class Column:
    """A column of a row table: a text of the row's card, or pile ``index(k)`` on row k."""

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
    """A row table: one line per pile of ``zone``, a zone per number."""

    id: str
    zone: str
    columns: tuple[Column, ...]
    name: str | None = None
    each: str | None = None

    def zones(self) -> set[str]:
        """The zone of the table, and those its columns show."""
        return {self.zone, *(zone for column in self.columns for zone in column.zones)}


@dataclass
class Panel:
    """Lines shown together; the ``status`` panel is the compact status block."""

    name: str
    items: tuple[Item, ...]
    status: bool = False


@dataclass
class Asking:
    """How the choices whose prompt starts with ``prompt`` are asked."""

    prompt: str
    ask: str | None = None
    options: str | None = None  # a row table naming the options
    key: str | None = None  # a card property the options are keyed by


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
        """How a choice with this prompt is asked, if the pack says."""
        return next((entry for entry in self.choices if prompt.startswith(entry.prompt)), None)

    def listed(self) -> set[str]:
        """The zones and variables some panel or row table shows."""
        shown = {item.ref for panel in self.panels for item in panel.items
                 if item.kind != "row"}
        return shown.union(*(row.zones() for row in self.rows.values()))


class ItemSpec(TypedDict, total=False):
    """A line of a panel, as given: one of ``var``, ``zone`` and ``row``."""

    var: str
    zone: str
    row: str
    name: str
    of: int | str
    count: bool
    whose: str
    belief: bool
    routes: bool
    group: str
    sort: str
    places: bool
    mark: dict[str, str]


class ColumnSpec(TypedDict):
    name: str
    card: NotRequired[str]
    zone: NotRequired[str | list[str]]
    first: NotRequired[int]
    every: NotRequired[int]
    side: NotRequired[str]


class RowSpec(TypedDict):
    zone: str
    columns: list[ColumnSpec]
    name: NotRequired[str]
    each: NotRequired[str]


class PanelSpec(TypedDict):
    name: str
    items: list[ItemSpec]
    status: NotRequired[bool]


class ChoiceSpec(TypedDict):
    prompt: str
    ask: NotRequired[str]
    options: NotRequired[str]
    key: NotRequired[str]


class DisplaySpec(TypedDict, total=False):
    """The ``display`` section as the pack gives it."""

    hidden: list[str]
    names: dict[str, str]
    words: dict[str, str]
    cards: dict[str, str]
    rows: dict[str, RowSpec]
    panels: list[PanelSpec]
    choices: list[ChoiceSpec]
    round: str
    context: dict[str, str]


class _Reader:
    """Checks the ``display`` section of one pack against its names."""

    def __init__(self, doc: YamlDocument, symbols: Symbols, errors: list[PackError],
                 code: Sequence[Body] = ()) -> None:
        self.doc = doc
        self.symbols = symbols
        self.errors = errors
        self.code = code
        self._secrets: ContextCheck | None = None
        self.card_props = set(symbols.properties("card")) if symbols.cards else {"id", "name"}

    def fail(self, message: str, at: JsonPath, hint: str | None = None, key: bool = False
             ) -> None:
        """Keep a mistake found at ``at``, or at its key."""
        where = self.doc.key_location(at) if key else self.doc.location(at)
        self.errors.append(EffectCheckError(message, where, hint))

    def name(self, ref: str, at: JsonPath, what: str = "zone or variable",
             key: bool = False) -> bool:
        """Whether ``ref`` names a zone or variable; an error if not."""
        symbols = self.symbols
        known = {"zone": set(symbols.zones), "variable": set(symbols.variables),
                 "zone or variable": set(symbols.zones) | set(symbols.variables)}[what]
        if ref in known:
            return True
        self.fail(f"unknown {what} '{ref}'", at, did_you_mean(ref, known), key)
        return False

    def card_property(self, prop: str | None, at: JsonPath) -> None:
        """An error if ``prop`` is given but is no card property."""
        if prop is not None and prop not in self.card_props:
            self.fail(f"unknown card property '{prop}'", at,
                      did_you_mean(prop, self.card_props) or
                      f"cards have: {', '.join(sorted(self.card_props))}")

    def keys(self, text: str, at: JsonPath, hint: str) -> list[str]:
        """The ``{key}`` names of a text; none, and an error, if its braces do not pair."""
        try:
            return [name for _, name, _, _ in string.Formatter().parse(text) if name is not None]
        except ValueError:
            self.fail("a '{' or '}' without its pair", at, hint)
            return []

    def template(self, text: str, at: JsonPath) -> None:
        """Check a text of ``{property}`` fields of a card."""
        for key in self.keys(text, at, "write {key} for a card property"):
            self.card_property(key, at)

    def per_number(self, zone: str, at: JsonPath) -> None:
        """Check that ``zone`` is a zone per number."""
        if self.name(zone, at, "zone") and not isinstance(self.symbols.zones[zone].per, int):
            self.fail(f"zone '{zone}' is not a zone per number (per: N)", at,
                      "a row table reads the piles of a zone per number")

    def read(self, data: DisplaySpec) -> Display:
        """The section, checked."""
        top: JsonPath = ("display",)
        for i, ref in enumerate(data.get("hidden", [])):
            self.name(ref, (*top, "hidden", i))
        for ref in data.get("names", {}):
            self.name(ref, (*top, "names", ref), key=True)
        self.card_texts(data.get("cards", {}))
        raw_rows = data.get("rows", {})
        rows = {rid: self.row(rid, spec) for rid, spec in raw_rows.items()}
        panels = tuple(self.panel(p, panel, raw_rows)
                       for p, panel in enumerate(data.get("panels", [])))
        choices = tuple(self.choice(c, entry, raw_rows)
                        for c, entry in enumerate(data.get("choices", [])))
        context = dict(data.get("context", {}))
        for proc, text in context.items():
            self.context_template(proc, text, (*top, "context", proc))
        return Display(True, frozenset(data.get("hidden", [])), dict(data.get("names", {})),
                       dict(data.get("words", {})), dict(data.get("cards", {})), rows,
                       panels, choices, data.get("round", "round"), context)

    def card_texts(self, texts: dict[str, str]) -> None:
        """Check the text of each type of card."""
        types = {str(p.get("type")) for p in self.symbols.cards.values()}
        for kind, text in texts.items():
            if kind not in types:
                self.fail(f"no card is of type '{kind}'", ("display", "cards", kind),
                          did_you_mean(kind, types), key=True)
            self.template(text, ("display", "cards", kind))

    def row(self, rid: str, data: RowSpec) -> Row:
        """One row table."""
        at: JsonPath = ("display", "rows", rid)
        self.per_number(data["zone"], (*at, "zone"))
        columns = tuple(self.column(col, (*at, "columns", i))
                        for i, col in enumerate(data["columns"]))
        return Row(rid, data["zone"], columns, data.get("name"), data.get("each"))

    def column(self, col: ColumnSpec, where: JsonPath) -> Column:
        """One column of a row table."""
        if "card" in col:
            self.template(col["card"], (*where, "card"))
        given = col.get("zone", [])
        zones = [given] if isinstance(given, str) else list(given)
        for j, zone in enumerate(zones):
            self.per_number(zone, (*where, "zone") if isinstance(given, str)
                            else (*where, "zone", j))
        if ("card" in col) == bool(zones):
            self.fail("a column shows either a card's text (card) or a pile (zone)", where)
        return Column(col["name"], col.get("card"), tuple(zones), col.get("first", 1),
                      col.get("every", 1), col.get("side"))

    def panel(self, p: int, panel: PanelSpec, rows: Mapping[str, object]) -> Panel:
        """One panel."""
        items = tuple(self.item(item, ("display", "panels", p, "items", i), rows)
                      for i, item in enumerate(panel["items"]))
        return Panel(panel["name"], items, bool(panel.get("status")))

    def item(self, data: ItemSpec, at: JsonPath, rows: Mapping[str, object]) -> Item:
        """One line of a panel."""
        kind: Literal["var", "zone", "row"] = \
            "var" if "var" in data else "zone" if "zone" in data else "row"
        ref = data[kind]
        if kind == "row" and ref not in rows:
            self.fail(f"unknown row table '{ref}'", (*at, "row"),
                      did_you_mean(ref, rows) or "declare it under display.rows")
        elif kind != "row":
            self.name(ref, (*at, kind), "variable" if kind == "var" else "zone")
        self.item_options(data, kind, at)
        return Item(kind, ref, data.get("name"), data.get("of"), bool(data.get("count")),
                    data.get("whose", "all"), bool(data.get("belief")),
                    bool(data.get("routes")), data.get("group"), data.get("sort"),
                    bool(data.get("places")), dict(data.get("mark", {})))

    def item_options(self, data: ItemSpec, kind: str, at: JsonPath) -> None:
        """Check the options of a line of a panel."""
        of = data.get("of")
        if isinstance(of, str) and of not in self.symbols.parameters:
            self.fail(f"unknown parameter '{of}'", (*at, "of"),
                      did_you_mean(of, self.symbols.parameters))
        if data.get("belief") and kind != "var":
            self.fail("belief applies to a variable", (*at, "belief"))
        self.card_property(data.get("group"), (*at, "group"))
        self.card_property(data.get("sort"), (*at, "sort"))
        zone = self.symbols.zones.get(data["zone"]) if kind == "zone" else None
        if data.get("places") and (zone is None or zone.per not in ("node", "edge", "region")):
            self.fail("places applies to a zone per place (per: node, edge or region)",
                      (*at, "places"))
        for var in data.get("mark", {}):
            self.name(var, (*at, "mark", var), "variable", key=True)

    def choice(self, c: int, entry: ChoiceSpec, rows: Mapping[str, object]) -> Asking:
        """How some choices are asked."""
        options = entry.get("options")
        if options is not None and options not in rows:
            self.fail(f"unknown row table '{options}'", ("display", "choices", c, "options"),
                      did_you_mean(options, rows))
        self.card_property(entry.get("key"), ("display", "choices", c, "key"))
        return Asking(entry["prompt"], entry.get("ask"), options, entry.get("key"))

    def context_template(self, proc: str, text: str, at: JsonPath) -> None:
        """Check a ``context:`` entry: a procedure, and a text of its parameters."""
        decl = self.symbols.procedures.get(proc)
        if decl is None:
            self.fail(f"unknown procedure '{proc}'", at,
                      did_you_mean(proc, self.symbols.procedures), key=True)
            return
        params = dict(decl.params)
        for key in self.keys(text, at, "write {param} for a parameter"):
            self.context_key(proc, params, text, key, at)

    def context_key(self, proc: str, params: Mapping[str, str], text: str, key: str,
                    at: JsonPath) -> None:
        """Check a field of a context: ``step``, a parameter, a public variable, or a sum."""
        if "+" in key:
            for part in key.split("+"):
                self.context_key(proc, params, text, part.strip(), at)
            return
        name, _, prop = key.partition(".")
        var = self.symbols.variables.get(name)
        if var is not None and name not in params and not prop and var.per is None \
                and var.visibility == "public":
            return
        if name != "step" and name not in params:
            self.fail(f"'{name}' is not a parameter of '{proc}'", at,
                      did_you_mean(name, [*params, "step"]) or
                      f"its parameters: {', '.join(params) or 'none'}; and step")
        elif prop and not (params.get(name) == "card" and prop in self.card_props):
            self.fail(f"'{key}': only a card parameter has properties", at,
                      did_you_mean(prop, self.card_props))
        elif name != "step":
            self.context_secret(proc, text, key, at)

    def context_secret(self, proc: str, text: str, key: str, at: JsonPath) -> None:
        """Check that a field shows only what the deciding player sees."""
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


def read_display(doc: YamlDocument, data: DisplaySpec | None, symbols: Symbols,
                 errors: list[PackError], code: Sequence[Body] = ()) -> Display:
    """The pack's ``display:`` section, checked; its mistakes go to ``errors``."""
    if not isinstance(data, dict):
        return Display()
    return _Reader(doc, symbols, errors, () if errors else code).read(data)


__all__ = ["Asking", "Column", "Display", "Item", "Panel", "Row", "read_display"]
