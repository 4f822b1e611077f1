"""Compile checked syntax trees to Python closures and flat instruction lists.

Expressions become closures ``f(rt, L) -> value`` (``rt`` is the running
:class:`~rulekit.engine.vm.Runtime`, ``L`` the current frame's list of locals). Statements become
instructions ``ins(rt, frame) -> status`` in a flat list per procedure, with jumps for control
flow, so the interpreter can stop at a choice and later resume from plain data: the frame
``[procedure, pc, locals]`` is all it needs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rulekit.errors import Location
from rulekit.lang import nodes as n
from rulekit.lang.builtins import BUILTINS
from rulekit.engine.decisions import item_ids
from rulekit.lang.parser import Snippet
from rulekit.lang.symbols import Symbols

if TYPE_CHECKING:
    from rulekit.engine.vm import Runtime

Locals = list[Any]
Frame = list[Any]  # [procedure name, pc, locals]
ExprFn = Callable[["Runtime", Locals], Any]
Instr = Callable[["Runtime", Frame], int]

# Instruction results
CONTINUE = 0
SUSPEND = 1  # waiting for decisions
STOP = 2  # the game is over

MAIN = "__main__"


@dataclass
class Proc:
    """One compiled procedure: its instructions and where each came from."""

    name: str
    code: list[Instr] = field(default_factory=list)
    locations: list[Location | None] = field(default_factory=list)
    nslots: int = 0
    params: list[tuple[str, str]] = field(default_factory=list)
    logs: dict[int, list[str | ExprFn]] = field(default_factory=dict)


@dataclass
class Program:
    """Everything compiled from a pack; shared, read-only, by every game of it."""

    procs: dict[str, Proc] = field(default_factory=dict)
    functions: dict[str, Callable[[Runtime, list[Any]], Any]] = field(default_factory=dict)
    phase_pcs: dict[str, int] = field(default_factory=dict)
    round_end_pc: int = -1
    end_checks: list[tuple[ExprFn, str, str]] = field(default_factory=list)


class _Loop:
    def __init__(self) -> None:
        self.breaks: list[int] = []
        self.continues: list[int] = []


def zone_key(name: str, role: str) -> str:
    return f"{name}.{role}"


class Compiler:
    """Compiles bodies for one pack into a :class:`Program`."""

    def __init__(self, symbols: Symbols, program: Program) -> None:
        self.symbols = symbols
        self.program = program
        self.cards = symbols.cards
        self.roles = symbols.roles

    # ------------------------------------------------------------ bodies

    def compile_proc(self, name: str, body: list[n.Stmt], snippet: Snippet, nslots: int,
                     params: list[tuple[str, str]] | None = None) -> Proc:
        proc = Proc(name, nslots=nslots, params=params or [])
        self.program.procs[name] = proc
        _Emitter(self, proc, snippet).block(body, [])
        return proc

    def compile_function(self, name: str, body: n.Expr, nslots: int, nparams: int) -> None:
        fn = self.expr(body)
        pad = [None] * (nslots - nparams)

        def call(rt: Runtime, args: list[Any]) -> Any:
            return fn(rt, args + pad)

        self.program.functions[name] = call

    # ------------------------------------------------------------ expressions

    def expr(self, e: n.Expr) -> ExprFn:
        method: Callable[[Any], ExprFn] = getattr(self, "_x_" + type(e).__name__.lower())
        return method(e)

    def zone(self, e: n.Expr) -> ExprFn:
        """A closure giving the zone key of a zone expression (``deck``, ``hand[p]``)."""
        if isinstance(e, n.Index):
            assert isinstance(e.obj, n.Name)
            name = e.obj.ident
            if isinstance(e.index, n.Name) and e.index.ref and e.index.ref[0] == "const":
                key = zone_key(name, e.index.ref[1])
                return lambda rt, L: key
            role = self.expr(e.index)
            prefix = name + "."
            return lambda rt, L: prefix + role(rt, L)
        assert isinstance(e, n.Name)
        key = e.ident
        return lambda rt, L: key

    def _x_literal(self, e: n.Literal) -> ExprFn:
        value = e.value
        return lambda rt, L: value

    def _x_cardlit(self, e: n.CardLit) -> ExprFn:
        value = e.card_id
        return lambda rt, L: value

    def _x_name(self, e: n.Name) -> ExprFn:
        ref = e.ref
        kind = ref[0]
        if kind == "local":
            slot = ref[1]
            return lambda rt, L: L[slot]
        if kind == "var":
            key = ref[1]
            return lambda rt, L: rt.vars[key]
        if kind == "zone":
            key = ref[1]
            return lambda rt, L: list(rt.zones[key])
        if kind == "const":
            value = ref[1]
            return lambda rt, L: value
        if kind == "builtin":
            name = ref[1]
            if name == "round":
                return lambda rt, L: rt.state["round"]
            if name == "phase":
                return lambda rt, L: rt.state["phase"]
            if name == "winner":
                return lambda rt, L: (rt.state["result"] or {}).get("winner")
            if name == "finished":
                return lambda rt, L: rt.state["result"] is not None
        raise AssertionError(f"unresolved name {e.ident}")  # pragma: no cover

    def _x_listlit(self, e: n.ListLit) -> ExprFn:
        items = [self.expr(i) for i in e.items]
        return lambda rt, L: [f(rt, L) for f in items]

    def _x_comprehension(self, e: n.Comprehension) -> ExprFn:
        source = self.expr(e.iterable)
        element = self.expr(e.element)
        slot = e.slot
        if e.condition is None:
            def comp(rt: Runtime, L: Locals) -> list[Any]:
                out = []
                for item in list(source(rt, L)):
                    L[slot] = item
                    out.append(element(rt, L))
                return out
            return comp
        cond = self.expr(e.condition)

        def comp_if(rt: Runtime, L: Locals) -> list[Any]:
            out = []
            for item in list(source(rt, L)):
                L[slot] = item
                if cond(rt, L):
                    out.append(element(rt, L))
            return out
        return comp_if

    def _x_attr(self, e: n.Attr) -> ExprFn:
        cards = self.cards
        attr = e.attr
        if isinstance(e.obj, n.Name) and e.obj.ref and e.obj.ref[0] == "local":
            slot = e.obj.ref[1]
            return lambda rt, L: cards[L[slot]][attr]
        obj = self.expr(e.obj)
        return lambda rt, L: cards[obj(rt, L)][attr]

    def _x_index(self, e: n.Index) -> ExprFn:
        if isinstance(e.obj, n.Name) and e.obj.ref and e.obj.ref[0] in ("zone", "var"):
            kind, name, _ = e.obj.ref
            if isinstance(e.index, n.Name) and e.index.ref and e.index.ref[0] == "const":
                key = zone_key(name, e.index.ref[1])
                if kind == "zone":
                    return lambda rt, L: list(rt.zones[key])
                return lambda rt, L: rt.vars[key]
            role = self.expr(e.index)
            prefix = name + "."
            if kind == "zone":
                return lambda rt, L: list(rt.zones[prefix + role(rt, L)])
            return lambda rt, L: rt.vars[prefix + role(rt, L)]
        obj = self.expr(e.obj)
        index = self.expr(e.index)
        return lambda rt, L: obj(rt, L)[index(rt, L)]

    def _x_call(self, e: n.Call) -> ExprFn:
        kind, name = e.ref
        if name == "count" and kind == "builtin" and _is_zone(e.args[0]):
            zone = self.zone(e.args[0])
            return lambda rt, L: len(rt.zones[zone(rt, L)])
        args = [self.expr(a) for a in e.args]
        if kind == "func":
            functions = self.program.functions
            return lambda rt, L: functions[name](rt, [a(rt, L) for a in args])
        if kind == "pack_builtin":
            roles = self.roles
            if name == "other":
                nxt = {r: roles[(i + 1) % len(roles)] for i, r in enumerate(roles)}
                role = args[0]
                return lambda rt, L: nxt[role(rt, L)]
            if name == "roles":
                return lambda rt, L: list(roles)
            if name == "cards":
                ids = list(self.cards)
                return lambda rt, L: list(ids)
        impl = BUILTINS[name].impl
        if len(args) == 1:
            a0 = args[0]
            return lambda rt, L: impl(a0(rt, L))
        if len(args) == 2:
            a0, a1 = args
            return lambda rt, L: impl(a0(rt, L), a1(rt, L))
        return lambda rt, L: impl(*[a(rt, L) for a in args])

    def _x_unary(self, e: n.Unary) -> ExprFn:
        operand = self.expr(e.operand)
        if e.op == "not":
            return lambda rt, L: not operand(rt, L)
        return lambda rt, L: -operand(rt, L)

    def _x_binary(self, e: n.Binary) -> ExprFn:
        a = self.expr(e.left)
        b = self.expr(e.right)
        op = e.op
        if op == "and":
            return lambda rt, L: a(rt, L) and b(rt, L)
        if op == "or":
            return lambda rt, L: a(rt, L) or b(rt, L)
        if isinstance(e.right, n.Literal) and op in ("==", "!=", "<", "<=", ">", ">="):
            return _compare_constant(op, a, e.right.value)
        table: dict[str, ExprFn] = {
            "==": lambda rt, L: a(rt, L) == b(rt, L),
            "!=": lambda rt, L: a(rt, L) != b(rt, L),
            "<": lambda rt, L: a(rt, L) < b(rt, L),
            "<=": lambda rt, L: a(rt, L) <= b(rt, L),
            ">": lambda rt, L: a(rt, L) > b(rt, L),
            ">=": lambda rt, L: a(rt, L) >= b(rt, L),
            "in": lambda rt, L: a(rt, L) in b(rt, L),
            "not in": lambda rt, L: a(rt, L) not in b(rt, L),
            "+": lambda rt, L: a(rt, L) + b(rt, L),
            "-": lambda rt, L: a(rt, L) - b(rt, L),
            "*": lambda rt, L: a(rt, L) * b(rt, L),
            "//": lambda rt, L: a(rt, L) // b(rt, L),
            "%": lambda rt, L: a(rt, L) % b(rt, L),
        }
        return table[op]


class _Emitter:
    """Emits the instructions of one procedure."""

    def __init__(self, compiler: Compiler, proc: Proc, snippet: Snippet) -> None:
        self.c = compiler
        self.proc = proc
        self.snippet = snippet

    def emit(self, pos: n.Pos | None, instr: Instr) -> int:
        self.proc.code.append(instr)
        self.proc.locations.append(self.snippet.location(pos) if pos else None)
        return len(self.proc.code) - 1

    def here(self) -> int:
        return len(self.proc.code)

    def patch(self, index: int, instr: Instr) -> None:
        self.proc.code[index] = instr

    def block(self, body: list[n.Stmt], loops: list[_Loop]) -> None:
        for stmt in body:
            getattr(self, "_s_" + type(stmt).__name__.lower())(stmt, loops)

    # -- jumps
    @staticmethod
    def _jump(target: int) -> Instr:
        def jump(rt: Runtime, frame: Frame) -> int:
            frame[1] = target
            return CONTINUE
        return jump

    @staticmethod
    def _jump_unless(cond: ExprFn, target: int) -> Instr:
        def jump_unless(rt: Runtime, frame: Frame) -> int:
            if not cond(rt, frame[2]):
                frame[1] = target
            return CONTINUE
        return jump_unless

    # -- statements
    def _s_let(self, s: n.Let, loops: list[_Loop]) -> None:
        if isinstance(s.value, n.Choice):
            self._choices(s.pos, [(s.value, s.slot)])
            return
        value = self.c.expr(s.value)
        slot = s.slot

        def let(rt: Runtime, frame: Frame) -> int:
            L = frame[2]
            L[slot] = value(rt, L)
            return CONTINUE
        self.emit(s.pos, let)

    def _s_assign(self, s: n.Assign, loops: list[_Loop]) -> None:
        ref = s.ref
        if isinstance(s.value, n.Choice):
            if ref[0] == "local":
                self._choices(s.pos, [(s.value, ref[1])])
                return
            tmp = self.proc.nslots
            self.proc.nslots += 1
            self._choices(s.pos, [(s.value, tmp)])
            value: ExprFn = lambda rt, L: L[tmp]  # noqa: E731
        else:
            value = self.c.expr(s.value)
        op = s.op
        if ref[0] == "local":
            slot = ref[1]
            if op == "=":
                def set_local(rt: Runtime, frame: Frame) -> int:
                    L = frame[2]
                    L[slot] = value(rt, L)
                    return CONTINUE
                self.emit(s.pos, set_local)
            else:
                sign = 1 if op == "+=" else -1

                def add_local(rt: Runtime, frame: Frame) -> int:
                    L = frame[2]
                    L[slot] = L[slot] + sign * value(rt, L)
                    return CONTINUE
                self.emit(s.pos, add_local)
            return
        _, name, per_role = ref
        decl = self.c.symbols.variables[name]
        lo, hi = decl.minimum, decl.maximum
        if per_role:
            assert s.index is not None
            role = self.c.expr(s.index)
            prefix = name + "."
            key_of: ExprFn = lambda rt, L: prefix + role(rt, L)  # noqa: E731
        else:
            key_of = lambda rt, L: name  # noqa: E731
        sign = 0 if op == "=" else (1 if op == "+=" else -1)

        def set_var(rt: Runtime, frame: Frame) -> int:
            L = frame[2]
            key = key_of(rt, L)
            v = value(rt, L)
            if sign:
                v = rt.vars[key] + sign * v
            if lo is not None and v < lo:
                v = lo
            if hi is not None and v > hi:
                v = hi
            rt.vars[key] = v
            return CONTINUE
        self.emit(s.pos, set_var)

    def _s_if(self, s: n.If, loops: list[_Loop]) -> None:
        ends: list[int] = []
        for cond, body in s.branches:
            test = self.emit(cond.pos, self._jump(-1))
            self.block(body, loops)
            ends.append(self.emit(None, self._jump(-1)))
            self.patch(test, self._jump_unless(self.c.expr(cond), self.here()))
        if s.otherwise is not None:
            self.block(s.otherwise, loops)
        end = self.here()
        for index in ends:
            self.patch(index, self._jump(end))

    def _loop_body(self, head: int, body: list[n.Stmt], loops: list[_Loop]) -> _Loop:
        loop = _Loop()
        self.block(body, [*loops, loop])
        self.emit(None, self._jump(head))
        for index in loop.continues:
            self.patch(index, self._jump(head))
        return loop

    def _s_for(self, s: n.For, loops: list[_Loop]) -> None:
        iterable = self.c.expr(s.iterable)
        it_slot, slot = s.iter_slot, s.slot

        def for_init(rt: Runtime, frame: Frame) -> int:
            L = frame[2]
            L[it_slot] = [list(iterable(rt, L)), 0]
            return CONTINUE
        self.emit(s.pos, for_init)
        head = self.emit(s.pos, self._jump(-1))
        loop = self._loop_body(head, s.body, loops)
        end = self.here()

        def for_next(rt: Runtime, frame: Frame) -> int:
            L = frame[2]
            it = L[it_slot]
            if it[1] >= len(it[0]):
                frame[1] = end
            else:
                L[slot] = it[0][it[1]]
                it[1] += 1
            return CONTINUE
        self.patch(head, for_next)
        for index in loop.breaks:
            self.patch(index, self._jump(end))

    def _s_while(self, s: n.While, loops: list[_Loop]) -> None:
        head = self.emit(s.pos, self._jump(-1))
        loop = self._loop_body(head, s.body, loops)
        end = self.here()
        self.patch(head, self._jump_unless(self.c.expr(s.condition), end))
        for index in loop.breaks:
            self.patch(index, self._jump(end))

    def _s_repeat(self, s: n.Repeat, loops: list[_Loop]) -> None:
        count = self.c.expr(s.count)
        it_slot = s.iter_slot

        def repeat_init(rt: Runtime, frame: Frame) -> int:
            L = frame[2]
            L[it_slot] = count(rt, L)
            return CONTINUE
        self.emit(s.pos, repeat_init)
        head = self.emit(s.pos, self._jump(-1))
        loop = self._loop_body(head, s.body, loops)
        end = self.here()

        def repeat_next(rt: Runtime, frame: Frame) -> int:
            L = frame[2]
            if L[it_slot] <= 0:
                frame[1] = end
            else:
                L[it_slot] -= 1
            return CONTINUE
        self.patch(head, repeat_next)
        for index in loop.breaks:
            self.patch(index, self._jump(end))

    def _s_break(self, s: n.Break, loops: list[_Loop]) -> None:
        loops[-1].breaks.append(self.emit(s.pos, self._jump(-1)))

    def _s_continue(self, s: n.Continue, loops: list[_Loop]) -> None:
        loops[-1].continues.append(self.emit(s.pos, self._jump(-1)))

    def _s_return(self, s: n.Return, loops: list[_Loop]) -> None:
        def ret(rt: Runtime, frame: Frame) -> int:
            frame[1] = 1 << 30
            return CONTINUE
        self.emit(s.pos, ret)

    def _s_pass(self, s: n.Pass, loops: list[_Loop]) -> None:
        pass

    def _s_move(self, s: n.Move, loops: list[_Loop]) -> None:
        src = self.c.zone(s.source)
        dst = self.c.zone(s.dest)
        bottom = s.to_bottom
        if s.cards is None:
            def move_all(rt: Runtime, frame: Frame) -> int:
                L = frame[2]
                zones = rt.zones
                a = zones[src(rt, L)]
                b = zones[dst(rt, L)]
                if a is b:
                    return CONTINUE
                if bottom:
                    b[:0] = a
                else:
                    b.extend(a)
                a.clear()
                return CONTINUE
            self.emit(s.pos, move_all)
            return
        cards = self.c.expr(s.cards)

        def move(rt: Runtime, frame: Frame) -> int:
            L = frame[2]
            zones = rt.zones
            src_key = src(rt, L)
            a = zones[src_key]
            b = zones[dst(rt, L)]
            value = cards(rt, L)
            for card in ([value] if isinstance(value, str) else list(value)):
                if card not in a:
                    raise LookupError(f"card '{card}' is not in zone '{src_key}'")
                a.remove(card)
                if bottom:
                    b.insert(0, card)
                else:
                    b.append(card)
            return CONTINUE
        self.emit(s.pos, move)

    def _s_draw(self, s: n.Draw, loops: list[_Loop]) -> None:
        src = self.c.zone(s.source)
        dst = self.c.zone(s.dest)
        count = self.c.expr(s.count)

        def draw(rt: Runtime, frame: Frame) -> int:
            L = frame[2]
            a = rt.zones[src(rt, L)]
            b = rt.zones[dst(rt, L)]
            k = min(count(rt, L), len(a))
            if k > 0:
                taken = a[-k:]
                del a[-k:]
                taken.reverse()
                b.extend(taken)
            return CONTINUE
        self.emit(s.pos, draw)

    def _s_shuffle(self, s: n.Shuffle, loops: list[_Loop]) -> None:
        zone = self.c.zone(s.zone)

        def shuffle(rt: Runtime, frame: Frame) -> int:
            rt.shuffle(rt.zones[zone(rt, frame[2])])
            return CONTINUE
        self.emit(s.pos, shuffle)

    def _s_callstmt(self, s: n.CallStmt, loops: list[_Loop]) -> None:
        args = [self.c.expr(a) for a in s.args]
        name = s.proc
        nparams = len(args)
        procs = self.c.program.procs

        def call(rt: Runtime, frame: Frame) -> int:
            L = frame[2]
            values = [a(rt, L) for a in args]
            values.extend([None] * (procs[name].nslots - nparams))
            rt.stack.append([name, 0, values])
            return CONTINUE
        self.emit(s.pos, call)

    def _s_simultaneous(self, s: n.Simultaneous, loops: list[_Loop]) -> None:
        pairs = []
        for binding in s.bindings:
            assert isinstance(binding.value, n.Choice)
            pairs.append((binding.value, binding.slot))
        self._choices(s.pos, pairs)

    def _choices(self, pos: n.Pos, pairs: list[tuple[n.Choice, int]]) -> None:
        makers = [self._choice_spec(choice, slot) for choice, slot in pairs]

        def choose(rt: Runtime, frame: Frame) -> int:
            L = frame[2]
            return rt.ask([make(rt, L) for make in makers])
        self.emit(pos, choose)

    def _choice_spec(self, choice: n.Choice, slot: int) -> Callable[[Runtime, Locals], dict[str, Any]]:
        player = self.c.expr(choice.player)
        source = self.c.expr(choice.source)
        var = choice.slot
        where = self.c.expr(choice.where) if choice.where is not None else None
        lo = self.c.expr(choice.min) if choice.min is not None else None
        hi = self.c.expr(choice.max) if choice.max is not None else None
        groups = [(self.c.expr(g.limit), self.c.expr(g.condition)) for g in choice.at_most]
        kind = choice.kind
        optional = choice.optional
        prompt = choice.prompt or ("Choose one" if kind == "one" else "Choose any number")

        def make(rt: Runtime, L: Locals) -> dict[str, Any]:
            items = list(source(rt, L))
            if where is not None:
                kept = []
                for item in items:
                    L[var] = item
                    if where(rt, L):
                        kept.append(item)
                items = kept
            spec: dict[str, Any] = {
                "player": player(rt, L), "kind": kind, "prompt": prompt, "items": items,
                "ids": item_ids(items), "slot": slot,
            }
            if kind == "one":
                spec["optional"] = optional
            else:
                spec["min"] = lo(rt, L) if lo is not None else 0
                spec["max"] = hi(rt, L) if hi is not None else len(items)
                rules = []
                for limit, cond in groups:
                    flags = []
                    for item in items:
                        L[var] = item
                        flags.append(1 if cond(rt, L) else 0)
                    if sum(flags) > 0:
                        rules.append([limit(rt, L), flags])
                spec["at_most"] = rules
            return spec
        return make

    def _s_win(self, s: n.Win, loops: list[_Loop]) -> None:
        winner = self.c.expr(s.winner)
        reason = s.reason or ""

        def win(rt: Runtime, frame: Frame) -> int:
            rt.finish(winner(rt, frame[2]), reason)
            return STOP
        self.emit(s.pos, win)

    def _s_endround(self, s: n.EndRound, loops: list[_Loop]) -> None:
        program = self.c.program

        def end_round(rt: Runtime, frame: Frame) -> int:
            stack = rt.stack
            while stack and stack[-1][0] != MAIN:
                stack.pop()
            if not stack:
                raise LookupError("end_round used outside the rounds of play")
            stack[-1][1] = program.round_end_pc
            return CONTINUE
        self.emit(s.pos, end_round)

    def _s_log(self, s: n.Log, loops: list[_Loop]) -> None:
        parts: list[str | ExprFn] = [p if isinstance(p, str) else self.c.expr(p) for p in s.parts]
        exprs = [p for p in parts if not isinstance(p, str)]
        to = self.c.expr(s.to) if s.to is not None else None
        proc_name = self.proc.name
        index = self.here()
        self.proc.logs[index] = parts

        def log(rt: Runtime, frame: Frame) -> int:
            L = frame[2]
            rt.log.append({
                "e": "log", "to": to(rt, L) if to is not None else None,
                "at": [proc_name, index], "args": [_snapshot(f(rt, L)) for f in exprs],
                "round": rt.state["round"],
            })
            return CONTINUE
        self.emit(s.pos, log)


def _is_zone(e: n.Expr) -> bool:
    target = e.obj if isinstance(e, n.Index) else e
    return isinstance(target, n.Name) and bool(target.ref) and target.ref[0] == "zone"


def _snapshot(value: Any) -> Any:
    return list(value) if isinstance(value, list) else value


def _compare_constant(op: str, a: ExprFn, value: Any) -> ExprFn:
    if op == "==":
        return lambda rt, L: a(rt, L) == value
    if op == "!=":
        return lambda rt, L: a(rt, L) != value
    if op == "<":
        return lambda rt, L: a(rt, L) < value
    if op == "<=":
        return lambda rt, L: a(rt, L) <= value
    if op == ">":
        return lambda rt, L: a(rt, L) > value
    return lambda rt, L: a(rt, L) >= value
