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
import marshal
import re
from dataclasses import dataclass, field
from types import CodeType
from typing import TYPE_CHECKING, Any

from rulekit.engine import helpers
from rulekit.engine.draws import bit_indexes, mask_of
from rulekit.engine.frozen import FrozenDict, FrozenList, freeze
from rulekit.engine.graph import graph_functions, graph_walks
from rulekit.engine.rounds import main_playout
from rulekit.errors import Location
from rulekit.lang import nodes as n
from rulekit.lang.builtins import BUILTINS
from rulekit.lang.emitter import Emitter
from rulekit.lang.parser import Snippet
from rulekit.lang.pyexpr import ExprWriter
from rulekit.lang.reads import reads, writes_of
from rulekit.lang.secrecy import SecretBody, mark_secret_choices
from rulekit.lang.walk import Triggers, calls_in, choices_in
from rulekit.model.program import (
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
from rulekit.model.symbols import Symbols
from rulekit.source.store import Store

if TYPE_CHECKING:
    from rulekit.engine.vm import Runtime

# The runtime's names, which the compiler builds or writes code for (and which other modules
# have long imported from here).
__all__ = ["CONTINUE", "MAIN", "STOP", "SUSPEND", "Body", "Compiler", "ExprFn", "Frame",
           "Instr", "Locals", "Proc", "Program", "graph_functions", "zone_key"]

# The only Python built-ins generated code may reach.
_SAFE_BUILTINS = {name: getattr(builtins, name)
                  for name in ("len", "list", "isinstance", "str", "range", "reversed", "min",
                               "max", "sum", "map")}


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


class Compiler(ExprWriter):
    """Compiles the bodies and expressions of one pack into a :class:`Program`."""

    def __init__(self, symbols: Symbols, program: Program) -> None:
        self.program = program
        roles = symbols.roles
        super().__init__(symbols, {
            "__builtins__": _SAFE_BUILTINS,
            "C": symbols.components(),
            "_F": program.direct_functions,
            "_OTHER": {r: roles[(i + 1) % len(roles)] for i, r in enumerate(roles)},
            "_ROLES": tuple(roles),
            "_CARD_IDS": tuple(symbols.cards),
            "_D": {},
            "_P": program.playout,
            "_PD": {},  # playout versions of the procedures that never stop, as code calls them
            "_move": helpers.move, "_move_all": helpers.move_all, "_draw": helpers.draw,
            "_call": helpers.call, "_snap": helpers.snapshot, "_END": helpers.end_checks,
            "_FD": FrozenDict, "_FL": FrozenList, "_fsnap": freeze,
            "_full": helpers.full, "_no_item": helpers.no_item, "_add": helpers.add,
            "_sub": helpers.sub, "_mul": helpers.mul, "_each": helpers.each,
            "_each_if": helpers.each_if,
            "_over": helpers.over_budget, "_Stop": helpers.StopGame,
            "_EndRound": helpers.EndRound, "_mask": mask_of, "_INT": int,
            "_TUPLE": tuple, "_BITS": bit_indexes,
        })
        for name, builtin in BUILTINS.items():
            self.ns[f"_b_{name}"] = builtin.impl
        for name, impl in graph_functions(symbols.board).items():
            self.ns[f"_G_{name}"] = impl
        for name, walk in graph_walks(symbols.board).items():
            self.ns[f"_GW_{name}"] = walk
        program.plain_ids = frozenset(
            ident for ident in symbols.components() if ident != "none" and "+" not in ident)
        # (id of a log statement, in a direct version) -> its number
        self.log_ids: dict[tuple[int, bool], int] = {}
        self.refuser_ids: dict[int, int] = {}  # id of a choice -> its number in refusers
        self.labeller_ids: dict[int, int] = {}  # id of a choice -> its number in labellers
        self.trees: dict[Any, n.Expr] = {}  # compiled expression -> its tree
        self.end_watch: set[str] | None = None  # what the end conditions read (None: any)
        # What the anytime conditions read, and what to forget of them after a write to it
        # (see when_reads; None: anything).
        self.when_watch: dict[str, list[int | str]] | None = None
        # What the procedures of anytime actions write (None: unknown, so anything).
        self.anytime_writes: set[str] | None = None
        self.sources: dict[str, str] = {}  # generated Python by file name, for debugging

    # ------------------------------------------------------------ compiling Python

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
            if tree is None or not reads(tree, self.function_trees, found, set()):
                return None
        return found

    def when_reads(self) -> dict[str, list[int | str]] | None:
        """What a playout forgets of the values of anytime conditions it keeps (``rt.whens``)
        after a write, by zone or variable: the index of each ``when`` that reads it and the
        role of that action (None: unknown, or a condition reads the round, the phase or the
        result, which change elsewhere)."""
        forget: dict[str, list[int | str]] = {}
        for index, (decl, when) in enumerate(self.program.anytime):
            if when is None:
                continue
            tree = self.trees.get(when)
            found: set[str] = set()
            if tree is None or not reads(tree, self.function_trees, found, set(), True):
                return None
            for name in found:
                forget.setdefault(name, []).extend([index, decl.role])
        return forget

    def playout_whens(self) -> list[ExprFn | None]:
        """The ``when`` conditions of anytime actions written as playout code (the pack's
        small functions in place, no step counted per item)."""
        found: list[ExprFn | None] = []
        with self.playing_out():
            for decl, when in self.program.anytime:
                tree = self.trees.get(when) if when is not None else None
                found.append(when if tree is None else self.expr(tree, decl.location))
        return found

    def reads_nothing_shared(self, e: n.Expr) -> bool:
        """Whether ``e`` reads only locals, parameters and constants: no zone, variable,
        round, phase or result (what an anytime action could change while a frame waits)."""
        found: set[str] = set()
        return reads(e, self.function_trees, found, set(), True) and not found

    def anytime_may_change(self, e: n.Expr) -> bool:
        """Whether an anytime action may change the value of ``e``: it reads the round, the
        phase, the result, or a zone or variable an anytime action's procedure writes
        (directly or through the procedures it calls)."""
        found: set[str] = set()
        written = self.anytime_writes
        return (written is None or not reads(e, self.function_trees, found, set(), True)
                or bool(found & written))

    def function(self, body: list[str], location: Location | None = None) -> Any:
        """Compile ``def f(rt, L): <body>`` (the body's lines all point at ``location``)."""
        return self.block_function("code", "L", [(line, location) for line in body])

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
        self.anytime_writes = writes_of(
            {b.name: b.stmts for b in bodies},
            [decl.procedure for decl, _ in self.program.anytime], triggers)
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
                if body.name not in suspending:
                    self.ns["_PD"][body.name] = self._playout_version(body, suspending, True)
            self.program.playout_whens = self.playout_whens()
            if self.program.flow is not None:
                self.program.playout[MAIN] = main_playout(self.program, *self.program.flow)
            self.program.build_playout = None

        self.program.build_playout = build_playout  # on first use: loading stays fast

    def _playout_version(self, body: Body, suspending: set[str], called: bool = False) -> Any:
        """A procedure as one plain function answering its choices at once (written in
        playout mode: see ``ExprWriter.playing_out``). One that never stops keeps its locals
        but the parameters in Python names, as its direct version does, and has a version
        for calls from code (``called``), which logs as its direct version."""
        emitter = Emitter(self, self.program.procs[body.name], body.snippet, suspending,
                          inline=True, called=called, nslots=body.nslots)
        private = range(len(body.params), body.nslots if body.name not in suspending else 0)
        with self.playing_out(), self.private_locals(private):
            lines = emitter.structured(body.stmts, [], "")
        pad = emitter.nslots - len(body.params) if not private else 0
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
        self.function_params[name] = nparams
        self.program.direct_functions[name] = fn

        def call(rt: Runtime, args: list[Any]) -> Any:
            return fn(rt, list(args))

        self.program.functions[name] = call


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
