"""Which choices may read data that not every player sees: those are asked even if forced."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from rulekit.lang import nodes as n
from rulekit.lang.analysis import is_pile, pile_counted, pile_decl
from rulekit.lang.walk import (
    assigned_slot,
    changed,
    children,
    every_node,
    guarded,
    triggered,
    triggers_of,
)
from rulekit.model.symbols import Symbols


@dataclass
class LogLeak:
    """A field of a public log line that prints non-public data, or a line on a secret branch."""

    body: str
    part: n.Expr | n.Log
    names: list[str]


class _Analysis:
    """Follows non-public data through the bodies of one pack."""

    def __init__(self, symbols: Symbols, bodies: dict[str, list[n.Stmt]],
                 function_trees: dict[str, n.Expr], answers_secret: bool) -> None:
        self.symbols = symbols
        self.bodies = bodies  # procedures, setup and phases, by name
        self.tainted_params: dict[str, set[int]] = {name: set() for name in bodies}
        self.triggers = triggers_of(symbols)
        self.function_trees = function_trees  # the checked body of each function
        self.functions: dict[tuple[str, frozenset[int]], bool] = {}
        self.changed = False
        self.marking = False
        # Whether the answer of a choice counts as non-public (its chooser alone knows it).
        self.answers_secret = answers_secret
        self.leaks: list[LogLeak] | None = None  # public log lines found, when collecting
        self.current = ""  # the body being analysed
        # Public log lines of an if whose every way writes one: what they say tells the way.
        self.every_way: set[int] = set()

    # ------------------------------------------------------------ data

    def _taint_param(self, proc: str, index: int) -> None:
        """Mark a parameter of a procedure as receiving non-public data."""
        tainted = self.tainted_params.get(proc)
        if tainted is not None and index not in tainted:
            tainted.add(index)
            self.changed = True

    # ------------------------------------------------------------ expressions

    def expr(self, e: n.Expr | None, tainted: set[int]) -> bool:
        """True if the value of ``e`` may depend on non-public data: if one of its parts may."""
        if isinstance(e, n.Name):
            return self._name(e.ref, tainted)
        if isinstance(e, n.Comprehension):
            return self._comprehension(e, tainted)
        if isinstance(e, n.Call):
            return self._call(e, tainted)
        if isinstance(e, n.Choice):
            return self.answers_secret  # its answer is known to its chooser only
        if isinstance(e, n.Index) and is_pile(e.obj):
            return self._name(e.obj.ref, tainted) or self.expr(e.index, tainted)
        return e is not None and self._any(children(e), tainted)

    def _any(self, exprs: Iterable[n.Expr | None], tainted: set[int]) -> bool:
        found = False
        for e in exprs:  # every one, so that comprehension slots are all seen
            found = self.expr(e, tainted) or found
        return found

    def _name(self, ref: tuple[object, ...] | None, tainted: set[int]) -> bool:
        """True if what a name refers to (its ``ref``) may be non-public."""
        if not ref:
            return True
        if ref[0] == "local":
            return ref[1] in tainted
        decl = pile_decl(ref, self.symbols)  # (constants, round and phase are public)
        return decl is not None and decl.visibility != "public"

    def _comprehension(self, e: n.Comprehension, tainted: set[int]) -> bool:
        source = self.expr(e.iterable, tainted)
        if source:
            tainted.add(e.slot)
        return self._any([e.condition, e.element], tainted) or source

    def _call(self, e: n.Call, tainted: set[int]) -> bool:
        kind = e.ref[0] if e.ref else "builtin"
        public = self._public_builtin(e, tainted) if kind == "builtin" else None
        if public is not None:
            return public
        args = [self.expr(a, tainted) for a in e.args]
        secret = kind == "func" and self._function(str(e.ref[1]), args)
        return secret or any(args)

    def _public_builtin(self, e: n.Call, tainted: set[int]) -> bool | None:
        """Whether ``reveal`` or a pile's size tells a secret; None for another call."""
        if e.func == "reveal":
            return False  # public on purpose, by the rules
        pile = pile_counted(e)
        if pile is None:
            return None
        return isinstance(pile, n.Index) and self.expr(pile.index, tainted)

    def _function(self, name: str, args: list[bool]) -> bool:
        """True if a pack function, given these non-public arguments, may return a secret."""
        key = (name, frozenset(i for i, a in enumerate(args) if a))
        if key in self.functions:
            return self.functions[key]
        self.functions[key] = bool(key[1])  # while it is worked out (a function calling itself)
        body = self.function_trees.get(name)
        result = True if body is None else self.expr(body, set(key[1]))
        self.functions[key] = result
        return result

    # ------------------------------------------------------------ statements

    def body(self, name: str) -> None:
        """Taint the locals of one body until nothing changes (then mark its choices)."""
        tainted = set(self.tainted_params[name])
        while True:
            before = len(tainted)
            self.stmts(self.bodies[name], tainted)
            if len(tainted) == before:
                break
        if self.marking or self.leaks is not None:
            self.current = name  # log lines are looked at in this last pass only
            self.stmts(self.bodies[name], tainted)
            self.current = ""

    def stmts(self, stmts: list[n.Stmt], tainted: set[int]) -> None:
        """Follow non-public data through statements."""
        secret: dict[int, bool] = {}  # each condition's, worked out once
        for s, guards in guarded(stmts):
            self._trigger(s)
            follow = _STATEMENTS.get(type(s))
            if follow is not None:
                for guard in guards:
                    if id(guard) not in secret:
                        secret[id(guard)] = self.expr(guard, tainted)
                follow(self, s, tainted, any(secret[id(guard)] for guard in guards))

    def _assignment(self, s: n.Let | n.Assign, tainted: set[int], context: bool) -> None:
        value = s.value
        if isinstance(value, n.Choice):
            secret = self.choice(value, tainted)  # its options may be secret
            if self.marking:
                value.always_ask = secret
        slot = assigned_slot(s)
        if (self.expr(value, tainted) or context) and slot is not None:
            tainted.add(slot)

    def _trigger(self, s: n.Stmt) -> None:
        """A change of a secret zone or variable passes what changed to the procedure it runs."""
        proc = triggered(s, self.triggers)
        decl = pile_decl(changed(s), self.symbols)
        if proc is not None and decl is not None and decl.visibility != "public":
            self._taint_param(proc, 0)

    def _if(self, s: n.If, tainted: set[int], context: bool) -> None:
        """Note the public log lines of an ``if`` whose every way writes one."""
        ways = [branch for _, branch in s.branches] + [s.otherwise or []]
        logs = [[x for x in way if isinstance(x, n.Log) and x.to is None] for way in ways]
        if all(logs):
            self.every_way.update(id(log) for found in logs for log in found)

    def _for(self, s: n.For, tainted: set[int], context: bool) -> None:
        if self.expr(s.iterable, tainted) or context:
            tainted.add(s.slot)

    def _call_stmt(self, s: n.CallStmt, tainted: set[int], context: bool) -> None:
        for i, arg in enumerate(s.args):
            if self.expr(arg, tainted) or context:
                self._taint_param(s.proc, i)

    def _log(self, s: n.Log, tainted: set[int], context: bool) -> None:
        """Collect the fields of a public log line that print non-public data."""
        if self.leaks is None or not self.current or s.to is not None:
            return
        found = [LogLeak(self.current, part, self.secret_names(part, tainted))
                 for part in s.parts if isinstance(part, n.Expr) and self.expr(part, tainted)]
        written = context and id(s) not in self.every_way
        self.leaks += found or ([LogLeak(self.current, s, [])] if written else [])

    def _win(self, s: n.Win, tainted: set[int], context: bool) -> None:
        """A win's text is public, as the result of a game."""
        if s.reason is not None:
            self._log(s.reason, tainted, context)

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
        found: set[str] = set()
        for node in every_node(e):
            if isinstance(node, n.Name) and node.ref and self._name(node.ref, tainted):
                found.add(node.ident)
            elif isinstance(node, n.Call) and self._secret_function(node, tainted):
                found.add(f"{node.func}()")
        return sorted(found)

    def _secret_function(self, call: n.Call, tainted: set[int]) -> bool:
        """A call of a pack function that returns a secret from public arguments."""
        return bool(call.ref) and call.ref[0] == "func" and self._call(call, tainted) and \
            not any(self.expr(a, tainted) for a in call.args)


# How each kind of statement is followed.
_STATEMENTS: dict[type, Callable[..., None]] = {
    n.Let: _Analysis._assignment, n.Assign: _Analysis._assignment, n.If: _Analysis._if,
    n.For: _Analysis._for, n.CallStmt: _Analysis._call_stmt, n.Log: _Analysis._log,
    n.Win: _Analysis._win,
}


def _analysed(symbols: Symbols, bodies: dict[str, list[n.Stmt]],
              function_trees: dict[str, n.Expr], leaks: bool) -> _Analysis:
    """Taint parameters until nothing changes; then mark choices, or collect ``leaks``."""
    analysis = _Analysis(symbols, bodies, function_trees, answers_secret=not leaks)
    analysis.changed = True
    while analysis.changed:
        analysis.changed = False
        for name in bodies:
            analysis.body(name)
    analysis.leaks, analysis.marking = ([], False) if leaks else (None, True)
    for name in bodies:
        analysis.body(name)
    return analysis


def public_log_leaks(symbols: Symbols, bodies: dict[str, list[n.Stmt]],
                     function_trees: dict[str, n.Expr]) -> list[LogLeak]:
    """The fields of public log lines (no ``to``) that may print non-public data."""
    return _analysed(symbols, bodies, function_trees, leaks=True).leaks or []


def mark_secret_choices(symbols: Symbols, bodies: dict[str, list[n.Stmt]],
                        function_trees: dict[str, n.Expr],
                        whens: list[tuple[str, n.Expr]]) -> frozenset[str]:
    """Set ``always_ask`` where options may be secret; return roles of secret ``when``s."""
    analysis = _analysed(symbols, bodies, function_trees, leaks=False)
    return frozenset(role for role, when in whens if analysis.expr(when, set()))
