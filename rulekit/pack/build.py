"""Parse, check and compile the effect code of a pack, and build its main procedure."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING, NotRequired, TypedDict, TypeVar, cast

from rulekit.engine.helpers import BudgetExceeded, EndRound, StopGame, end_checks
from rulekit.engine.vm import Runtime
from rulekit.errors import (
    EffectSyntaxError,
    Location,
    PackError,
    PackFileError,
    SchemaError,
)
from rulekit.lang import nodes as n
from rulekit.lang.checker import Checker
from rulekit.lang.compiler import Body, Compiler
from rulekit.lang.parser import parse_block, parse_expression
from rulekit.limits import MAX_PACK_CODE_CHARS
from rulekit.model.program import (
    INITIATIVE,
    MAIN,
    STOP,
    Block,
    ExprFn,
    Frame,
    Locals,
    Proc,
    ProcFn,
    Program,
)
from rulekit.model.symbols import AnytimeDecl, FuncDecl, Symbols
from rulekit.pack.documents import Documents, known, snippet
from rulekit.pack.effects import (
    ACTION_PARAMS,
    Dispatch,
    card_versions,
    own_base,
    version_procs,
)
from rulekit.source.document import YamlDocument
from rulekit.source.snippet import Snippet

if TYPE_CHECKING:
    from rulekit.engine.playout import PlayoutRuntime

T = TypeVar("T", n.Expr, list[n.Stmt])
SETUP = "__setup__"
AFTER_ROUNDS = "__after_rounds__"
Code = tuple[n.Expr | list[n.Stmt], Snippet]


class PhaseSpec(TypedDict):
    """A phase of the flow: its id and its statements."""

    id: str
    do: str


class EndSpec(TypedDict):
    """An end condition of the flow."""

    when: str
    winner: str
    reason: NotRequired[str]


class FlowSpec(TypedDict, total=False):
    """The ``flow`` section: rounds of phases, and how a game ends."""

    rounds: str | int
    phases: list[PhaseSpec]
    end_when: list[EndSpec]
    after_rounds: str
    initiative: str
    evaluate: dict[str, str]


class CodeBuilder:
    """Parses, checks and compiles the effect code of one pack."""

    def __init__(self, docs: Documents, manifest_doc: YamlDocument) -> None:
        self.manifest_doc = manifest_doc
        self.errors = docs.errors
        self.doc = docs.content  # the pack's sections, merged
        self.flow: FlowSpec = self.doc.data.get("flow", {})
        self.bodies: list[Body] = []
        self.function_trees: dict[str, n.Expr] = {}  # each function's checked body
        self.code: list[Code] = []  # each piece of the pack's own code, parsed
        self.code_chars = 0  # of the pieces parsed so far

    def _within_limit(self, snippet: Snippet) -> bool:
        """Count ``snippet``'s code; False, with an error the first time, past the pack's limit."""
        before, self.code_chars = self.code_chars, self.code_chars + len(snippet.text)
        if self.code_chars <= MAX_PACK_CODE_CHARS:
            return True
        if before <= MAX_PACK_CODE_CHARS:
            self.errors.append(EffectSyntaxError(
                f"the pack's effect code passes {MAX_PACK_CODE_CHARS:,} characters here (the "
                "limit)", snippet.locate(1, 1), "describe less in code, or share procedures"))
        return False

    def _parse(self, parse: Callable[[Snippet], T], snippet: Snippet, keep: bool = True
               ) -> T | None:
        """The parsed code, kept in ``code`` if ``keep``; or None with its error."""
        if not self._within_limit(snippet):
            return None
        try:
            tree = parse(snippet)
        except PackError as exc:
            self.errors.append(exc)
            return None
        if keep:
            self.code.append((tree, snippet))
        return tree

    def _body(self, symbols: Symbols, name: str, snippet: Snippet,
              params: list[tuple[str, str]],
              base_of: Callable[[n.Pos], str | None] | None = None, keep: bool = True) -> None:
        """Parse and check one statement list; keep it for compiling."""
        body = self._parse(parse_block, snippet, keep)
        if body is None:
            return
        checker = Checker(symbols, snippet, base_of=base_of)
        checker.declare_params(params)
        nslots = checker.check_body(body)
        self.errors.extend(checker.errors)
        self.bodies.append(Body(name, body, snippet, nslots, params))

    def _expr(self, symbols: Symbols, compiler: Compiler, snippet: Snippet, expected: str
              ) -> ExprFn | None:
        checked = self._checked_expr(symbols, snippet, expected)
        return None if checked is None else compiler.expr(checked[0])

    def _checked_expr(self, symbols: Symbols, snippet: Snippet, expected: str | None,
                      context: str = "expr", params: Sequence[tuple[str, str]] = (),
                      keep: bool = True, typed: FuncDecl | None = None
                      ) -> tuple[n.Expr, int] | None:
        """The tree of a checked expression and its local slots; None if it has errors."""
        expr = self._parse(parse_expression, snippet, keep)
        if expr is None:
            return None
        checker = Checker(symbols, snippet, context=context)
        checker.declare_params(params)
        kind = checker.check_expr(expr, expected)
        if typed is not None:  # a function's type, kept even if its body has errors
            typed.result = kind
        self.errors.extend(checker.errors)
        return None if checker.errors else (expr, checker.nslots)

    def _flow_function(self, symbols: Symbols, compiler: Compiler, name: str, code: Snippet,
                       expected: str) -> bool:
        """Compile a flow expression as ``program.functions[name]``; false on errors."""
        checked = self._checked_expr(symbols, code, expected, "proc")
        if checked is not None:
            compiler.compile_function(name, *checked, 0)
        return checked is not None

    def _end_checks(self, symbols: Symbols, compiler: Compiler) -> None:
        """The end conditions (``flow.end_when``), into ``compiler.program.end_checks``."""
        for i, check in enumerate(self.flow.get("end_when", [])):
            cond = self._expr(symbols, compiler,
                              snippet(self.doc, ("flow", "end_when", i, "when")), "bool")
            winner = check["winner"]
            known(winner, symbols.roles, "role",
                  self.doc.location(("flow", "end_when", i, "winner")), self.errors)
            if cond is not None:
                compiler.program.end_checks.append((cond, winner, check.get("reason", "")))

    def _functions(self, symbols: Symbols, compiler: Compiler) -> None:
        """Check and compile the pack's functions, finding their result types."""
        for func in symbols.functions.values():
            checked = self._checked_expr(symbols, func.snippet, None, "function", func.params,
                                         typed=func)
            if checked is not None:
                self.function_trees[func.name] = checked[0]
                compiler.compile_function(func.name, *checked, len(func.params))

    def compile_code(self, symbols: Symbols, compiler: Compiler) -> None:
        """Parse, check and compile all code."""
        # End conditions first: statements compiled later check them after each change.
        self._end_checks(symbols, compiler)
        self._flow_functions(symbols, compiler)
        self._functions(symbols, compiler)
        self._procedures(symbols)
        if "setup" in self.doc.data:
            self._body(symbols, SETUP, snippet(self.doc, ("setup",)), [])
        if "flow" not in self.doc.data:
            self.errors.append(PackFileError(
                "the pack has no flow section", self.manifest_doc.key_location(("include",)),
                "add flow: with rounds and phases to one of the included files"))
            return
        self._flow(symbols, compiler)

    def _procedures(self, symbols: Symbols) -> None:
        """The procedures, each with the versions its cards and card types give."""
        versions = card_versions(self.doc, symbols, self.errors)
        names = set(symbols.procedures)
        # What base(...) may call, checked only if called: a variant's base pack's procedures
        # (a variant may have removed what they use), and versions of card procedures.
        apart = {name: (symbols.procedures[name], own_base(name, names))
                 for name in names if name.endswith("@base")}
        for name, given in versions.items():
            apart.update(version_procs(symbols.procedures[name], given, names))
        symbols.procedures.update({name: decl for name, (decl, _) in apart.items()})
        wanted: list[str] = []

        def runs(where: Callable[[n.Pos], str | None]) -> Callable[[n.Pos], str | None]:
            def target(pos: n.Pos) -> str | None:
                name = where(pos)
                if name in apart:
                    wanted.append(name)
                return name
            return target

        for proc in [p for p in symbols.procedures.values() if p.name not in apart]:
            found = versions.get(proc.name, [])
            if not found:
                self._body(symbols, proc.name, proc.snippet, proc.params,
                           runs(partial(_fixed, own_base(proc.name, names))))
            elif all(self._parse(parse_block, code) is not None
                     for code in [proc.snippet, *(v.snippet for v in found)]):
                dispatch = Dispatch(proc, found, names)
                self._body(symbols, proc.name, dispatch.snippet(), proc.params,
                           runs(dispatch.base_of), keep=False)
        done: set[str] = set()
        while wanted:
            name = wanted.pop()
            if name not in done:
                done.add(name)
                decl, target = apart[name]  # a base pack's body is linted only here
                self._body(symbols, name, decl.snippet, decl.params,
                           runs(partial(_fixed, target)), keep=name.endswith("@base"))

    def _flow_functions(self, symbols: Symbols, compiler: Compiler) -> None:
        for role in self.flow.get("evaluate", {}):
            where = ("flow", "evaluate", role)
            name = f"__evaluate__:{role}"
            if known(role, symbols.roles, "role", self.doc.key_location(where), self.errors) \
                    and self._flow_function(symbols, compiler, name, snippet(self.doc, where),
                                            "int"):
                compiler.program.evaluate[role] = compiler.program.functions[name]
        if "initiative" in self.flow:
            self._flow_function(symbols, compiler, INITIATIVE,
                                snippet(self.doc, ("flow", "initiative")), "role")

    def _flow(self, symbols: Symbols, compiler: Compiler) -> None:
        """The phases, rounds, after_rounds and anytime conditions; then the main procedure."""
        flow, doc = self.flow, self.doc
        phases = self._phases(symbols)
        rounds: ExprFn | None = None
        if "rounds" in flow:
            rounds = self._expr(symbols, compiler, snippet(doc, ("flow", "rounds")), "int")
            if rounds is None:
                return
        if "after_rounds" in flow:
            self._body(symbols, AFTER_ROUNDS, snippet(doc, ("flow", "after_rounds")), [])
        self._anytime_conditions(symbols, compiler)
        if not self.errors:
            compiler.compile_bodies(self.bodies)
            _MainLoop(compiler.program, rounds, phases).build(doc.key_location(("flow",)))

    def _phases(self, symbols: Symbols) -> list[tuple[str, str]]:
        phases = []
        if not self.flow.get("phases"):
            self.errors.append(SchemaError("the flow has no phases",
                                           self.doc.key_location(("flow",)),
                                           "add phases: a list of {id, do}"))
        for i, phase in enumerate(self.flow.get("phases", [])):
            name = f"phase:{phase['id']}"
            self._body(symbols, name, snippet(self.doc, ("flow", "phases", i, "do")), [])
            phases.append((phase["id"], name))
        return phases

    def _anytime_conditions(self, symbols: Symbols, compiler: Compiler) -> None:
        """Compile the ``when`` of each anytime action, asked at every decision."""
        for decl in symbols.anytime:
            when = None
            if decl.card is not None:
                when = self._card_condition(symbols, compiler, decl)
            elif decl.when_code is not None:
                where = decl.when_code
                checked = self._checked_expr(symbols, where, "bool")
                if checked is not None:
                    with compiler.fast_code():
                        when = compiler.expr(checked[0], where.location(checked[0].pos))
            compiler.program.anytime.append((decl, when))
            compiler.program.anytime_by_role.setdefault(decl.role, []).append((decl, when))


    def _card_condition(self, symbols: Symbols, compiler: Compiler, decl: AnytimeDecl
                        ) -> ExprFn | None:
        """A card's action's condition: the card lies in its zone, and its ``when`` holds."""
        assert decl.card is not None and decl.zone_test is not None
        compiler.program.action_cards[decl.procedure] = (decl.card, decl.role)
        checked = [self._checked_expr(symbols, code, "bool", "expr", ACTION_PARAMS,
                                      keep=code is decl.when_code)
                   for code in (decl.zone_test, decl.when_code) if code is not None]
        tests = [found[0] for found in checked if found is not None]
        if len(tests) < len(checked):
            return None
        test = tests[0] if len(tests) == 1 else n.Binary(tests[0].pos, "and", tests[0], tests[1])
        with compiler.fast_code():
            fn = compiler.expr(test, decl.location)
        card, role = decl.card, decl.role

        def condition(rt: Runtime, locals_: Locals) -> object:
            return fn(rt, [card, role])

        compiler.trees[condition] = test
        return cast(ExprFn, condition)


def _fixed(target: str | None, pos: n.Pos) -> str | None:
    return target


class _MainLoop:
    """The main procedure: setup, the rounds of phases and what follows, in both its forms."""

    def __init__(self, program: Program, rounds: ExprFn | None,
                 phases: list[tuple[str, str]]) -> None:
        self.program, self.rounds, self.phases = program, rounds, phases
        self.procs, self.runs = program.procs, program.runs
        self.checks, self.on_turns = bool(program.end_checks), program.end_on_turns

    def start_round(self, rt: Runtime, locals_: Locals) -> bool:
        """Start the next round; false after the last."""
        state = rt.state
        if self.rounds is not None and state["round"] >= _limit(self.rounds(rt, locals_)):
            return False
        if self.checks and state["round"] == 0:  # the state after setup
            end_checks(rt)
        state["round"] += 1
        return True

    def enter(self, phase_id: str | None, rt: Runtime, frame: Frame | None = None) -> int:
        """Enter a phase (None once the rounds are over): a block of its own."""
        rt.state["phase"] = phase_id
        if self.on_turns and phase_id is not None:
            end_checks(rt)
        return 0

    def finish(self, rt: Runtime, frame: Frame | None = None) -> int:
        """End a game that no end condition ended: the last block."""
        if rt.state["result"] is None:
            rt.finish(None, "the last round is over")
        return STOP

    # ------------------------------------------------------------ the blocks

    def call(self, name: str, rt: Runtime, frame: Frame) -> int:
        rt.stack.append({"proc": name, "pc": 0, "locals": [None] * self.procs[name].nslots})
        return 0

    def next_round(self, rt: Runtime, frame: Frame) -> int:
        if not self.start_round(rt, frame["locals"]):
            frame["pc"] = self.program.round_end_pc + 1  # to what follows the rounds
        return 0

    def loop(self, rt: Runtime, frame: Frame) -> int:
        frame["pc"] = self.program.round_start_pc
        return 0

    def build(self, where: Location) -> None:
        """Add the main procedure's blocks and its whole form to the program."""
        program, procs = self.program, self.procs
        code: list[Callable[[Runtime, Frame], int]] = []
        if SETUP in procs:
            code.append(partial(self.call, SETUP))
        program.round_start_pc = len(code)
        code.append(self.next_round)
        for phase_id, proc_name in self.phases:
            program.phase_pcs[phase_id] = len(code)
            code += [partial(self.enter, phase_id), partial(self.call, proc_name)]
        program.round_end_pc = len(code)
        code += [self.loop, partial(self.enter, None)]
        if AFTER_ROUNDS in procs:
            code.append(partial(self.call, AFTER_ROUNDS))
        code.append(self.finish)
        main = procs[MAIN] = Proc(MAIN)
        main.blocks = cast(list[Block], code)
        main.locations = [where] * len(code)
        program.runs[MAIN] = cast(ProcFn, self.whole)

    # ------------------------------------------------------------ run whole

    def run(self, name: str, rt: PlayoutRuntime) -> None:
        if name in self.runs:
            self.runs[name](rt, [])
        else:
            rt.run_blocks(name, [])

    def whole(self, rt: PlayoutRuntime, locals_: Locals) -> None:
        """The blocks' steps, as playouts run them, with one tick per phase."""
        if SETUP in self.procs:
            self.run(SETUP, rt)
        while self.start_round(rt, locals_):
            try:
                for phase_id, name in self.phases:
                    rt.ticks -= 1
                    if rt.ticks < 0:
                        raise BudgetExceeded
                    self.enter(phase_id, rt)
                    self.run(name, rt)
            except EndRound:
                pass  # on to the next round
        self.enter(None, rt)
        if AFTER_ROUNDS in self.procs:
            self.run(AFTER_ROUNDS, rt)
        self.finish(rt)
        raise StopGame


def _limit(rounds: object) -> int:
    """The number of rounds, as the checked ``rounds`` expression gives it."""
    assert isinstance(rounds, int)
    return rounds
