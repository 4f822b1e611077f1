"""Build the symbols of a pack from its sections: roles, parameters, cards, zones, variables,
the board, anytime actions, and the names of its functions and procedures."""

from __future__ import annotations

import re
import string
from typing import Any

from rulekit.errors import Location, SchemaError, did_you_mean
from rulekit.lang.checker import RUNTIME_NAMES
from rulekit.lang.parser import KEYWORDS
from rulekit.limits import MAX_COPIES
from rulekit.model.symbols import AnytimeDecl, FuncDecl, ProcDecl, Symbols, VarDecl, ZoneDecl
from rulekit.pack.documents import Documents, snippet
from rulekit.pack.params import outside_bounds, resolve_params
from rulekit.source.document import YamlDocument

_PROPERTY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class Declarations:
    """Reads the declarations of one pack into :class:`~rulekit.model.symbols.Symbols`."""

    def __init__(self, docs: Documents) -> None:
        self.errors = docs.errors
        self._section = docs.section

    def build(self, manifest_doc: YamlDocument,
              overrides: dict[str, Any]) -> tuple[Symbols, dict[str, str]]:
        """The symbols of the pack, and the labels of its cards and board components."""
        manifest = manifest_doc.data
        self.manifest_doc = manifest_doc
        roles = [r["id"] for r in manifest["roles"]]
        for i, role in enumerate(roles):
            if role in roles[:i]:
                self.errors.append(SchemaError(f"role '{role}' is given twice",
                                               manifest_doc.location(("roles", i, "id")),
                                               "give each role its own id"))
        declared_params = manifest.get("parameters", {}) or {}
        for name, spec in declared_params.items():
            if outside_bounds(spec["default"], spec):
                self.errors.append(SchemaError(
                    f"default {spec['default']} of parameter '{name}' is outside its bounds",
                    manifest_doc.location(("parameters", name, "default"))))
        params = resolve_params(declared_params, overrides)

        cards, _card_docs = self._cards()
        zones = self._zones(cards, roles)
        variables = self._variables(roles)
        symbols = Symbols(roles=roles, cards=cards, zones=zones, variables=variables,
                          parameters=params)
        self._board(symbols)
        for var in variables.values():  # a text naming a node, card... is of that kind
            if var.declared_type is None and isinstance(var.initial, str):
                var.declared_type = symbols.reference_type(var.initial)
        self._check_clashes(symbols)
        labels = self._card_labels(manifest_doc, cards)
        for table in (symbols.board.nodes, symbols.board.edges, symbols.board.regions):
            labels.update({ident: str(props.get("name", ident)) for ident, props in table.items()})
        self._declare_code(symbols)
        self._anytime(symbols)
        self._triggers(symbols)
        return symbols, labels

    def _cards(self) -> tuple[dict[str, dict[str, Any]], YamlDocument | None]:
        doc, entries = self._section("cards", [])
        cards: dict[str, dict[str, Any]] = {}
        for i, entry in enumerate(entries):
            props = {k: v for k, v in entry.items() if k not in ("id", "copies")}
            props.setdefault("name", entry["id"])
            copies = entry.get("copies", 1)
            if copies > MAX_COPIES:
                assert doc is not None
                self.errors.append(SchemaError(
                    f"{copies:,} copies of card '{entry['id']}' are too many; the limit is "
                    f"{MAX_COPIES:,}", doc.location(("cards", i, "copies"))))
                continue
            ids = [entry["id"]] if copies == 1 else [f"{entry['id']}#{k}"
                                                     for k in range(1, copies + 1)]
            for card_id in ids:
                if card_id in cards:
                    assert doc is not None
                    self.errors.append(SchemaError(f"card id '{card_id}' is used twice",
                                                   doc.location(("cards", i, "id"))))
                cards[card_id] = {"id": card_id, **props}
        return cards, doc

    def _per(self, doc: YamlDocument, path: tuple[str, str],
             spec: dict[str, Any]) -> str | int | None:
        """The ``per`` of a zone or variable (``per_role: true`` is ``per: role``)."""
        per = spec.get("per")
        if spec.get("per_role"):
            if per not in (None, "role"):
                self.errors.append(SchemaError("give either per or per_role, not both",
                                               doc.location((*path, "per"))))
            per = "role"
        if isinstance(per, int):
            if per > MAX_COPIES:
                self.errors.append(SchemaError(
                    f"per: {per:,} asks for too many piles or values; the limit is "
                    f"{MAX_COPIES:,}", doc.location((*path, "per"))))
                return 1
            return per
        return str(per) if per else None

    def _owner(self, doc: YamlDocument, path: tuple[str, str], spec: dict[str, Any],
               per: str | int | None, roles: list[str]) -> str | None:
        kind = "zone" if path[0] == "zones" else "variable"
        owner = spec.get("owner")
        if owner is not None and owner not in roles:
            self.errors.append(SchemaError(f"unknown role '{owner}'",
                                           doc.location((*path, "owner")),
                                           did_you_mean(owner, roles)))
        if spec.get("visibility") == "owner" and per != "role" and owner is None:
            self.errors.append(SchemaError(
                f"{kind} '{path[1]}' has visibility 'owner' but no owner",
                doc.location((*path, "visibility")),
                "add per: role (one per role), or owner: ROLE"))
        if owner is not None and spec.get("visibility", "public") == "public" and not spec.get(
                "public"):
            self.errors.append(SchemaError(
                f"{kind} '{path[1]}' has an owner but is public: every player sees it",
                doc.location((*path, "owner")),
                "add visibility: owner to show it to its owner only, or public: true if "
                "every player may see it"))
        if owner is not None and per == "role":
            self.errors.append(SchemaError(f"a {kind} per role is owned by each role; "
                                           "remove owner", doc.location((*path, "owner"))))
        return str(owner) if owner is not None else None

    def _zones(self, cards: dict[str, Any], roles: list[str]) -> dict[str, ZoneDecl]:
        doc, entries = self._section("zones", {})
        zones: dict[str, ZoneDecl] = {}
        placed: dict[str, str] = {}
        for name, spec in entries.items():
            assert doc is not None
            path = ("zones", name)
            per = self._per(doc, path, spec)
            zone = ZoneDecl(name, per, spec.get("visibility", "public"), spec.get("initial"),
                            doc.key_location(path), self._owner(doc, path, spec, per, roles),
                            spec.get("capacity"), spec.get("on_enter"))
            if zone.initial is not None and zone.per:
                self.errors.append(SchemaError(
                    f"zone '{name}' has several piles and cannot have initial cards",
                    doc.location((*path, "initial")), "move cards there in setup"))
            initial = list(cards) if zone.initial == "all" else (zone.initial or [])
            if zone.capacity is not None and len(initial) > zone.capacity:
                self.errors.append(SchemaError(
                    f"zone '{name}' holds at most {zone.capacity} card(s) but starts with "
                    f"{len(initial)}", doc.location((*path, "initial"))))
            for i, card_id in enumerate(initial if isinstance(initial, list) else []):
                if card_id not in cards:
                    self.errors.append(SchemaError(
                        f"unknown card '{card_id}'", doc.location((*path, "initial", i)),
                        did_you_mean(card_id, cards)))
                elif card_id in placed:
                    self.errors.append(SchemaError(
                        f"card '{card_id}' already starts in zone '{placed[card_id]}'",
                        doc.location((*path, "initial", i))))
                else:
                    placed[card_id] = name
            zones[name] = zone
        return zones

    def _variables(self, roles: list[str]) -> dict[str, VarDecl]:
        doc, entries = self._section("variables", {})
        variables: dict[str, VarDecl] = {}
        for name, spec in entries.items():
            assert doc is not None
            path = ("variables", name)
            per = self._per(doc, path, spec)
            var = VarDecl(name, spec.get("initial", 0), per, spec.get("min"), spec.get("max"),
                          spec.get("visibility", "public"), doc.key_location(path),
                          self._owner(doc, path, spec, per, roles), spec.get("on_change"),
                          spec.get("type"))
            lo, hi = var.minimum, var.maximum
            if isinstance(var.initial, int) and not isinstance(var.initial, bool) and (
                (lo is not None and var.initial < lo) or (hi is not None and var.initial > hi)
            ):
                self.errors.append(SchemaError(
                    f"initial value {var.initial} of '{name}' is outside its bounds",
                    doc.location((*path, "initial"))))
            variables[name] = var
        return variables

    def _board(self, symbols: Symbols) -> None:
        """Read the ``map`` section: regions, nodes and edges."""
        doc, spec = self._section("map", None)
        if doc is None:
            return
        board = symbols.board
        for i, region in enumerate(spec.get("regions", [])):
            props = dict(region)
            props.setdefault("name", region["id"])
            self._add_component(doc, ("map", "regions", i), board.regions, props, symbols)
        for i, node in enumerate(spec.get("nodes", [])):
            props = dict(node)
            props.setdefault("name", node["id"])
            region = props.get("region")
            if region is not None and region not in board.regions:
                self.errors.append(SchemaError(
                    f"unknown region '{region}'", doc.location(("map", "nodes", i, "region")),
                    did_you_mean(region, board.regions)))
            self._add_component(doc, ("map", "nodes", i), board.nodes, props, symbols)
            board.adjacency[node["id"]] = []
        for i, edge in enumerate(spec.get("edges", [])):
            ends = edge if isinstance(edge, list) else [edge["from"], edge["to"]]
            props = {} if isinstance(edge, list) else dict(edge)
            bad = [end for end in ends if end not in board.nodes]
            if bad:
                self.errors.append(SchemaError(
                    f"unknown node '{bad[0]}'", doc.location(("map", "edges", i)),
                    did_you_mean(bad[0], board.nodes)))
                continue
            a, b = ends
            if a == b or board.edge_between(a, b) is not None:
                self.errors.append(SchemaError(
                    f"the edge {a} - {b} " + ("joins a node to itself" if a == b
                                              else "is given twice"),
                    doc.location(("map", "edges", i))))
                continue
            props.update({"from": a, "to": b})
            props.setdefault("id", f"{a}-{b}")
            props.setdefault("name", f"{board.nodes[a]['name']} - {board.nodes[b]['name']}")
            self._add_component(doc, ("map", "edges", i), board.edges, props, symbols)
            board.adjacency[a].append((b, props["id"]))
            board.adjacency[b].append((a, props["id"]))

    def _add_component(self, doc: YamlDocument, path: tuple[str | int, ...],
                       table: dict[str, dict[str, Any]], props: dict[str, Any],
                       symbols: Symbols) -> None:
        ident = props["id"]
        if symbols.kind_of(ident) is not None:
            self.errors.append(SchemaError(
                f"id '{ident}' is already used by a {symbols.kind_of(ident)}",
                doc.location(path), "cards, nodes, edges and regions need different ids"))
            return
        table[ident] = props

    def _anytime(self, symbols: Symbols) -> None:
        doc, entries = self._section("anytime", [])
        for i, spec in enumerate(entries):
            assert doc is not None
            path = ("anytime", i)
            decl = AnytimeDecl(spec["id"], spec["role"], spec.get("label", spec["id"]),
                               spec["do"], spec.get("when"), doc.location(path))
            if decl.role not in symbols.roles:
                self.errors.append(SchemaError(f"unknown role '{decl.role}'",
                                               doc.location((*path, "role")),
                                               did_you_mean(decl.role, symbols.roles)))
            proc = symbols.procedures.get(decl.procedure)
            if proc is None:
                self.errors.append(SchemaError(f"unknown procedure '{decl.procedure}'",
                                               doc.location((*path, "do")),
                                               did_you_mean(decl.procedure,
                                                            symbols.procedures)))
            elif proc.params:
                self.errors.append(SchemaError(
                    f"procedure '{decl.procedure}' of an anytime action must take no parameters",
                    doc.location((*path, "do"))))
            symbols.anytime.append(decl)

    def _check_clashes(self, symbols: Symbols) -> None:
        seen: dict[str, str] = {}
        kinds = [("role", symbols.roles), ("parameter", list(symbols.parameters)),
                 ("zone", list(symbols.zones)), ("variable", list(symbols.variables))]
        for kind, names in kinds:
            for name in names:
                if name in KEYWORDS or name in RUNTIME_NAMES:
                    self.errors.append(SchemaError(
                        f"'{name}' is a word of the effect language and cannot name a {kind}",
                        self._where(kind, name), "choose another name"))
                if name in seen and not (kind == "role" == seen[name]):  # reported above
                    self.errors.append(SchemaError(
                        f"'{name}' is both a {seen[name]} and a {kind}",
                        self._where(kind, name), "give them different names"))
                seen[name] = kind

    def _where(self, kind: str, name: str) -> Location | None:
        manifest = self.manifest_doc
        if kind == "role":
            ids = [r["id"] for r in manifest.data["roles"]]
            return manifest.location(("roles", ids.index(name), "id"))
        if kind == "parameter":
            return manifest.key_location(("parameters", name))
        section = {"zone": "zones", "variable": "variables"}.get(kind, "")
        doc, _ = self._section(section, None)
        if doc is not None:
            return doc.key_location((section, name))
        return None

    def _card_labels(self, manifest_doc: YamlDocument,
                     cards: dict[str, dict[str, Any]]) -> dict[str, str]:
        template = (manifest_doc.data.get("display") or {}).get("card_label", "{name}")
        fields = self._label_fields(manifest_doc, template)
        if fields is None:
            return {}
        labels = {}
        for card_id, props in cards.items():
            missing = [f for f in fields if f not in props]
            if missing:
                self.errors.append(SchemaError(
                    f"card '{card_id}' has no '{missing[0]}' for the card_label template",
                    manifest_doc.location(("display", "card_label"))))
                return {}
            labels[card_id] = template.format_map(props)
        return labels

    def _label_fields(self, manifest_doc: YamlDocument, template: str) -> list[str] | None:
        """The property names a card_label template shows, or None (and an error) if it is not
        plain text with ``{property}`` fields."""
        where = manifest_doc.location(("display", "card_label"))
        try:
            parts = list(string.Formatter().parse(template))
        except ValueError as exc:
            self.errors.append(SchemaError(f"card_label is not a valid template: {exc}", where,
                                           "write {{ and }} for literal braces"))
            return None
        fields = []
        for _, field, spec, conversion in parts:
            if field is None:
                continue
            if not _PROPERTY.fullmatch(field) or spec or conversion:
                self.errors.append(SchemaError(
                    f"card_label field '{{{field}}}' is not a card property name", where,
                    "a field is {property}, such as {name}; write {{ and }} for braces"))
                return None
            fields.append(field)
        return fields


    def _declare_code(self, symbols: Symbols) -> None:
        doc, funcs = self._section("functions", {})
        for name, spec in funcs.items():
            assert doc is not None
            symbols.functions[name] = FuncDecl(
                name, list(spec.get("params", {}).items()), snippet(doc, ("functions", name,
                                                                         "returns")),
                location=doc.key_location(("functions", name)))
        doc, procs = self._section("procedures", {})
        for name, spec in procs.items():
            assert doc is not None
            if name in KEYWORDS:
                self.errors.append(SchemaError(
                    f"'{name}' is a word of the effect language and cannot name a procedure",
                    doc.key_location(("procedures", name)), "choose another name"))
            symbols.procedures[name] = ProcDecl(
                name, list(spec.get("params", {}).items()),
                snippet(doc, ("procedures", name, "do")),
                location=doc.key_location(("procedures", name)))
        doc, flow = self._section("flow", None)
        if flow is not None:
            symbols.phases = [p["id"] for p in flow.get("phases", [])]
            for i, phase in enumerate(symbols.phases):
                if phase in symbols.phases[:i]:
                    assert doc is not None
                    self.errors.append(SchemaError(
                        f"phase '{phase}' is given twice", doc.location(("flow", "phases", i,
                                                                        "id")),
                        "give each phase its own id"))

    def _triggers(self, symbols: Symbols) -> None:
        """Check the procedures named by on_change (variables) and on_enter (zones)."""
        checks = [("variables", name, "on_change", var.on_change, "the new value")
                  for name, var in symbols.variables.items() if var.on_change]
        checks += [("zones", name, "on_enter", zone.on_enter, "the card that enters")
                   for name, zone in symbols.zones.items() if zone.on_enter]
        for section, name, key, procedure, what in checks:
            doc, _ = self._section(section, {})
            assert doc is not None and procedure is not None
            proc = symbols.procedures.get(procedure)
            where = doc.location((section, name, key))
            if proc is None:
                self.errors.append(SchemaError(f"unknown procedure '{procedure}'", where,
                                               did_you_mean(procedure, symbols.procedures)))
            elif len(proc.params) != 1:
                self.errors.append(SchemaError(
                    f"procedure '{procedure}' must take one parameter: {what}", where))

