"""Compile checked syntax trees to Python code, once per pack."""

from __future__ import annotations

import builtins
import re
from dataclasses import dataclass, field
from typing import Any

from rulekit.engine import helpers
from rulekit.engine.frozen import FrozenDict, FrozenList, freeze
from rulekit.engine.graph import graph_functions, graph_walks
from rulekit.errors import Location
from rulekit.lang import nodes as n
from rulekit.lang.analysis import live_reads, reads, writes_of
from rulekit.lang.builtins import BUILTINS
from rulekit.lang.emitter import Emitter
from rulekit.lang.pyexpr import ExprWriter
from rulekit.lang.secrecy import mark_secret_choices
from rulekit.lang.walk import calls_in, choices_in, triggers_of
from rulekit.model.program import ExprFn, Proc, Program
from rulekit.model.symbols import Symbols
from rulekit.source.snippet import Snippet

# The only Python built-ins generated code may reach.
_SAFE_BUILTINS = {name: getattr(builtins, name)
                  for name in ("len", "list", "isinstance", "str", "range", "reversed", "min",
                               "max", "sum", "map")}


class Compiler(ExprWriter):
    """Compiles the bodies and expressions of one pack into a :class:`Program`."""

    def __init__(self, symbols: Symbols, program: Program) -> None:
        self.program = program
        roles = symbols.roles
        super().__init__(symbols, {
            "__builtins__": _SAFE_BUILTINS,
            "C": symbols.components(),
            "_F": program.functions,
            "_OTHER": {r: roles[(i + 1) % len(roles)] for i, r in enumerate(roles)},
            "_ROLES": tuple(roles),
            "_CARD_IDS": tuple(symbols.cards),
            "_P": program.runs,  # procedures run whole, as playouts run them
            "_D": program.direct,  # procedures that never stop, as the interpreter runs them
            "_move": helpers.move, "_move_all": helpers.move_all, "_draw": helpers.draw,
            "_call": helpers.call, "_snap": helpers.snapshot, "_END": helpers.end_checks,
            "_FD": FrozenDict, "_FL": FrozenList, "_fsnap": freeze,
            "_full": helpers.full, "_no_item": helpers.no_item, "_add": helpers.add,
            "_sub": helpers.sub, "_mul": helpers.mul, "_each": helpers.each,
            "_each_if": helpers.each_if,
            "_over": helpers.over_budget, "_Stop": helpers.StopGame,
            "_EndRound": helpers.EndRound, "_INT": int,
            **{f"_b_{name}": builtin.impl for name, builtin in BUILTINS.items()},
            **{f"_G_{name}": impl for name, impl in graph_functions(symbols.board).items()},
            **{f"_GW_{name}": walk for name, walk in graph_walks(symbols.board).items()},
        })
        program.plain_ids = frozenset(
            ident for ident in symbols.components() if ident != "none" and "+" not in ident)
        # The spec maker of each choice, by its node's id, answer slot and fast code.
        self.makers: dict[tuple[int, int, bool], Any] = {}
        # The number of each text (log line, reason) in its table, by the statement's id.
        self.text_ids: dict[int, dict[int, int]] = {}
        self.trees: dict[Any, n.Expr] = {}  # compiled expression -> its tree
        self.end_watch: set[str] | None = None  # what the end conditions read (None: any)
        # What the anytime conditions read, and the roles of those that read each.
        self.when_watch: dict[str, set[str]] | None = None
        # What the procedures of anytime actions write (None: unknown, so anything).
        self.anytime_writes: set[str] | None = None
        # Procedures a playout runs through their blocks (see Emitter.calls).
        self.through_blocks: set[str] = set()
        self.triggers = triggers_of(symbols)  # the procedure each change of a pile runs

    # ------------------------------------------------------------ expressions

    def expr(self, e: n.Expr, location: Location | None = None) -> ExprFn:
        """A closure ``f(rt, L)`` computing the expression."""
        fn: ExprFn = self.block_function("code", "L", [("return " + self.py(e), location)])
        self.trees[fn] = e
        return fn

    def end_reads(self) -> tuple[set[str] | None, bool]:
        """What the end conditions read (None: any), and whether each phase start checks them."""
        found: set[str] = set()
        on_turns = False
        for condition, _, _ in self.program.end_checks:
            names = self._reads(self.trees.get(condition), strict=False)
            if names is None:
                return None, True
            on_turns = on_turns or not names or self._reads(self.trees[condition]) is None
            found |= names
        return found, on_turns

    def when_reads(self) -> dict[str, set[str]] | None:
        """What the anytime conditions read, with their roles; None if unknown or not only piles."""
        found: dict[str, set[str]] = {}
        for decl, when in self.program.anytime:
            names = set() if when is None else self._reads(self.trees.get(when))
            if names is None:
                return None
            for name in names:
                found.setdefault(name, set()).add(decl.role)
        return found

    def _reads(self, e: n.Expr | None, strict: bool = True) -> set[str] | None:
        """The zones and variables ``e`` reads; None if unknown (see :func:`analysis.reads`)."""
        found: set[str] = set()
        known = e is not None and reads(e, self.function_trees, found, set(), strict)
        return found if known else None

    def reads_nothing_shared(self, e: n.Expr) -> bool:
        """Whether ``e`` reads only locals, parameters and constants."""
        return self._reads(e) == set()

    def anytime_may_change(self, e: n.Expr) -> bool:
        """Whether an anytime action may change the value of ``e``."""
        found, written = self._reads(e), self.anytime_writes
        return written is None or found is None or bool(found & written)

    def function(self, body: list[str], location: Location | None = None) -> Any:
        """Compile ``def f(rt, L): <body>``, all its lines at ``location``."""
        return self.block_function("code", "L", [(line, location) for line in body])

    def block_function(self, name: str, arg: str, lines: list[tuple[str, Location | None]],
                       head: list[str] | None = None) -> Any:
        """Compile ``def f(rt, <arg>): <lines>``, each line at its pack location."""
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
        filename = f"<rulekit {name} {next(self._counter)}>"
        local_ns: dict[str, Any] = {}
        exec(compile("\n".join(source_lines) + "\n", filename, "exec"), self.ns, local_ns)
        self.program.line_maps[filename] = line_map
        return local_ns["_block"]

    # ------------------------------------------------------------ bodies

    def compile_bodies(self, bodies: list[Body]) -> None:
        """Compile procedures, setup and phases together."""
        idle = _idle(bodies)  # (a change that runs nothing runs no call)
        self.triggers = {key: proc for key, proc in self.triggers.items() if proc not in idle}
        suspending = self._suspending(bodies)
        self._analyse(bodies)
        program = self.program
        for body in bodies:
            proc = program.procs[body.name] = Proc(body.name, nslots=body.nslots,
                                                   params=body.params)
            if body.name not in suspending:
                program.direct[body.name] = self._whole(body, suspending)
                continue
            emitter = Emitter(self, proc, body.snippet, suspending, whole=False)
            emitter.blocks(body.stmts, [])
            emitter.finish()
            if program.anytime and proc.moved_tests:
                self.through_blocks.add(body.name)
        with self.fast_code():
            for body in bodies:
                if body.name not in self.through_blocks:
                    program.runs[body.name] = self._whole(body, suspending)

    def _analyse(self, bodies: list[Body]) -> None:
        """What the bodies' code tells the compiler before it writes any."""
        program = self.program
        whens = [(decl.role, self.trees[when]) for decl, when in program.anytime
                 if when is not None]
        procedures = {b.name: b.stmts for b in bodies}
        program.secret_anytime = mark_secret_choices(self.symbols, procedures,
                                                     self.function_trees, whens)
        actions = [decl.procedure for decl, _ in program.anytime]
        self.anytime_writes = writes_of(procedures, actions, self.triggers)
        conditions = [self.trees[c] for c, _, _ in program.end_checks if c in self.trees]
        live = live_reads(procedures.values(), [*conditions, *(w for _, w in whens)],
                          self.function_trees, self.triggers)
        program.live_vars = None if live is None else frozenset(live)
        self.end_watch, program.end_on_turns = self.end_reads()
        self.when_watch = self.when_reads()
        program.cached_anytime = self.when_watch is not None

    def _whole(self, body: Body, suspending: set[str]) -> Any:
        """The function that runs a procedure whole, its choices answered at once."""
        proc = self.program.procs[body.name]
        emitter = Emitter(self, proc, body.snippet, suspending, whole=True)
        private = range(len(body.params), body.nslots if body.name not in suspending else 0)
        with self.names({slot: f"_l{slot}" for slot in private}):
            lines = emitter.structured(body.stmts, [], "")
        head = [] if private else [f"if len(L) < {emitter.nslots}: "
                                   f"L.extend([None] * ({emitter.nslots} - len(L)))"]
        kind = "fast" if self.fast else "whole"
        return self.block_function(f"{body.name} {kind}", "L", lines or [("pass", None)], head)

    def _suspending(self, bodies: list[Body]) -> set[str]:
        """The bodies that may stop for a decision, directly or through calls."""
        stopping = {b.name for b in bodies if choices_in(b.stmts)}
        calls = {b.name: calls_in(b.stmts, self.triggers) for b in bodies}
        while True:
            more = {name for name, called in calls.items() if called & stopping} - stopping
            if not more:
                return stopping
            stopping |= more

    def compile_function(self, name: str, body: n.Expr, nslots: int, nparams: int) -> None:
        """Compile a pure function of the pack."""
        pad = nslots - nparams
        head = [f"L.extend([None] * {pad})"] if pad > 0 else []
        # It is called with a new list of arguments, which it extends with its own locals.
        fn = self.block_function(f"function {name}", "L", [("return " + self.py(body), None)],
                                 head)
        self.trees[fn] = body
        self.function_trees[name] = body
        self.function_params[name] = nparams
        self.program.functions[name] = fn


@dataclass
class Body:
    """A checked statement list to compile: a procedure, the setup or a phase."""

    name: str
    stmts: list[n.Stmt]
    snippet: Snippet
    nslots: int
    params: list[tuple[str, str]] = field(default_factory=list)


def _idle(bodies: list[Body]) -> set[str]:
    """The bodies that do nothing: ``pass`` alone."""
    return {b.name for b in bodies if all(isinstance(s, n.Pass) for s in b.stmts)}


_PRELUDE = (("L", "L = frame['locals']"), ("Z", "Z = rt.zones"), ("V", "V = rt.vars"),
            ("S", "S = rt.state"))


def _prelude(text: str, *, with_locals: bool) -> list[str]:
    """The assignments a generated body needs for the short names it uses."""
    return [line for name, line in _PRELUDE
            if (with_locals or name != "L") and re.search(rf"\b{name}\b", text)]
