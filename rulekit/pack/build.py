"""Parse, check and compile the effect code of a pack: functions, procedures, setup, the flow
and anytime conditions; then build the main procedure that runs rounds of phases."""

from __future__ import annotations

from typing import Any

from rulekit.engine.helpers import BudgetExceeded, EndRound, StopGame
from rulekit.errors import Location, PackError, PackFileError, SchemaError, did_you_mean
from rulekit.lang import nodes as n
from rulekit.lang.checker import Checker
from rulekit.lang.compiler import Body, Compiler
from rulekit.lang.parser import parse_block, parse_expression
from rulekit.model.program import INITIATIVE, MAIN, STOP, ExprFn, Frame, Proc, ProcFn, Program
from rulekit.model.symbols import Symbols
from rulekit.pack.documents import Documents, snippet
from rulekit.source.document import YamlDocument
from rulekit.source.snippet import Snippet

SETUP = "__setup__"
AFTER_ROUNDS = "__after_rounds__"


class CodeBuilder:
    """Parses, checks and compiles every piece of effect code of one pack."""

    def __init__(self, docs: Documents, manifest_doc: YamlDocument) -> None:
        self.manifest_doc = manifest_doc
        self.errors = docs.errors
        self._section = docs.section
        self.bodies: list[Body] = []
        self.function_trees: dict[str, n.Expr] = {}  # each function's checked body

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

    def _flow_function(self, symbols: Symbols, compiler: Compiler, name: str, code: Snippet,
                       expected: str) -> bool:
        """An expression of the flow compiled like a function without parameters (its
        comprehensions need local slots), as ``program.functions[name]``; false on errors."""
        expr = self._parse_expr(code)
        if expr is None:
            return False
        checker = Checker(symbols, code)
        checker.check_expr(expr, expected)
        self.errors.extend(checker.errors)
        if checker.errors:
            return False
        compiler.compile_function(name, expr, checker.nslots, 0)
        return True

    def _evaluation(self, symbols: Symbols, compiler: Compiler, role: str,
                    code: Snippet) -> None:
        """``flow.evaluate`` of one role: an integer expression."""
        name = f"__evaluate__:{role}"
        if self._flow_function(symbols, compiler, name, code, "int"):
            compiler.program.evaluate[role] = compiler.program.functions[name]

    def _end_checks(self, symbols: Symbols, compiler: Compiler) -> None:
        """The end conditions (``flow.end_when``), into ``compiler.program.end_checks``."""
        doc, flow = self._section("flow", None)
        if doc is None:
            return
        for i, check in enumerate(flow.get("end_when", [])):
            cond = self._expr(symbols, compiler, snippet(doc, ("flow", "end_when", i, "when")),
                              "bool")
            winner = check["winner"]
            if winner not in symbols.roles:
                self.errors.append(SchemaError(f"unknown role '{winner}'",
                                               doc.location(("flow", "end_when", i, "winner")),
                                               did_you_mean(winner, symbols.roles)))
            if cond is not None:
                compiler.program.end_checks.append((cond, winner, check.get("reason", "")))

    def _functions(self, symbols: Symbols, compiler: Compiler) -> None:
        """The pack's functions, checked (their result types found) and compiled."""
        for func in symbols.functions.values():
            expr = self._parse_expr(func.snippet)
            if expr is None:
                continue
            checker = Checker(symbols, func.snippet, context="function")
            checker.declare_params(func.params)
            func.result = checker.check_expr(expr)
            self.errors.extend(checker.errors)
            if not checker.errors:
                self.function_trees[func.name] = expr
                compiler.compile_function(func.name, expr, checker.nslots, len(func.params))

    def compile_code(self, symbols: Symbols, compiler: Compiler, bodies: bool = True) -> None:
        """Parse and check every piece of code, and compile it into ``compiler.program``;
        without ``bodies``, statement lists (procedures, setup, phases) are checked only."""
        # End conditions first: statements compiled later check them after each change.
        self._end_checks(symbols, compiler)
        doc, flow = self._section("flow", None)
        if doc is not None:
            for role in flow.get("evaluate", {}):
                if role not in symbols.roles:
                    self.errors.append(SchemaError(
                        f"unknown role '{role}'", doc.key_location(("flow", "evaluate", role)),
                        did_you_mean(role, symbols.roles)))
                    continue
                self._evaluation(symbols, compiler, role,
                                 snippet(doc, ("flow", "evaluate", role)))
            if "initiative" in flow:
                self._flow_function(symbols, compiler, INITIATIVE,
                                    snippet(doc, ("flow", "initiative")), "role")
        self._functions(symbols, compiler)
        for proc in symbols.procedures.values():
            self._body(symbols, proc.name, proc.snippet, proc.params)
        doc, _setup = self._section("setup", None)
        if doc is not None:
            self._body(symbols, SETUP, snippet(doc, ("setup",)), [])
        doc, flow = self._section("flow", None)
        if doc is None:
            self.errors.append(PackFileError(
                "the pack has no flow section", self.manifest_doc.key_location(("include",)),
                "add flow: with rounds and phases to one of the included files"))
            return
        phases = []
        if not flow.get("phases"):
            self.errors.append(SchemaError("the flow has no phases", doc.key_location(("flow",)),
                                           "add phases: a list of {id, do}"))
        for i, phase in enumerate(flow.get("phases", [])):
            name = f"phase:{phase['id']}"
            self._body(symbols, name, snippet(doc, ("flow", "phases", i, "do")), [])
            phases.append((phase["id"], name))
        rounds: ExprFn | None = None
        if "rounds" in flow:
            rounds = self._expr(symbols, compiler, snippet(doc, ("flow", "rounds")), "int")
            if rounds is None:
                return
        if "after_rounds" in flow:
            self._body(symbols, AFTER_ROUNDS, snippet(doc, ("flow", "after_rounds")),
                       [])
        anytime_doc, _ = self._section("anytime", [])
        for i, decl in enumerate(symbols.anytime):
            when = None
            if decl.when is not None and anytime_doc is not None:
                where = snippet(anytime_doc, ("anytime", i, "when"))
                tree = self._checked_expr(symbols, where, "bool")
                if tree is not None:  # (asked at every decision: fast code)
                    with compiler.fast_code():
                        when = compiler.expr(tree, where.location(tree.pos))
            compiler.program.anytime.append((decl, when))
            compiler.program.anytime_by_role.setdefault(decl.role, []).append((decl, when))
        if not self.errors and bodies:
            compiler.compile_bodies(self.bodies)
            _build_main(compiler.program, rounds, phases, doc.key_location(("flow",)))


def _build_main(program: Program, rounds: ExprFn | None, phases: list[tuple[str, str]],
                where: Location) -> None:
    """The main procedure: setup, then rounds of phases, then what follows the last round."""
    main = Proc(MAIN)
    code = main.blocks
    procs = program.procs

    def call(name: str) -> Any:
        def call_proc(rt: Any, frame: Frame) -> int:
            rt.stack.append({"proc": name, "pc": 0, "locals": [None] * procs[name].nslots})
            return 0
        return call_proc

    if SETUP in procs:
        code.append(call(SETUP))
    head = len(code)
    program.round_start_pc = head
    after_pc: list[int] = []

    def next_round(rt: Any, frame: Frame) -> int:
        state = rt.state
        if rounds is not None and state["round"] >= rounds(rt, frame["locals"]):
            frame["pc"] = after_pc[0]
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
        frame["pc"] = head
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
    program.runs[MAIN] = _main_whole(program, rounds, phases)


def _main_whole(program: Program, rounds: ExprFn | None, phases: list[tuple[str, str]]
                ) -> ProcFn:
    """The main procedure run whole, as a playout runs it: the same steps as its blocks."""
    procs, runs = program.procs, program.runs

    def run(name: str, rt: Any) -> None:
        if name in runs:
            runs[name](rt, [])
        else:
            rt.run_blocks(name, [])

    def main(rt: Any, locals_: list[Any]) -> None:
        state = rt.state
        if SETUP in procs:
            run(SETUP, rt)
        steps = [(phase_id, runs.get(name), name) for phase_id, name in phases]
        while rounds is None or state["round"] < rounds(rt, locals_):
            state["round"] += 1
            try:
                for phase_id, whole, name in steps:
                    rt.ticks -= 1
                    if rt.ticks < 0:
                        raise BudgetExceeded
                    state["phase"] = phase_id
                    if whole is not None:
                        whole(rt, [])
                    else:
                        rt.run_blocks(name, [])
            except EndRound:
                pass  # on to the next round
        state["phase"] = None
        if AFTER_ROUNDS in procs:
            run(AFTER_ROUNDS, rt)
        if state["result"] is None:
            rt.finish(None, "the last round is over")
        raise StopGame

    return main

