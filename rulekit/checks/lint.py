"""Lint warnings: what a pack says that works but is probably a mistake.

:func:`lint_pack` reads the effect code of a loaded pack again and warns about an ``end_when``
that holds in the initial state (every game would end at once),
procedures, functions, zones, variables and cards that nothing uses, and a ``choose`` whose
list is always empty; with :mod:`rulekit.checks.flow`, a public ``log`` line that prints
non-public data and a phase after which no phase ever runs. ``rulekit validate`` prints the
warnings; they fail it only with ``--strict``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rulekit.checks.flow import checked_bodies, dead_phases, log_leaks
from rulekit.engine.game import Game
from rulekit.engine.vm import Runtime
from rulekit.errors import Location, PackError, PackWarning
from rulekit.lang import nodes as n
from rulekit.lang.parser import parse_block, parse_expression
from rulekit.lang.walk import every_node
from rulekit.pack.documents import snippet
from rulekit.pack.loader import LoadedPack
from rulekit.source.document import JsonPath, YamlDocument
from rulekit.source.snippet import Snippet


@dataclass
class _Code:
    """One piece of effect code: what it belongs to (a procedure's name, say) and its tree."""

    owner: str
    nodes: list[Any]
    snippet: Snippet
    below: list[Any] = field(default_factory=list)  # every node of the tree, parents first

    def __post_init__(self) -> None:
        self.below = list(every_node(self.nodes))


def _root_name(expr: Any) -> str | None:
    """The zone or variable an expression names: ``hand`` for ``hand[p]``."""
    if isinstance(expr, n.Index):
        expr = expr.obj
    return expr.ident if isinstance(expr, n.Name) else None


class _Linter:
    def __init__(self, pack: LoadedPack) -> None:
        self.pack = pack
        self.symbols = pack.game.symbols
        self.doc: YamlDocument | None = pack.content
        self.warnings: list[PackError] = []
        self.code: list[_Code] = []
        self.known: dict[str, list[n.Stmt]] = {}

    def warn(self, message: str, path: JsonPath, hint: str | None = None) -> None:
        where: Location | None = self.doc.key_location(path) if self.doc is not None else None
        self.warnings.append(PackWarning(message, where, hint))

    def _parse(self, owner: str, path: JsonPath, block: bool) -> None:
        assert self.doc is not None
        try:
            text = snippet(self.doc, path)
            known = self.known.get(text.text) if block else None
            tree: list[Any] = known if known is not None else (
                parse_block(text) if block else [parse_expression(text)])
        except (PackError, KeyError, IndexError, TypeError):
            return
        self.code.append(_Code(owner, tree, text))

    def read_code(self, known: dict[str, list[n.Stmt]]) -> None:
        """Parse every piece of code (``known``: statement lists already parsed, by text; the
        checker's marks on them do not matter here)."""
        self.known = known
        data = self.doc.data if self.doc is not None else {}
        for name in data.get("procedures") or {}:
            self._parse(f"procedure:{name}", ("procedures", name, "do"), True)
        for name in data.get("functions") or {}:
            self._parse(f"function:{name}", ("functions", name, "returns"), False)
        if "setup" in data:
            self._parse("setup", ("setup",), True)
        flow = data.get("flow") or {}
        for i, _ in enumerate(flow.get("phases") or []):
            self._parse("phase", ("flow", "phases", i, "do"), True)
        for i, _ in enumerate(flow.get("end_when") or []):
            self._parse("end_when", ("flow", "end_when", i, "when"), False)
        for key, block in (("rounds", False), ("after_rounds", True), ("initiative", False)):
            if isinstance(flow.get(key), str):
                self._parse(key, ("flow", key), block)
        for i, action in enumerate(data.get("anytime") or []):
            if "when" in action:
                self._parse("anytime", ("anytime", i, "when"), False)

    def used(self, kind: str) -> set[str]:
        """The names code uses, but in the definition of the thing itself."""
        found: set[str] = set()
        for code in self.code:
            for node in code.below:
                name = (node.ident if isinstance(node, n.Name) else
                        node.name if isinstance(node, n.Assign) else
                        node.func if isinstance(node, n.Call) else
                        node.proc if isinstance(node, n.CallStmt) else
                        node.card_id if isinstance(node, n.CardLit) else None)
                if name is not None and code.owner != f"{kind}:{name}":
                    found.add(name)
        return found

    def unused(self) -> None:
        symbols = self.symbols
        names = self.used("procedure") | self.used("function")
        triggers = {a.procedure for a in symbols.anytime}
        triggers |= {v.on_change for v in symbols.variables.values() if v.on_change}
        triggers |= {z.on_enter for z in symbols.zones.values() if z.on_enter}
        hint = "use it, or remove it"
        for name in symbols.procedures:
            if name not in names and name not in triggers:
                self.warn(f"procedure '{name}' is never called", ("procedures", name), hint)
        for name in symbols.functions:
            if name not in names:
                self.warn(f"function '{name}' is never used", ("functions", name), hint)
        for name in symbols.zones:
            if name not in names:
                self.warn(f"zone '{name}' is never used by the pack's code", ("zones", name),
                          hint)
        for name in symbols.variables:
            if name not in names:
                self.warn(f"variable '{name}' is never used by the pack's code",
                          ("variables", name), hint)
        placed = set()
        for zone in symbols.zones.values():
            placed |= set(symbols.cards) if zone.initial == "all" else set(zone.initial or [])
        entries = (self.doc.data.get("cards") or []) if self.doc is not None else []
        for i, entry in enumerate(entries):
            ids = {c for c in symbols.cards if c.split("#")[0] == entry.get("id")}
            if ids and not ids & (placed | names):
                self.warn(f"card '{entry['id']}' never comes into play: no zone starts with it "
                          "and no code names it", ("cards", i), "add it to a zone's initial")

    def empty_choices(self) -> None:
        filled = {z.name for z in self.symbols.zones.values() if z.initial}
        for code in self.code:
            for node in code.below:
                if isinstance(node, (n.Move, n.Draw)) and _root_name(node.dest):
                    filled.add(str(_root_name(node.dest)))
        for code in self.code:
            for node in code.below:
                if not isinstance(node, n.Choice):
                    continue
                source = _root_name(node.source)
                empty = (isinstance(node.source, n.ListLit) and not node.source.items) or (
                    source in self.symbols.zones and source not in filled)
                if empty:
                    where = code.snippet.locate(node.pos.line, node.pos.column)
                    what = f"zone '{source}', which no card ever enters" if source else "[]"
                    self.warnings.append(PackWarning(
                        f"this choose always offers an empty list: {what}", where,
                        "choose from a zone or list that can hold something"))

    def end_at_start(self) -> None:
        checks = self.pack.game.program.end_checks
        for i, ((_, winner, _), holds) in enumerate(zip(checks, end_verdicts(self.pack.game),
                                                       strict=True)):
            if holds:
                self.warn(f"this end condition holds in the initial state: every game would "
                          f"end at once with {winner} winning",
                          ("flow", "end_when", i, "when"),
                          "check the condition against the initial values")


def end_verdicts(game: Game) -> list[bool]:
    """Whether each end condition of ``game`` holds in its initial state (false for one that
    cannot be evaluated before setup)."""
    checks = game.program.end_checks
    if not checks:
        return []
    runtime = Runtime(game.program, game.initial_state(0))
    found = []
    for condition, _, _ in checks:
        try:
            found.append(bool(condition(runtime, [None] * 64)))
        except Exception:  # a condition that cannot be evaluated before setup
            found.append(False)
    return found


def lint_pack(pack: LoadedPack) -> list[PackError]:
    """The lint warnings of a loaded pack, in file order."""
    linter = _Linter(pack)
    if linter.doc is None:
        return []
    bodies = checked_bodies(pack.bodies)
    linter.read_code({body.snippet.text: body.stmts for body in bodies})
    linter.end_at_start()
    linter.unused()
    linter.empty_choices()
    linter.warnings += log_leaks(pack.game.symbols, bodies, pack.function_trees)
    linter.warnings += dead_phases(linter.doc, bodies)
    return sorted(linter.warnings, key=lambda w: (w.location.file, w.location.line,
                                                  w.location.column) if w.location else
                  ("", 0, 0))

