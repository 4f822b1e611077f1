"""Which choices depend on data that not every player may see.

Whether a player is asked must never tell the other players anything they may not know. The
interpreter takes a choice with a single legal answer without asking; that is safe only if the
options are worked out from public data. This module finds, once per pack, every choice whose
candidates or constraints (``source``, ``where``, ``min``, ``max``, ``at most``) may read data
that is not public, and marks it ``always_ask``: it is then asked even with one option or none.

Non-public data: a zone or variable whose visibility is not ``public`` (the number of cards
of a zone, ``count(zone)``, is public), a local variable or parameter that received such data
(through a ``let``, an assignment, a loop, a branch taken on such data, or an argument), the
answer of a choice (only its chooser sees it), and what a function computes from any of these.
The analysis is static and errs on the side of secrecy: a choice it marks may in fact have
public options; it then costs a question, never a leak.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, fields

from rulekit.lang import nodes as n
from rulekit.model.symbols import Symbols


@dataclass
class SecretBody:
    """A statement list to analyse: a procedure, the setup or a phase."""

    name: str
    stmts: list[n.Stmt]
    tainted_params: set[int] = field(default_factory=set)


@dataclass
class LogLeak:
    """A public log line that prints non-public data: the body, the ``{...}`` part and the
    names of the non-public zones, variables, locals or functions it reads."""

    body: str
    part: n.Expr
    names: list[str]


class _Analysis:
    def __init__(self, symbols: Symbols, bodies: list[SecretBody],
                 function_trees: dict[str, n.Expr], answers_secret: bool = True) -> None:
        self.symbols = symbols
        self.bodies = {b.name: b for b in bodies}
        self.function_trees = function_trees  # the checked body of each function
        self.functions: dict[tuple[str, frozenset[int]], bool] = {}
        self.changed = False
        self.marking = False
        # Whether the answer of a choice counts as non-public (its chooser alone knows it).
        self.answers_secret = answers_secret
        self.leaks: list[LogLeak] | None = None  # public log lines found, when collecting
        self.current = ""  # the body being analysed

    # ------------------------------------------------------------ data

    def secret_zone(self, name: str) -> bool:
        zone = self.symbols.zones.get(name)
        return zone is not None and zone.visibility != "public"

    def secret_var(self, name: str) -> bool:
        var = self.symbols.variables.get(name)
        return var is not None and var.visibility != "public"

    def _taint_param(self, proc: str, index: int) -> None:
        body = self.bodies.get(proc)
        if body is not None and index not in body.tainted_params:
            body.tainted_params.add(index)
            self.changed = True

    # ------------------------------------------------------------ expressions

    def expr(self, e: n.Expr | None, tainted: set[int]) -> bool:
        """True if the value of ``e`` may depend on non-public data."""
        if e is None or isinstance(e, (n.Literal, n.CardLit)):
            return False
        if isinstance(e, n.Name):
            return self._name(e.ref, tainted)
        if isinstance(e, n.ListLit):
            return self._any(e.items, tainted)
        if isinstance(e, n.Comprehension):
            source = self.expr(e.iterable, tainted)
            if source:
                tainted.add(e.slot)
            return self._any([e.condition, e.element], tainted) or source
        if isinstance(e, n.Attr):
            return self.expr(e.obj, tainted)
        if isinstance(e, n.Index):
            obj = e.obj
            if isinstance(obj, n.Name) and obj.ref and obj.ref[0] in ("zone", "var"):
                return self._name(obj.ref, tainted) or self.expr(e.index, tainted)
            return self._any([obj, e.index], tainted)
        if isinstance(e, n.Call):
            return self._call(e, tainted)
        if isinstance(e, n.Unary):
            return self.expr(e.operand, tainted)
        if isinstance(e, n.Binary):
            return self._any([e.left, e.right], tainted)
        if isinstance(e, n.Choice):
            return self.answers_secret  # its answer is known to its chooser only
        return True  # an expression this analysis does not know: assume the worst

    def _any(self, exprs: Iterable[n.Expr | None], tainted: set[int]) -> bool:
        found = False
        for e in exprs:  # every one, so that comprehension slots are all seen
            found = self.expr(e, tainted) or found
        return found

    def _name(self, ref: tuple[object, ...] | None, tainted: set[int]) -> bool:
        if not ref:
            return True
        kind = ref[0]
        if kind == "local":
            return ref[1] in tainted
        if kind == "zone":
            return self.secret_zone(str(ref[1]))
        if kind == "var":
            return self.secret_var(str(ref[1]))
        return False  # constants, round, phase

    def _call(self, e: n.Call, tainted: set[int]) -> bool:
        ref = e.ref or ("builtin", e.func)
        if ref[0] == "builtin" and e.func == "reveal":
            return False  # public on purpose, by the rules
        if ref[0] == "builtin" and e.func == "count" and len(e.args) == 1:
            zone = e.args[0]
            target = zone.obj if isinstance(zone, n.Index) else zone
            if isinstance(target, n.Name) and target.ref and target.ref[0] == "zone":
                # The size of a pile is public, whoever may see its cards.
                return isinstance(zone, n.Index) and self.expr(zone.index, tainted)
        args = [self.expr(a, tainted) for a in e.args]
        if ref[0] == "func":
            return self._function(str(ref[1]), args) or any(args)
        return any(args)

    def _function(self, name: str, args: list[bool]) -> bool:
        key = (name, frozenset(i for i, a in enumerate(args) if a))
        if key in self.functions:
            return self.functions[key]
        self.functions[key] = bool(key[1])  # while it is worked out (a function calling itself)
        body = self.function_trees.get(name)
        result = True if body is None else self.expr(body, set(key[1]))
        self.functions[key] = result
        return result

    # ------------------------------------------------------------ statements

    def body(self, body: SecretBody) -> None:
        """Taint the locals of one body until nothing changes (then mark its choices)."""
        tainted = set(body.tainted_params)
        while True:
            before = len(tainted)
            self.stmts(body.stmts, tainted, False)
            if len(tainted) == before:
                break
        if self.marking or self.leaks is not None:
            self.current = body.name  # log lines are looked at in this last pass only
            self.stmts(body.stmts, tainted, False, mark=self.marking)
            self.current = ""

    def stmts(self, stmts: list[n.Stmt], tainted: set[int], context: bool,
              mark: bool = False) -> None:
        for s in stmts:
            self.stmt(s, tainted, context, mark)

    def stmt(self, s: n.Stmt, tainted: set[int], context: bool, mark: bool) -> None:
        """``context``: the statement runs only on a branch taken on non-public data."""
        if isinstance(s, n.Simultaneous):
            self.stmts(list(s.bindings), tainted, context, mark)
        elif isinstance(s, (n.Let, n.Assign)):
            value = s.value
            if isinstance(value, n.Choice):
                secret = self.choice(value, tainted)
                if mark:
                    value.always_ask = secret
            if isinstance(s, n.Let):
                slot: int | None = s.slot
            else:
                slot = s.ref[1] if s.ref and s.ref[0] == "local" else None
            if (self.expr(value, tainted) or context) and slot is not None:
                tainted.add(slot)
            if isinstance(s, n.Assign) and s.ref and s.ref[0] == "var":
                proc = self.symbols.variables[s.name].on_change
                if proc is not None and self.secret_var(s.name):
                    self._taint_param(proc, 0)
        elif isinstance(s, n.If):
            for cond, branch in s.branches:
                inner = self.expr(cond, tainted) or context
                self.stmts(branch, tainted, inner, mark)
                context = inner  # later branches run only if this condition failed
            if s.otherwise is not None:
                self.stmts(s.otherwise, tainted, context, mark)
        elif isinstance(s, n.For):
            inner = self.expr(s.iterable, tainted) or context
            if inner:
                tainted.add(s.slot)
            self.stmts(s.body, tainted, inner, mark)
        elif isinstance(s, n.While):
            self.stmts(s.body, tainted, self.expr(s.condition, tainted) or context, mark)
        elif isinstance(s, n.Repeat):
            self.stmts(s.body, tainted, self.expr(s.count, tainted) or context, mark)
        elif isinstance(s, n.CallStmt):
            for i, arg in enumerate(s.args):
                if self.expr(arg, tainted) or context:
                    self._taint_param(s.proc, i)
        elif isinstance(s, n.Log):
            if self.leaks is not None and self.current and s.to is None:
                for part in s.parts:
                    if isinstance(part, n.Expr) and self.expr(part, tainted):
                        self.leaks.append(LogLeak(self.current, part,
                                                  self.secret_names(part, tainted)))
        elif isinstance(s, (n.Move, n.Draw)):
            dest = s.dest.obj if isinstance(s.dest, n.Index) else s.dest
            if isinstance(dest, n.Name):
                zone = self.symbols.zones.get(dest.ident)
                if zone is not None and zone.on_enter and zone.visibility != "public":
                    self._taint_param(zone.on_enter, 0)

    def choice(self, c: n.Choice, tainted: set[int]) -> bool:
        """True if the options of a choice may depend on non-public data."""
        source = self.expr(c.source, tainted)
        if source:
            tainted.add(c.slot)
        parts: list[n.Expr | None] = [c.where, c.min, c.max]
        for rule in c.at_most:
            parts += [rule.limit, rule.condition]
        return self._any(parts, tainted) or source


    def secret_names(self, e: n.Expr, tainted: set[int]) -> list[str]:
        """The non-public things ``e`` reads, by name (a function as ``name()``)."""
        found: list[str] = []
        stack: list[object] = [e]
        while stack:
            node = stack.pop()
            if isinstance(node, n.Name) and self._name(node.ref, tainted) and node.ref:
                found.append(node.ident)
            elif isinstance(node, n.Call) and node.ref and node.ref[0] == "func" and \
                    self._call(node, tainted) and not any(self.expr(a, tainted)
                                                          for a in node.args):
                found.append(f"{node.func}()")
            if isinstance(node, (n.Expr, n.Stmt)):
                stack += [getattr(node, f.name) for f in fields(node) if f.name != "pos"]
            elif isinstance(node, (list, tuple)):
                stack += list(node)
        return sorted(set(found))


def _fixed_point(analysis: _Analysis, bodies: list[SecretBody]) -> None:
    analysis.changed = True
    while analysis.changed:  # parameters receive non-public arguments, until nothing changes
        analysis.changed = False
        for body in bodies:
            analysis.body(body)


def public_log_leaks(symbols: Symbols, bodies: list[SecretBody],
                     function_trees: dict[str, n.Expr]) -> list[LogLeak]:
    """The fields of public log lines (no ``to``) that may print non-public data: a zone or
    variable that is not public, or what is worked out from one. The answer of a choice is
    not counted: a log line that says what a player chose tells what the rules make public."""
    analysis = _Analysis(symbols, bodies, function_trees, answers_secret=False)
    _fixed_point(analysis, bodies)
    analysis.leaks = []
    for body in bodies:
        analysis.body(body)
    return analysis.leaks


def mark_secret_choices(symbols: Symbols, bodies: list[SecretBody],
                        function_trees: dict[str, n.Expr],
                        whens: list[tuple[str, n.Expr]]) -> frozenset[str]:
    """Set ``always_ask`` on every choice of ``bodies`` whose options may depend on non-public
    data; return the roles with an anytime action whose ``when`` may read such data.

    ``whens`` are the roles of the anytime actions and their checked conditions.
    """
    analysis = _Analysis(symbols, bodies, function_trees)
    _fixed_point(analysis, bodies)
    analysis.marking = True
    for body in bodies:
        analysis.body(body)
    return frozenset(role for role, when in whens if analysis.expr(when, set()))
