"""Load a pack folder: YAML files, schemas, declarations, effect code; compile it to a Game.

``load_pack(ref, params)`` finds the pack (a folder path, or the id of a shipped pack), reads
``pack.yaml`` and the files it includes, checks each against its schema, builds the
:class:`~rulekit.lang.symbols.Symbols`, parses, checks and compiles every piece of effect code,
and returns a :class:`LoadedPack` whose ``game`` plays it. All mistakes found are raised
together as :class:`~rulekit.errors.PackErrors`.
"""

from __future__ import annotations

import hashlib
import os
import string
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulekit.engine.game import Game
from rulekit.errors import (
    EffectCheckError,
    Location,
    PackError,
    PackErrors,
    PackFileError,
    RulekitError,
    SchemaError,
    UsageError,
    did_you_mean,
)
from rulekit.lang import nodes as n
from rulekit.lang.checker import RUNTIME_NAMES, Checker
from rulekit.lang.compiler import MAIN, STOP, Body, Compiler, ExprFn, Frame, Program
from rulekit.lang.parser import KEYWORDS, Snippet, parse_block, parse_expression
from rulekit.lang.symbols import AnytimeDecl, FuncDecl, ProcDecl, Symbols, VarDecl, ZoneDecl
from rulekit.schema import validate_document
from rulekit.yamlsource import YamlDocument, load_yaml

SETUP = "__setup__"
AFTER_ROUNDS = "__after_rounds__"
PACKS_ENV = "RULEKIT_PACKS"


def shipped_packs_dir() -> Path:
    """The ``games/`` folder of this checkout, home of the shipped packs."""
    return Path(__file__).resolve().parent.parent.parent / "games"


def find_pack(ref: str) -> Path:
    """The folder of a pack named by path or by id (searched in $RULEKIT_PACKS, then games/)."""
    path = Path(ref)
    if path.exists() or os.sep in ref or "/" in ref or ref.endswith(".yaml"):
        if path.is_file():
            if path.name == "pack.yaml":
                return path.parent
            raise PackFileError(f"{ref}: a pack is a folder with a pack.yaml, not a file",
                                hint=None)
        if not path.exists():
            raise PackFileError(f"{ref}: no such pack folder")
        return path
    roots = [Path(p) for p in os.environ.get(PACKS_ENV, "").split(os.pathsep) if p]
    roots.append(shipped_packs_dir())
    for root in roots:
        candidate = root / ref
        if (candidate / "pack.yaml").is_file():
            return candidate
    known = sorted(p.name for root in roots if root.is_dir() for p in root.iterdir()
                   if (p / "pack.yaml").is_file())
    raise PackFileError(f"{ref}: no pack folder or shipped pack of that name",
                        hint=did_you_mean(ref, known) or (
                            f"shipped packs: {', '.join(known)}" if known else None))


@dataclass
class LoadedPack:
    """A pack read from disk and compiled."""

    folder: Path
    manifest: dict[str, Any]
    documents: list[YamlDocument]
    game: Game
    scenario_files: list[Path] = field(default_factory=list)
    rules: list[tuple[str, str]] = field(default_factory=list)

    @property
    def id(self) -> str:
        return str(self.manifest["id"])


def display_path(path: Path) -> str:
    """A path as shown in messages: relative to the working folder when inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def _snippet(doc: YamlDocument, path: tuple[str | int, ...]) -> Snippet:
    value = doc.data
    for key in path:
        value = value[key]
    text = str(value)

    def locate(line: int, column: int) -> Location:
        return doc.text_location(path, line, column)

    return Snippet(text, locate)


def parse_params(pairs: list[str]) -> dict[str, str]:
    """``["KEY=VALUE", ...]`` from the command line to a mapping."""
    result: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"bad --param '{pair}': expected KEY=VALUE")
        result[key.strip()] = value.strip()
    return result


def resolve_params(declared: dict[str, Any], overrides: dict[str, Any]) -> dict[str, int]:
    """Declared defaults with overrides applied; unknown names and bad values are errors."""
    values = {name: int(spec["default"]) for name, spec in declared.items()}
    for name, raw in overrides.items():
        if name not in declared:
            hint = did_you_mean(name, declared) or (
                f"parameters: {', '.join(declared)}" if declared else "this pack has none")
            raise UsageError(f"unknown parameter '{name}'", hint)
        try:
            value = int(raw)
        except (TypeError, ValueError):
            raise UsageError(f"parameter '{name}' must be an integer, got '{raw}'") from None
        spec = declared[name]
        lo, hi = spec.get("min"), spec.get("max")
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            raise UsageError(f"parameter '{name}' must be between {lo} and {hi}, got {value}")
        values[name] = value
    return values


class _Builder:
    """Builds symbols and the program from the documents of one pack."""

    def __init__(self, folder: Path, params: dict[str, Any]) -> None:
        self.folder = folder
        self.overrides = params
        self.errors: list[PackError] = []
        self.documents: list[YamlDocument] = []
        self.sections: dict[str, tuple[YamlDocument, Any]] = {}
        self.bodies: list[Body] = []

    def fail_if_errors(self) -> None:
        if self.errors:
            raise PackErrors(self.errors)

    # ------------------------------------------------------------ reading files

    def read(self, path: Path, schema: str) -> YamlDocument | None:
        try:
            doc = load_yaml(path, display_path(path))
        except PackError as exc:
            self.errors.append(exc)
            return None
        self.documents.append(doc)
        schema_errors = validate_document(doc, schema)
        self.errors.extend(schema_errors)
        return None if schema_errors else doc

    def load(self) -> LoadedPack:
        folder = self.folder
        if not folder.is_dir():
            raise PackErrors([PackFileError(f"{folder}: a pack must be a folder")])
        manifest_path = folder / "pack.yaml"
        if not manifest_path.is_file():
            raise PackErrors([PackFileError(f"{display_path(folder)}: no pack.yaml in this folder",
                                            hint="a pack folder starts with a pack.yaml")])
        manifest_doc = self.read(manifest_path, "pack")
        self.fail_if_errors()
        assert manifest_doc is not None
        manifest: dict[str, Any] = manifest_doc.data
        for i, name in enumerate(manifest.get("include", [])):
            path = folder / name
            if not path.is_file():
                self.errors.append(PackFileError(
                    f"included file '{name}' does not exist",
                    manifest_doc.location(("include", i))))
                continue
            doc = self.read(path, "content")
            if doc is None or doc.data is None:
                continue
            for key, value in doc.data.items():
                if key in self.sections:
                    first = self.sections[key][0]
                    self.errors.append(SchemaError(
                        f"section '{key}' is already given in {first.display_name}",
                        doc.key_location((key,)), "each section may appear in one file only"))
                else:
                    self.sections[key] = (doc, value)
        scenario_files = self._scenario_files(manifest_doc)
        rules = self._rules(manifest_doc)
        self.fail_if_errors()
        game = self._compile(manifest_doc)
        self.fail_if_errors()
        return LoadedPack(folder, manifest, self.documents, game, scenario_files, rules)

    def _rules(self, manifest_doc: YamlDocument) -> list[tuple[str, str]]:
        name = manifest_doc.data.get("rules")
        if name is None:
            return []
        path = self.folder / name
        if not path.is_file():
            self.errors.append(PackFileError(f"rules file '{name}' does not exist",
                                             manifest_doc.location(("rules",))))
            return []
        try:
            doc = load_yaml(path, display_path(path))
        except PackError as exc:
            self.errors.append(exc)
            return []
        entries = doc.data.get("rules") if isinstance(doc.data, dict) else None
        if not isinstance(entries, list) or not all(
            isinstance(e, dict) and isinstance(e.get("id"), str) for e in entries
        ):
            self.errors.append(SchemaError("a rules file holds 'rules:', a list of {id, text}",
                                           doc.location(())))
            return []
        return [(e["id"], str(e.get("text", ""))) for e in entries]

    def _scenario_files(self, manifest_doc: YamlDocument) -> list[Path]:
        files: list[Path] = []
        for i, pattern in enumerate(manifest_doc.data.get("scenarios", [])):
            matches = sorted(self.folder.glob(pattern))
            if not matches:
                self.errors.append(PackFileError(f"no scenario file matches '{pattern}'",
                                                 manifest_doc.location(("scenarios", i))))
            files.extend(m for m in matches if m not in files)
        return files

    # ------------------------------------------------------------ declarations

    def _section(self, key: str, default: Any) -> tuple[YamlDocument | None, Any]:
        if key in self.sections:
            return self.sections[key]
        return None, default

    def _compile(self, manifest_doc: YamlDocument) -> Game:
        manifest = manifest_doc.data
        roles = [r["id"] for r in manifest["roles"]]
        role_names = {r["id"]: r.get("name", r["id"]) for r in manifest["roles"]}
        if len(set(roles)) != len(roles):
            self.errors.append(SchemaError("two roles have the same id",
                                           manifest_doc.location(("roles",))))
        declared_params = manifest.get("parameters", {}) or {}
        for name, spec in declared_params.items():
            lo, hi, default = spec.get("min"), spec.get("max"), spec["default"]
            if (lo is not None and default < lo) or (hi is not None and default > hi):
                self.errors.append(SchemaError(
                    f"default {default} of parameter '{name}' is outside its bounds",
                    manifest_doc.location(("parameters", name, "default"))))
        params = resolve_params(declared_params, self.overrides)

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
        program = Program()
        compiler = Compiler(symbols, program)
        self._compile_code(symbols, compiler)
        pack_hash = self._hash()
        return Game(pack_id=manifest["id"], pack_name=manifest["name"],
                    version=str(manifest["version"]), pack_hash=pack_hash,
                    role_names=role_names, symbols=symbols, program=program, params=params,
                    card_labels=labels)

    def _hash(self) -> str:
        digest = hashlib.sha256()
        for doc in sorted(self.documents, key=lambda d: d.path.name):
            digest.update(doc.path.name.encode())
            digest.update(doc.text.encode())
        return digest.hexdigest()[:16]

    def _cards(self) -> tuple[dict[str, dict[str, Any]], YamlDocument | None]:
        doc, entries = self._section("cards", [])
        cards: dict[str, dict[str, Any]] = {}
        for i, entry in enumerate(entries):
            props = {k: v for k, v in entry.items() if k not in ("id", "copies")}
            props.setdefault("name", entry["id"])
            copies = entry.get("copies", 1)
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
                if name in seen:
                    self.errors.append(SchemaError(
                        f"'{name}' is both a {seen[name]} and a {kind}",
                        self._where(kind, name), "give them different names"))
                seen[name] = kind

    def _where(self, kind: str, name: str) -> Location | None:
        section = {"zone": "zones", "variable": "variables"}.get(kind)
        if section and section in self.sections:
            return self.sections[section][0].key_location((section, name))
        return None

    def _card_labels(self, manifest_doc: YamlDocument,
                     cards: dict[str, dict[str, Any]]) -> dict[str, str]:
        template = (manifest_doc.data.get("display") or {}).get("card_label", "{name}")
        fields = [f for _, f, _, _ in string.Formatter().parse(template) if f]
        labels = {}
        for card_id, props in cards.items():
            missing = [f for f in fields if f not in props]
            if missing:
                self.errors.append(SchemaError(
                    f"card '{card_id}' has no '{missing[0]}' for the card_label template",
                    manifest_doc.location(("display", "card_label"))))
                return {}
            labels[card_id] = template.format(**props)
        return labels

    # ------------------------------------------------------------ code

    def _declare_code(self, symbols: Symbols) -> None:
        doc, funcs = self._section("functions", {})
        for name, spec in funcs.items():
            assert doc is not None
            symbols.functions[name] = FuncDecl(
                name, list(spec.get("params", {}).items()), _snippet(doc, ("functions", name,
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
                _snippet(doc, ("procedures", name, "do")),
                location=doc.key_location(("procedures", name)))
        doc, flow = self._section("flow", None)
        if flow is not None:
            symbols.phases = [p["id"] for p in flow.get("phases", [])]

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

    def _parse_block(self, snippet: Snippet) -> list[n.Stmt] | None:
        try:
            return parse_block(snippet)
        except PackError as exc:
            self.errors.append(exc)
            return None

    def _parse_expr(self, snippet: Snippet) -> n.Expr | None:
        try:
            return parse_expression(snippet)
        except PackError as exc:
            self.errors.append(exc)
            return None

    def _body(self, symbols: Symbols, name: str, snippet: Snippet,
              params: list[tuple[str, str]]) -> None:
        """Parse and check one statement list; keep it for compiling."""
        body = self._parse_block(snippet)
        if body is None:
            return
        checker = Checker(symbols, snippet)
        checker.declare_params(params)
        nslots = checker.check_body(body)
        self.errors.extend(checker.errors)
        self.bodies.append(Body(name, body, snippet, nslots, params))

    def _expr(self, symbols: Symbols, compiler: Compiler, snippet: Snippet, expected: str,
              context: str = "expr") -> ExprFn | None:
        expr = self._checked_expr(symbols, snippet, expected, context)
        return None if expr is None else compiler.expr(expr)

    def _checked_expr(self, symbols: Symbols, snippet: Snippet, expected: str,
                      context: str = "expr") -> n.Expr | None:
        """The syntax tree of a checked expression, or None (its errors are kept)."""
        expr = self._parse_expr(snippet)
        if expr is None:
            return None
        checker = Checker(symbols, snippet, context=context)
        checker.check_expr(expr, expected)
        self.errors.extend(checker.errors)
        return None if checker.errors else expr

    def _compile_code(self, symbols: Symbols, compiler: Compiler) -> None:
        doc, flow = self._section("flow", None)
        if doc is not None:
            # End conditions first: statements compiled later check them after each change.
            for i, check in enumerate(flow.get("end_when", [])):
                cond = self._expr(symbols, compiler, _snippet(doc, ("flow", "end_when", i, "when")),
                                  "bool")
                winner = check["winner"]
                if winner not in symbols.roles:
                    self.errors.append(SchemaError(f"unknown role '{winner}'",
                                                   doc.location(("flow", "end_when", i, "winner")),
                                                   did_you_mean(winner, symbols.roles)))
                if cond is not None:
                    compiler.program.end_checks.append((cond, winner, check.get("reason", "")))
        for func in symbols.functions.values():
            expr = self._parse_expr(func.snippet)
            if expr is None:
                continue
            checker = Checker(symbols, func.snippet, context="function")
            checker.declare_params(func.params)
            func.result = checker.check_expr(expr)
            self.errors.extend(checker.errors)
            if not checker.errors:
                func.body = expr
                compiler.compile_function(func.name, expr, checker.nslots, len(func.params))
        for proc in symbols.procedures.values():
            self._body(symbols, proc.name, proc.snippet, proc.params)
        doc, _setup = self._section("setup", None)
        if doc is not None:
            self._body(symbols, SETUP, _snippet(doc, ("setup",)), [])
        doc, flow = self._section("flow", None)
        if doc is None:
            self.errors.append(PackFileError("the pack has no flow section",
                                             hint="add flow: with rounds and phases"))
            return
        phases = []
        for i, phase in enumerate(flow.get("phases", [])):
            name = f"phase:{phase['id']}"
            self._body(symbols, name, _snippet(doc, ("flow", "phases", i, "do")), [])
            phases.append((phase["id"], name))
        rounds: ExprFn | None = None
        if "rounds" in flow:
            rounds = self._expr(symbols, compiler, _snippet(doc, ("flow", "rounds")), "int")
            if rounds is None:
                return
        if "after_rounds" in flow:
            self._body(symbols, AFTER_ROUNDS, _snippet(doc, ("flow", "after_rounds")),
                       [])
        anytime_doc, _ = self._section("anytime", [])
        for i, decl in enumerate(symbols.anytime):
            when = None
            if decl.when is not None and anytime_doc is not None:
                snippet = _snippet(anytime_doc, ("anytime", i, "when"))
                decl.when_expr = self._checked_expr(symbols, snippet, "bool")
                if decl.when_expr is not None:
                    when = compiler.expr(decl.when_expr, snippet.location(decl.when_expr.pos))
            compiler.program.anytime.append((decl, when))
        if not self.errors:
            compiler.compile_bodies(self.bodies)
            _build_main(compiler.program, rounds, phases, doc.key_location(("flow",)))


def _build_main(program: Program, rounds: ExprFn | None, phases: list[tuple[str, str]],
                where: Location) -> None:
    """The main procedure: setup, then rounds of phases, then what follows the last round."""
    from rulekit.lang.compiler import Proc

    main = Proc(MAIN)
    code = main.code
    procs = program.procs

    def call(name: str) -> Any:
        def call_proc(rt: Any, frame: Frame) -> int:
            rt.stack.append([name, 0, [None] * procs[name].nslots])
            return 0
        return call_proc

    if SETUP in procs:
        code.append(call(SETUP))
    head = len(code)
    program.round_start_pc = head
    after_pc: list[int] = []

    def next_round(rt: Any, frame: Frame) -> int:
        state = rt.state
        if rounds is not None and state["round"] >= rounds(rt, frame[2]):
            frame[1] = after_pc[0]
            return 0
        state["round"] += 1
        return 0

    code.append(next_round)
    for phase_id, proc_name in phases:
        def enter(rt: Any, frame: Frame, phase_id: str = phase_id) -> int:
            rt.state["phase"] = phase_id
            return 0
        program.phase_pcs[phase_id] = len(code)
        code.append(enter)
        code.append(call(proc_name))
    program.round_end_pc = len(code)

    def loop(rt: Any, frame: Frame) -> int:
        frame[1] = head
        return 0

    code.append(loop)
    after_pc.append(len(code))

    def after(rt: Any, frame: Frame) -> int:
        rt.state["phase"] = None
        return 0

    code.append(after)
    if AFTER_ROUNDS in procs:
        code.append(call(AFTER_ROUNDS))

    def no_winner(rt: Any, frame: Frame) -> int:
        if rt.state["result"] is None:
            rt.finish(None, "the last round is over")
        return STOP

    code.append(no_winner)
    main.locations = [where] * len(code)
    procs[MAIN] = main


def load_pack(ref: str | Path, params: dict[str, Any] | None = None) -> LoadedPack:
    """Load, check and compile a pack named by path or id."""
    folder = ref if isinstance(ref, Path) else find_pack(ref)
    try:
        return _Builder(folder, params or {}).load()
    except (PackErrors, UsageError):
        raise
    except PackError as exc:
        raise PackErrors([exc]) from None
    except RulekitError:
        raise


def compile_expectation(loaded: LoadedPack, snippet: Snippet) -> ExprFn:
    """Compile a scenario's ``expect`` expression (which may name winner and finished)."""
    expr = parse_expression(snippet)
    game = loaded.game
    checker = Checker(game.symbols, snippet, context="expect")
    checker.check_expr(expr, "bool")
    if checker.errors:
        raise PackErrors(checker.errors)
    return Compiler(game.symbols, game.program).expr(expr)


__all__ = ["EffectCheckError", "LoadedPack", "compile_expectation", "find_pack", "load_pack",
           "parse_params", "resolve_params"]
