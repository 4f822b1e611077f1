"""Build the symbols of a pack: every name it declares, with what it declares of each."""

from __future__ import annotations

import re
import string
from collections.abc import Mapping
from typing import Literal, NotRequired, TypedDict

from rulekit.engine.state import Value
from rulekit.errors import Location, SchemaError
from rulekit.lang.checker import RUNTIME_NAMES
from rulekit.lang.parser import KEYWORDS
from rulekit.limits import MAX_COPIES
from rulekit.model.symbols import AnytimeDecl, FuncDecl, ProcDecl, Symbols, VarDecl, ZoneDecl
from rulekit.pack.board import read_board
from rulekit.pack.documents import Documents, known, snippet
from rulekit.pack.effects import card_actions, copy_ids, seen_at
from rulekit.pack.params import outside, resolve_params
from rulekit.source.document import JsonPath, YamlDocument

_PROPERTY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

Card = dict[str, Value]
"""A card's id, name and other properties: values of the effect language."""

Per = str | int
"""What a zone or variable is indexed by: ``role``, ``node``, ``edge``, ``region``, or N."""


class HeldSpec(TypedDict, total=False):
    """What zones and variables both declare: how many, and who sees them."""

    per: Per
    per_role: bool
    visibility: str
    owner: str
    public: bool


class ZoneSpec(HeldSpec, total=False):
    """A zone as the ``zones`` section declares it."""

    initial: Literal["all"] | list[str]
    capacity: int
    on_enter: str


class VariableSpec(HeldSpec, total=False):
    """A variable as the ``variables`` section declares it."""

    initial: Value
    min: int
    max: int
    on_change: str
    type: str


class AnytimeSpec(TypedDict):
    """An anytime action as the ``anytime`` section declares it."""

    id: str
    role: str
    do: str
    label: NotRequired[str]
    when: NotRequired[str]


class Declarations:
    """Reads the declarations of one pack into :class:`~rulekit.model.symbols.Symbols`."""

    def __init__(self, docs: Documents) -> None:
        self.errors = docs.errors
        self.doc = docs.content  # the pack's sections, merged
        self.sections = self.doc.data
        self.entries: dict[str, int] = {}  # the entry of each card id

    def error(self, message: str, where: Location | None, hint: str | None = None) -> None:
        """Keep a mistake."""
        self.errors.append(SchemaError(message, where, hint))

    def build(self, manifest_doc: YamlDocument,
              overrides: Mapping[str, str | int]) -> tuple[Symbols, dict[str, str]]:
        """The symbols of the pack, and the labels of its components."""
        self.manifest_doc = manifest_doc
        roles = self._ids(self.manifest_doc, ("roles",), "role")
        params = self._params(overrides)
        cards = self._cards()
        symbols = Symbols(roles=roles, cards=cards, zones=self._zones(cards, roles),
                          variables={name: self._variable(name, spec, roles) for name, spec
                                     in self.sections.get("variables", {}).items()},
                          parameters=params)
        if "map" in self.sections:
            read_board(self.doc, self.sections["map"], symbols, self.errors)
        for var in symbols.variables.values():  # an untyped id is of its component's kind
            if var.declared_type is None and isinstance(var.initial, str):
                var.declared_type = symbols.reference_type(var.initial)
        self._check_clashes(symbols)
        labels = self._card_labels(cards)
        for table in (symbols.board.nodes, symbols.board.edges, symbols.board.regions):
            labels.update({ident: str(props.get("name", ident)) for ident, props in table.items()})
        self._declare_code(symbols)
        for i, spec in enumerate(self.sections.get("anytime", [])):
            symbols.anytime.append(self._anytime_action(("anytime", i), spec, symbols))
        symbols.anytime += card_actions(self.doc, symbols, self.errors, self.entries)
        self._triggers(symbols)
        return symbols, labels

    def _ids(self, doc: YamlDocument, path: JsonPath, what: str) -> list[str]:
        """The ids of the items of the list at ``path``, each given once."""
        items = doc.data
        for key in path:
            items = items.get(key, [])
        ids = [str(item["id"]) for item in items]
        for i, ident in enumerate(ids):
            if ident in ids[:i]:
                self.error(f"{what} '{ident}' is given twice", doc.location((*path, i, "id")),
                           f"give each {what} its own id")
        return ids

    def _params(self, overrides: Mapping[str, str | int]) -> dict[str, int]:
        """The value of each parameter: its default, or the one given."""
        declared = self.manifest_doc.data.get("parameters", {}) or {}
        for name, spec in declared.items():
            if outside(spec["default"], spec.get("min"), spec.get("max")):
                self.error(f"default {spec['default']} of parameter '{name}' is outside its "
                           "bounds", self.manifest_doc.location(("parameters", name, "default")))
        return resolve_params(declared, overrides)

    def _cards(self) -> dict[str, Card]:
        """Each card by id; the copies of a card are ``ID#1``, ``ID#2``..."""
        cards: dict[str, Card] = {}
        entries = self.entries
        for i, entry in enumerate(self.sections.get("cards", [])):
            props = {k: v for k, v in entry.items()
                     if k not in ("id", "copies", "effects", "anytime")}
            props.setdefault("name", entry["id"])
            ids = self._card_ids(i, entry["id"], entry.get("copies", 1))
            clash = next((entries[card_id] for card_id in ids if card_id in entries), None)
            if clash is not None:  # one error for the entry, whatever its copies
                where = self.doc.location(("cards", i, "id"))
                self.error(f"card '{entry['id']}' is given twice: its ids are those of the "
                           f"entry at {seen_at(self.doc.location(('cards', clash, 'id')), where)}",
                           where, "give each card entry its own id (copies: N makes ID#1 to ID#N)")
                continue
            for card_id in ids:
                entries[card_id] = i
                cards[card_id] = {"id": card_id, **props}
        return cards

    def _card_ids(self, i: int, ident: str, copies: int) -> list[str]:
        """The ids of the copies of card entry ``i``; none if too many."""
        if copies > MAX_COPIES:
            self.error(f"{copies:,} copies of card '{ident}' are too many; the limit is "
                       f"{MAX_COPIES:,}", self.doc.location(("cards", i, "copies")))
            return []
        return copy_ids(ident, copies)

    def _per(self, path: JsonPath, spec: HeldSpec) -> Per | None:
        """The ``per`` of a zone or variable; ``per_role: true`` is ``per: role``."""
        per = spec.get("per")
        if spec.get("per_role"):
            if per not in (None, "role"):
                self.error("give either per or per_role, not both",
                           self.doc.location((*path, "per")))
            per = "role"
        if isinstance(per, int) and per > MAX_COPIES:
            self.error(f"per: {per:,} asks for too many piles or values; the limit is "
                       f"{MAX_COPIES:,}", self.doc.location((*path, "per")))
            return 1
        return per if isinstance(per, int) else str(per) if per else None

    def _owner(self, path: JsonPath, spec: HeldSpec, per: Per | None,
               roles: list[str]) -> str | None:
        """The role that owns a zone or variable, if any."""
        kind = "zone" if path[0] == "zones" else "variable"
        owner = spec.get("owner")
        if owner is not None:
            self._check_owner(kind, path, spec, per, roles)
        elif spec.get("visibility") == "owner" and per != "role":
            self.error(f"{kind} '{path[1]}' has visibility 'owner' but no owner",
                       self.doc.location((*path, "visibility")),
                       "add per: role (one per role), or owner: ROLE")
        return owner

    def _check_owner(self, kind: str, path: JsonPath, spec: HeldSpec, per: Per | None,
                     roles: list[str]) -> None:
        """Check an owner: a known role, the only one to see what it owns."""
        owner = spec.get("owner")
        where = self.doc.location((*path, "owner"))
        known(str(owner), roles, "role", where, self.errors)
        if spec.get("visibility", "public") == "public" and not spec.get("public"):
            self.error(f"{kind} '{path[1]}' has an owner but is public: every player sees it",
                       where, "add visibility: owner to show it to its owner only, or "
                       "public: true if every player may see it")
        if per == "role":
            self.error(f"a {kind} per role is owned by each role; remove owner", where)

    def _zones(self, cards: Mapping[str, Card], roles: list[str]) -> dict[str, ZoneDecl]:
        zones: dict[str, ZoneDecl] = {}
        placed: dict[str, str] = {}  # the zone each card starts in
        for name, spec in self.sections.get("zones", {}).items():
            zones[name] = self._zone(name, spec, roles)
            self._initial_cards(zones[name], cards, placed)
        return zones

    def _zone(self, name: str, spec: ZoneSpec, roles: list[str]) -> ZoneDecl:
        path = ("zones", name)
        per = self._per(path, spec)
        return ZoneDecl(name, per, spec.get("visibility", "public"), spec.get("initial"),
                        self.doc.key_location(path), self._owner(path, spec, per, roles),
                        spec.get("capacity"), spec.get("on_enter"))

    def _initial_cards(self, zone: ZoneDecl, cards: Mapping[str, Card],
                       placed: dict[str, str]) -> None:
        initial = list(cards) if zone.initial == "all" else (zone.initial or [])
        where = self.doc.location(("zones", zone.name, "initial"))
        if zone.initial is not None and zone.per:
            self.error(f"zone '{zone.name}' has several piles and cannot have initial cards",
                       where, "move cards there in setup")
        if zone.capacity is not None and len(initial) > zone.capacity:
            self.error(f"zone '{zone.name}' holds at most {zone.capacity} card(s) but starts "
                       f"with {len(initial)}", where)
        for i, card_id in enumerate(initial):
            self._place(zone.name, ("zones", zone.name, "initial", i), card_id, cards, placed)

    def _place(self, zone: str, path: JsonPath, card_id: str, cards: Mapping[str, Card],
               placed: dict[str, str]) -> None:
        """Note that a card starts in ``zone``, once."""
        if not known(card_id, cards, "card", self.doc.location(path), self.errors):
            return
        if card_id in placed:
            self.error(f"card '{card_id}' already starts in zone '{placed[card_id]}'",
                       self.doc.location(path))
        else:
            placed[card_id] = zone

    def _variable(self, name: str, spec: VariableSpec, roles: list[str]) -> VarDecl:
        path = ("variables", name)
        per = self._per(path, spec)
        var = VarDecl(name, spec.get("initial", 0), per, spec.get("min"), spec.get("max"),
                      spec.get("visibility", "public"), self.doc.key_location(path),
                      self._owner(path, spec, per, roles), spec.get("on_change"),
                      spec.get("type"))
        initial = var.initial
        if isinstance(initial, int) and not isinstance(initial, bool) and outside(
                initial, var.minimum, var.maximum):
            self.error(f"initial value {initial} of '{name}' is outside its bounds",
                       self.doc.location((*path, "initial")))
        return var

    def _check_clashes(self, symbols: Symbols) -> None:
        """Check that no name is a word, nor names two things."""
        seen: dict[str, str] = {}
        kinds = [("role", symbols.roles), ("parameter", list(symbols.parameters)),
                 ("zone", list(symbols.zones)), ("variable", list(symbols.variables))]
        for kind, names in kinds:
            for name in names:
                if name in KEYWORDS or name in RUNTIME_NAMES:
                    self.error(f"'{name}' is a word of the effect language and cannot name a "
                               f"{kind}", self._where(kind, name), "choose another name")
                earlier = seen.get(name)
                if earlier is not None and not (kind == "role" == earlier):  # see _ids
                    self.error(f"'{name}' is both a {earlier} and a {kind}",
                               self._where(kind, name), "give them different names")
                seen[name] = kind

    def _where(self, kind: str, name: str) -> Location | None:
        manifest = self.manifest_doc
        if kind == "role":
            ids = [r["id"] for r in manifest.data["roles"]]
            return manifest.location(("roles", ids.index(name), "id"))
        if kind == "parameter":
            return manifest.key_location(("parameters", name))
        section = {"zone": "zones", "variable": "variables"}.get(kind, "")
        return self.doc.key_location((section, name)) if section in self.sections else None

    def _card_labels(self, cards: Mapping[str, Card]) -> dict[str, str]:
        """Each card's label, by the manifest's ``display.card_label``."""
        display = self.manifest_doc.data.get("display") or {}
        template = display.get("card_label", "{name}")
        fields = self._label_fields(template)
        if fields is None:
            return {}
        missing = next(((card_id, field) for card_id, props in cards.items()
                        for field in fields if field not in props), None)
        if missing is not None:
            self.error(f"card '{missing[0]}' has no '{missing[1]}' for the card_label template",
                       self.manifest_doc.location(("display", "card_label")))
            return {}
        return {card_id: template.format_map(props) for card_id, props in cards.items()}

    def _label_fields(self, template: str) -> list[str] | None:
        """The property names a card_label template shows; None, with an error, if not plain."""
        where = self.manifest_doc.location(("display", "card_label"))
        try:
            fields = [(field, bool(_PROPERTY.fullmatch(field)) and not (spec or conversion))
                      for _, field, spec, conversion in string.Formatter().parse(template)
                      if field is not None]
        except ValueError as exc:
            self.error(f"card_label is not a valid template: {exc}", where,
                       "write {{ and }} for literal braces")
            return None
        bad = next((field for field, plain in fields if not plain), None)
        if bad is not None:
            self.error(f"card_label field '{{{bad}}}' is not a card property name", where,
                       "a field is {property}, such as {name}; write {{ and }} for braces")
            return None
        return [field for field, _ in fields]

    def _declare_code(self, symbols: Symbols) -> None:
        doc = self.doc
        for name, spec in self.sections.get("functions", {}).items():
            symbols.functions[name] = FuncDecl(
                name, list(spec.get("params", {}).items()),
                snippet(doc, ("functions", name, "returns")),
                location=doc.key_location(("functions", name)))
        for name, spec in self.sections.get("procedures", {}).items():
            if name in KEYWORDS:
                self.error(f"'{name}' is a word of the effect language and cannot name a "
                           "procedure", doc.key_location(("procedures", name)),
                           "choose another name")
            symbols.procedures[name] = ProcDecl(
                name, list(spec.get("params", {}).items()),
                snippet(doc, ("procedures", name, "do")),
                location=doc.key_location(("procedures", name)))
        if "flow" in self.sections:
            symbols.phases = self._ids(self.doc, ("flow", "phases"), "phase")

    def _anytime_action(self, path: JsonPath, spec: AnytimeSpec,
                        symbols: Symbols) -> AnytimeDecl:
        decl = AnytimeDecl(spec["id"], spec["role"], spec.get("label", spec["id"]), spec["do"],
                           spec.get("when"), self.doc.location(path),
                           snippet(self.doc, (*path, "when")) if "when" in spec else None)
        known(decl.role, symbols.roles, "role", self.doc.location((*path, "role")), self.errors)
        where = self.doc.location((*path, "do"))
        if known(decl.procedure, symbols.procedures, "procedure", where, self.errors) \
                and symbols.procedures[decl.procedure].params:
            self.error(f"procedure '{decl.procedure}' of an anytime action must take no "
                       "parameters", where)
        return decl

    def _triggers(self, symbols: Symbols) -> None:
        checks = [("variables", name, "on_change", var.on_change, "the new value")
                  for name, var in symbols.variables.items() if var.on_change]
        checks += [("zones", name, "on_enter", zone.on_enter, "the card that enters")
                   for name, zone in symbols.zones.items() if zone.on_enter]
        for section, name, key, procedure, what in checks:
            where = self.doc.location((section, name, key))
            if known(str(procedure), symbols.procedures, "procedure", where, self.errors) \
                    and len(symbols.procedures[str(procedure)].params) != 1:
                self.error(f"procedure '{procedure}' must take one parameter: {what}", where)
