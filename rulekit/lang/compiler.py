"""Compile checked syntax trees to Python code, once per pack.

Like jinja2's template compiler, this module writes Python source from the syntax tree and
compiles it with ``compile()``: an expression becomes one Python expression, and a run of
statements becomes one function (a *block*). The source is made only from the checked tree:
names become list indexes or quoted dictionary keys, texts become ``repr`` literals, so nothing
a pack writes is ever run as Python.

Each procedure is a flat list of blocks ``block(rt, frame) -> status``; control flow jumps
between blocks by setting ``frame[1]``. A choice ends a block: the interpreter stops there, and
later resumes from the frame ``[procedure, pc, locals]`` alone, which is plain data.
"""

from __future__ import annotations

import builtins
import contextlib
import itertools
import marshal
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, fields
from types import CodeType
from typing import TYPE_CHECKING, Any

from rulekit.engine import helpers
from rulekit.engine.program import (
    CONTINUE,
    MAIN,
    STOP,
    SUSPEND,
    ExprFn,
    Frame,
    Instr,
    Locals,
    Proc,
    Program,
    zone_key,
)
from rulekit.errors import Location
from rulekit.lang import nodes as n
from rulekit.lang.builtins import BUILTINS
from rulekit.lang.emitter import Emitter
from rulekit.lang.parser import Snippet
from rulekit.lang.secrecy import SecretBody, mark_secret_choices
from rulekit.lang.symbols import Board, Symbols
from rulekit.lang.walk import Triggers, calls_in, choices_in
from rulekit.stored import Store

if TYPE_CHECKING:
    from rulekit.engine.vm import Runtime

# The runtime's names, which the compiler builds or writes code for (and which other modules
# have long imported from here).
__all__ = ["CONTINUE", "MAIN", "STOP", "SUSPEND", "Body", "Compiler", "ExprFn", "Frame",
           "Instr", "Locals", "Proc", "Program", "graph_functions", "zone_key"]

# The only Python built-ins generated code may reach.
_SAFE_BUILTINS = {name: getattr(builtins, name)
                  for name in ("len", "list", "isinstance", "str", "range", "reversed", "min",
                               "max")}


_PY_OPS = {"and": "and", "or": "or", "==": "==", "!=": "!=", "<": "<", "<=": "<=", ">": ">",
           ">=": ">=", "in": "in", "not in": "not in", "+": "+", "-": "-", "*": "*",
           "//": "//", "%": "%"}


# Python compiled from generated source before, by source and file name (as bytecode).
_compiled = Store("python-code")


def _python_code(source: str, filename: str) -> CodeType:
    stored = _compiled.get((source, filename))
    if stored is not None:
        with contextlib.suppress(Exception):  # a stored result that does not load is a miss
            code = marshal.loads(stored)
            if isinstance(code, CodeType):
                return code
    code = compile(source, filename, "exec")
    _compiled.put((source, filename), marshal.dumps(code))
    return code


class Compiler:
    """Compiles the bodies and expressions of one pack into a :class:`Program`."""

    def __init__(self, symbols: Symbols, program: Program) -> None:
        self.symbols = symbols
        self.program = program
        roles = symbols.roles
        self.ns: dict[str, Any] = {
            "__builtins__": _SAFE_BUILTINS,
            "C": symbols.components(),
            "_F": program.direct_functions,
            "_OTHER": {r: roles[(i + 1) % len(roles)] for i, r in enumerate(roles)},
            "_ROLES": tuple(roles),
            "_CARD_IDS": tuple(symbols.cards),
            "_D": {},
            "_P": program.playout,
            "_move": helpers.move, "_move_all": helpers.move_all, "_draw": helpers.draw,
            "_call": helpers.call, "_snap": helpers.snapshot, "_END": helpers.end_checks,
            "_full": helpers.full, "_no_item": helpers.no_item, "_add": helpers.add,
            "_sub": helpers.sub, "_mul": helpers.mul, "_each": helpers.each,
            "_each_if": helpers.each_if,
            "_over": helpers.over_budget, "_Stop": helpers.StopGame,
            "_EndRound": helpers.EndRound,
        }
        for name, builtin in BUILTINS.items():
            self.ns[f"_b_{name}"] = builtin.impl
        for name, impl in graph_functions(symbols.board).items():
            self.ns[f"_G_{name}"] = impl
        program.plain_ids = frozenset(
            ident for ident in symbols.components() if ident != "none" and "+" not in ident)
        self._counter = itertools.count()
        self.log_ids: dict[int, int] = {}  # id of a log statement -> its number
        self.trees: dict[Any, n.Expr] = {}  # compiled expression -> its tree
        self.function_trees: dict[str, n.Expr] = {}  # pack function -> its body
        self.end_watch: set[str] | None = None  # what the end conditions read (None: any)
        self.when_watch: set[str] | None = None  # what the anytime conditions read (None: any)
        self.sources: dict[str, str] = {}  # generated Python by file name, for debugging
        self._bound: dict[int, str] = {}  # local slots compiled as Python names (binding)

    # ------------------------------------------------------------ compiling Python

    def constant(self, value: Any) -> str:
        """A name in the namespace bound to ``value`` (for objects without a literal)."""
        name = f"_k{next(self._counter)}"
        self.ns[name] = value
        return name

    def _build(self, source: str, filename: str, line_map: dict[int, Location]) -> Any:
        local_ns: dict[str, Any] = {}
        exec(_python_code(source, filename), self.ns, local_ns)
        self.program.line_maps[filename] = line_map
        return next(iter(local_ns.values()))

    # ------------------------------------------------------------ expressions

    def expr(self, e: n.Expr, location: Location | None = None) -> ExprFn:
        """A closure ``f(rt, L)`` computing the expression (the variables of its
        comprehensions are Python names, so it may be called with no locals)."""
        fn: ExprFn = self.block_function("code", "L", [("return " + self.py(e), location)])
        self.trees[fn] = e
        return fn

    def end_reads(self) -> set[str] | None:
        """The zones and variables the end conditions read (None: unknown, so any)."""
        found: set[str] = set()
        for condition, _, _ in self.program.end_checks:
            tree = self.trees.get(condition)
            if tree is None or not self._reads(tree, found, set()):
                return None
        return found

    def when_reads(self) -> set[str] | None:
        """The zones and variables the ``when`` conditions of anytime actions read (None:
        unknown, or they read the round, the phase or the result, which change elsewhere)."""
        found: set[str] = set()
        for _, when in self.program.anytime:
            tree = self.trees.get(when) if when is not None else None
            if when is not None and (tree is None or not self._reads(tree, found, set(), True)):
                return None
        return found

    def _reads(self, e: Any, found: set[str], seen: set[str], strict: bool = False) -> bool:
        """Add the zones and variables ``e`` reads to ``found``; False if that is unknown
        (``strict``: also if it reads the round, the phase or the result)."""
        if isinstance(e, list):
            return all(self._reads(item, found, seen, strict) for item in e)
        if not isinstance(e, n.Expr):
            return True
        if isinstance(e, n.Name) and e.ref:
            if e.ref[0] in ("var", "zone"):
                found.add(e.ident)
            elif strict and e.ref[0] == "builtin":
                return False
        if isinstance(e, n.Call) and e.ref and e.ref[0] == "func" and e.ref[1] not in seen:
            seen.add(e.ref[1])
            body = self.function_trees.get(e.ref[1])
            if body is None or not self._reads(body, found, seen, strict):
                return False
        return all(self._reads(getattr(e, f.name), found, seen, strict) for f in fields(e)
                   if f.name not in ("pos", "ref"))

    def reads_nothing_shared(self, e: n.Expr) -> bool:
        """Whether ``e`` reads only locals, parameters and constants: no zone, variable,
        round, phase or result (what an anytime action could change while a frame waits)."""
        found: set[str] = set()
        return self._reads(e, found, set(), True) and not found

    def function(self, body: list[str], location: Location | None = None) -> Any:
        """Compile ``def f(rt, L): <body>`` (the body's lines all point at ``location``)."""
        return self.block_function("code", "L", [(line, location) for line in body])

    def zone(self, e: n.Expr) -> str:
        """Python source of the key of a zone expression (``deck``, ``hand[p]``)."""
        if isinstance(e, n.Index):
            assert isinstance(e.obj, n.Name)
            name = e.obj.ident
            if isinstance(e.index, n.Name) and e.index.ref and e.index.ref[0] == "const":
                return repr(zone_key(name, str(e.index.ref[1])))
            if isinstance(e.index, n.Literal):
                return repr(zone_key(name, str(e.index.value)))
            decl = self.symbols.zones.get(name) or self.symbols.variables.get(name)
            index = self.py(e.index)
            if decl is not None and isinstance(decl.per, int):
                index = f"str({index})"
            return f"({name + '.'!r} + {index})"
        assert isinstance(e, n.Name)
        return repr(e.ident)

    def py(self, e: n.Expr) -> str:
        """Python source of an expression, reading locals ``L``, zones ``Z``, variables ``V``."""
        method: Callable[[Any], str] = getattr(self, "_x_" + type(e).__name__.lower())
        return method(e)

    def _x_literal(self, e: n.Literal) -> str:
        return repr(e.value)

    def _x_cardlit(self, e: n.CardLit) -> str:
        return repr(e.card_id)

    def _x_name(self, e: n.Name) -> str:
        ref = e.ref
        kind = ref[0]
        if kind == "local":
            return self.local(ref[1])
        if kind == "var":
            return f"V[{ref[1]!r}]"
        if kind == "zone":
            return f"list(Z[{ref[1]!r}])"
        if kind == "const":
            return repr(ref[1])
        name = ref[1]
        return {
            "round": "S['round']",
            "phase": "S['phase']",
            "winner": "(S['result'] or {}).get('winner')",
            "finished": "(S['result'] is not None)",
        }[name]

    def _x_listlit(self, e: n.ListLit) -> str:
        return "[" + ", ".join(self.py(i) for i in e.items) + "]"

    def read(self, e: n.Expr) -> str:
        """Python source of an expression whose value is only read, never kept nor returned: a
        zone is then its list itself, not a copy (expressions change nothing)."""
        return f"Z[{self.zone(e)}]" if _is_zone(e) else self.py(e)

    def _x_comprehension(self, e: n.Comprehension) -> str:
        iterable = self.read(e.iterable)  # (Python evaluates it outside the comprehension)
        with self.binding(e.slot) as var:
            if e.condition is not None and _invariant(e.condition, e.slot):
                # Worked out once rather than once per item (counted as once per item).
                cond = self.py(e.condition)
                return f"[{self.py(e.element)} for {var} in _each_if(rt, {iterable}, " \
                       f"lambda: {cond})]"
            cond = f" if {self.py(e.condition)}" if e.condition is not None else ""
            return f"[{self.py(e.element)} for {var} in _each(rt, {iterable}){cond}]"

    @contextmanager
    def private_locals(self, slots: range) -> Iterator[None]:
        """While compiling a procedure as a plain function, its locals but the parameters
        are Python locals: nothing outside the function reads them."""
        saved = dict(self._bound)
        self._bound.update({slot: f"_l{slot}" for slot in slots})
        try:
            yield
        finally:
            self._bound = saved

    def local(self, slot: int) -> str:
        """Python source of a local slot (an item of ``L``, or a Python name)."""
        return self._bound.get(slot) or f"L[{slot}]"

    @contextmanager
    def binding(self, slot: int) -> Iterator[str]:
        """While compiling a comprehension (or a choice's conditions), its variable is the
        Python local this gives rather than a slot of ``L``: faster, and it leaves the locals,
        which are part of the state, alone."""
        saved = self._bound.get(slot)
        self._bound[slot] = name = f"_v{slot}"
        try:
            yield name
        finally:
            if saved is None:
                del self._bound[slot]
            else:
                self._bound[slot] = saved

    def _x_attr(self, e: n.Attr) -> str:
        if e.attr in ("id", "name") or (
            e.obj_kind == "card" and all(e.attr in card for card in self.symbols.cards.values())
        ):
            return f"C[{self.py(e.obj)}][{e.attr!r}]"
        return f"C[{self.py(e.obj)}].get({e.attr!r})"  # a missing property is none

    def _x_index(self, e: n.Index) -> str:
        obj = e.obj
        if isinstance(obj, n.Name) and obj.ref and obj.ref[0] in ("zone", "var"):
            key = self.zone(e)
            return f"list(Z[{key}])" if obj.ref[0] == "zone" else f"V[{key}]"
        return f"({self.py(obj)})[{self.py(e.index)}]"

    def _x_call(self, e: n.Call) -> str:
        kind, name = e.ref
        reading = kind not in ("func", "pack_builtin") and name in _READING_BUILTINS
        args = [self.read(a) if reading else self.py(a) for a in e.args]
        if kind == "func":
            return f"_F[{name!r}](rt, [{', '.join(args)}])"
        if kind == "pack_builtin":
            if name == "other":
                return f"_OTHER[{args[0]}]"
            if name == "roles":
                return "list(_ROLES)"
            if name == "cards":
                return "list(_CARD_IDS)"
            return f"_G_{name}({', '.join(args)})"
        if name == "count" and _is_zone(e.args[0]):
            return f"len(Z[{self.zone(e.args[0])}])"
        if name in ("min", "max") and len(args) > 1:
            return f"{name}({', '.join(args)})"  # Python's own, for two or more numbers
        return f"_b_{name}({', '.join(args)})"

    def _x_unary(self, e: n.Unary) -> str:
        operand = self.py(e.operand)
        return f"(not {operand})" if e.op == "not" else f"(-{operand})"

    def _x_binary(self, e: n.Binary) -> str:
        left = self.py(e.left)
        right = self.read(e.right) if e.op in ("in", "not in") else self.py(e.right)
        if e.op in _SIZED_OPS and not _fits(e):
            return f"{_SIZED_OPS[e.op]}({left}, {right})"  # within the size limits
        return f"({left} {_PY_OPS[e.op]} {right})"

    def _x_choice(self, e: n.Choice) -> str:  # pragma: no cover - the checker forbids it
        raise AssertionError("a choice is not an expression")

    def block_function(self, name: str, arg: str, lines: list[tuple[str, Location | None]],
                       head: list[str] | None = None) -> Any:
        """Compile ``def f(rt, <arg>): <lines>``; each line keeps its pack location for errors."""
        text = "\n".join(t for t, _ in lines)
        source_lines = [f"def _block(rt, {arg}):"]
        source_lines += ["    " + h for h in head or []]
        prelude = _prelude(text, with_locals=arg == "frame")
        if prelude:
            source_lines.append("    " + "; ".join(prelude))
        line_map: dict[int, Location] = {}
        for t, loc in lines:
            source_lines.append("    " + t)
            if loc is not None:
                line_map[len(source_lines)] = loc
        source = "\n".join(source_lines) + "\n"
        filename = f"<rulekit {name} {next(self._counter)}>"
        self.sources[filename] = source
        return self._build(source, filename, line_map)

    # ------------------------------------------------------------ bodies

    def compile_bodies(self, bodies: list[Body]) -> None:
        """Compile procedures, setup and phases together (which may stop is found first)."""
        triggers: Triggers = {("var", v.name): v.on_change
                              for v in self.symbols.variables.values() if v.on_change}
        triggers.update({("zone", z.name): z.on_enter
                         for z in self.symbols.zones.values() if z.on_enter})
        suspending = self._suspending(bodies, triggers)
        self.program.secret_anytime = mark_secret_choices(
            self.symbols, [SecretBody(b.name, b.stmts) for b in bodies])
        self.end_watch = self.end_reads()
        self.when_watch = self.when_reads()
        self.program.cache_whens = self.when_watch is not None
        for body in bodies:
            proc = Proc(body.name, nslots=body.nslots, params=body.params)
            self.program.procs[body.name] = proc
            emitter = Emitter(self, proc, body.snippet, suspending)
            emitter.blocks(body.stmts, [])
            emitter.finish()
            if body.name not in suspending:
                direct = Emitter(self, proc, body.snippet, suspending, direct=True)
                with self.private_locals(range(len(body.params), body.nslots)):
                    lines = direct.structured(body.stmts, [], "")
                self.ns["_D"][body.name] = self.block_function(
                    f"{body.name} direct", "L", lines or [("pass", None)])

        def build_playout() -> None:
            for body in bodies:
                self.program.playout[body.name] = self._playout_version(body, suspending)
            self.program.build_playout = None

        self.program.build_playout = build_playout  # on first use: loading stays fast

    def _playout_version(self, body: Body, suspending: set[str]) -> Any:
        """A procedure as one plain function answering its choices at once."""
        emitter = Emitter(self, self.program.procs[body.name], body.snippet, suspending,
                          inline=True, nslots=body.nslots)
        lines = emitter.structured(body.stmts, [], "")
        pad = emitter.nslots - len(body.params)
        head = [f"L.extend([None] * {pad})"] if pad > 0 else []
        return self.block_function(f"{body.name} playout", "L", lines or [("pass", None)],
                                   head)

    @staticmethod
    def _suspending(bodies: list[Body], triggers: Triggers) -> set[str]:
        """Names of the bodies that may stop for a decision (directly or through calls)."""
        stopping = {b.name for b in bodies if choices_in(b.stmts)}
        calls = {b.name: calls_in(b.stmts, triggers) for b in bodies}
        changed = True
        while changed:
            changed = False
            for name, called in calls.items():
                if name not in stopping and called & stopping:
                    stopping.add(name)
                    changed = True
        return stopping

    def compile_function(self, name: str, body: n.Expr, nslots: int, nparams: int,
                         location: Location | None = None) -> None:
        """Compile a pure function of the pack."""
        pad = nslots - nparams
        head = [f"L.extend([None] * {pad})"] if pad > 0 else []
        # Generated code calls it directly with a new list of arguments, which it extends
        # with its own locals; others call it through program.functions with any list.
        fn = self.block_function(f"function {name}", "L", [("return " + self.py(body),
                                                             location)], head)
        self.trees[fn] = body
        self.function_trees[name] = body
        self.program.direct_functions[name] = fn

        def call(rt: Runtime, args: list[Any]) -> Any:
            return fn(rt, list(args))

        self.program.functions[name] = call


def _invariant(condition: n.Expr, slot: int) -> bool:
    """Whether a comprehension's condition is worth working out once for all its items: it
    does not read the comprehension's variable (local ``slot``), and it walks a list or calls
    a function of the pack (expressions change nothing, so once is as good as each time)."""
    costly = False
    todo: list[Any] = [condition]
    while todo:
        e = todo.pop()
        if isinstance(e, list):
            todo += e
            continue
        if not isinstance(e, n.Expr):
            continue
        if isinstance(e, n.Name) and e.ref and e.ref[0] == "local" and e.ref[1] == slot:
            return False
        if isinstance(e, n.Comprehension) or (isinstance(e, n.Call) and e.ref
                                              and e.ref[0] == "func"):
            costly = True
        todo += [getattr(e, f.name) for f in fields(e) if f.name not in ("pos", "ref")]
    return costly


@dataclass
class Body:
    """A checked statement list to compile: a procedure, the setup or a phase."""

    name: str
    stmts: list[n.Stmt]
    snippet: Snippet
    nslots: int
    params: list[tuple[str, str]] = field(default_factory=list)


_PRELUDE = (("L", "L = frame[2]"), ("Z", "Z = rt.zones"), ("V", "V = rt.vars"),
            ("S", "S = rt.state"))


def _prelude(text: str, *, with_locals: bool) -> list[str]:
    """The assignments a generated body needs, for the short names it uses."""
    return [line for name, line in _PRELUDE
            if (with_locals or name != "L") and re.search(rf"\b{name}\b", text)]


def graph_functions(board: Board) -> dict[str, Callable[..., Any]]:
    """The map built-ins (neighbors, edge, distance...) over one board."""
    nodes, edges, regions = tuple(board.nodes), tuple(board.edges), tuple(board.regions)
    neighbors = {node: [other for other, _ in links] for node, links in board.adjacency.items()}
    touching = {node: [edge for _, edge in links] for node, links in board.adjacency.items()}
    members: dict[str, list[str]] = {region: [] for region in regions}
    for node, props in board.nodes.items():
        if props.get("region") in members:
            members[props["region"]].append(node)

    def distance(a: str, b: str) -> int:
        seen = {a: 0}
        frontier = [a]
        while frontier:
            if b in seen:
                return seen[b]
            following = []
            for node in frontier:
                for other in neighbors.get(node, ()):
                    if other not in seen:
                        seen[other] = seen[node] + 1
                        following.append(other)
            frontier = following
        return seen.get(b, -1)

    return {
        "nodes": lambda: list(nodes),
        "edges": lambda: list(edges),
        "regions": lambda: list(regions),
        "neighbors": lambda node: list(neighbors.get(node, ())),
        "edge": board.edge_between,
        "edges_of": lambda node: list(touching.get(node, ())),
        "ends": lambda edge: [board.edges[edge]["from"], board.edges[edge]["to"]],
        "nodes_in": lambda region: list(members.get(region, ())),
        "distance": distance,
    }


# Operators whose result may outgrow the size limits, and the helpers that check them. Adding
# or taking away a small number cannot: the step budget runs out long before.
_SIZED_OPS = {"+": "_add", "-": "_sub", "*": "_mul"}


def _fits(e: n.Binary) -> bool:
    """Whether an operation cannot outgrow the size limits: adding or taking away a small
    number (the step budget runs out long before), or multiplying two small numbers."""
    left, right = _bound(e.left), _bound(e.right)
    if e.op == "*":
        return left is not None and right is not None and left * right < 1 << 62
    return any(b is not None and b < 1 << 32 for b in (left, right))


def _bound(e: n.Expr) -> int | None:
    """A bound on the size of an integer expression known when compiling, if there is one
    (a number, a remainder by a number, and sums and products of those)."""
    if isinstance(e, n.Literal):
        return abs(e.value) if e.value.__class__ is int else None
    if isinstance(e, n.Unary) and e.op == "-":
        return _bound(e.operand)
    if isinstance(e, n.Binary) and e.op in ("%", "+", "-", "*"):
        right = _bound(e.right)
        if e.op == "%":
            return right  # the remainder by b is smaller than b (or fails, by zero)
        left = _bound(e.left)
        if left is None or right is None:
            return None
        return left * right if e.op == "*" else left + right
    return None


# Built-ins that only read their list (they return an item or a number, never the list).
_READING_BUILTINS = frozenset({"top", "first", "any", "all"})


def _is_zone(e: n.Expr) -> bool:
    target = e.obj if isinstance(e, n.Index) else e
    return isinstance(target, n.Name) and bool(target.ref) and target.ref[0] == "zone"
