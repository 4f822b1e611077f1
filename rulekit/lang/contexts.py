"""Whether a prompt's context tells the player who decides only what they see."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from rulekit.errors import Location
from rulekit.lang import nodes as n
from rulekit.lang.analysis import is_pile, pile_decl
from rulekit.lang.compiler import Body
from rulekit.lang.reasons import Sight
from rulekit.lang.walk import (
    Guards,
    Triggers,
    assigned_slot,
    guarded,
    triggered,
    triggers_of,
)
from rulekit.model.symbols import Symbols

Decider = tuple[str, str | int | None]
"""Who decides: ``("role", id)``, ``("param", slot)`` or ``("any", None)``."""
ANY: Decider = ("any", None)
_Key = tuple[str, int, Decider]  # a local variable of a body, and who must see it
_Culprit = tuple[str, str, n.Pos]  # what may not be seen, in words; the body and place it is in


@dataclass
class _Site:
    """A call of a procedure, with its arguments (None: passed by the engine)."""

    body: str
    args: list[n.Expr | None]
    guards: Guards
    pos: n.Pos

    def arg(self, slot: int) -> n.Expr | None:
        """The argument for the parameter ``slot`` (None if it is missing)."""
        return self.args[slot] if slot < len(self.args) else None


@dataclass
class _Source:
    """Something assigned to a local variable: a value, a choice, or the list a ``for`` walks."""

    expr: n.Expr
    guards: Guards


@dataclass
class _Code:
    """What one body holds: its parameters, calls, choosers and what each local receives."""

    body: Body
    params: list[str]
    sources: dict[int, list[_Source]] = field(default_factory=dict)
    choosers: list[n.Expr] = field(default_factory=list)
    calls: list[tuple[str, _Site]] = field(default_factory=list)

    def read(self, triggers: Triggers) -> None:
        """Collect the body's calls, choices and what each local receives."""
        for s, guards in guarded(self.body.stmts):
            read = _STATEMENTS.get(type(s))
            if read is not None:
                read(self, s, guards)
            self.trigger(s, guards, triggers)

    def assign(self, s: n.Let | n.Assign, guards: Guards) -> None:
        """A ``let`` or an assignment: a choice's chooser, and what a local receives."""
        if isinstance(s.value, n.Choice):
            self.choosers.append(s.value.player)
        slot = assigned_slot(s)
        if slot is not None:
            self.sources.setdefault(slot, []).append(_Source(s.value, guards))

    def trigger(self, s: n.Stmt, guards: Guards, triggers: Triggers) -> None:
        """What a change runs is called with the variable changed (a card moved: not worked out)."""
        proc = triggered(s, triggers)
        if proc is None:
            return
        var: n.Expr | None = None
        if isinstance(s, n.Assign):
            var = n.Name(s.pos, s.name, s.ref)
            var = var if s.index is None else n.Index(s.pos, var, s.index)
        self.calls.append((proc, _Site(self.body.name, [var], guards, s.pos)))

    def walks(self, s: n.For, guards: Guards) -> None:
        """A ``for``: its variable receives the items of its list."""
        self.sources.setdefault(s.slot, []).append(_Source(s.iterable, guards))

    def call(self, s: n.CallStmt, guards: Guards) -> None:
        """A call of a procedure, with its arguments."""
        self.calls.append((s.proc, _Site(self.body.name, list(s.args), guards, s.pos)))


@dataclass
class Leak:
    """A field of a context that may show its decider a secret."""

    decider: str  # who decides, in words
    site: Location  # the call whose argument it is
    what: str  # what is secret, in words
    read: Location  # where it is read


# How each kind of statement is read (the others hold nothing a context needs).
_STATEMENTS: dict[type, Callable[..., None]] = {
    n.Let: _Code.assign, n.Assign: _Code.assign, n.For: _Code.walks, n.CallStmt: _Code.call,
}


class ContextCheck:
    """What the players deciding inside each procedure may see, for the pack's contexts."""

    def __init__(self, symbols: Symbols, code: Iterable[Body]) -> None:
        self.symbols = symbols
        self.code: dict[str, _Code] = {}
        triggers = triggers_of(symbols)
        for body in code:
            found = self.code[body.name] = _Code(body, [name for name, _ in body.params])
            found.read(triggers)
        self.sites: dict[str, list[_Site]] = {}
        for found in self.code.values():
            for proc, site in found.calls:
                self.sites.setdefault(proc, []).append(site)
        self.deciders = self._deciders()
        self._known: dict[_Key, _Culprit | None] = {}
        self._asking: set[_Key] = set()
        self._assumed: set[_Key] = set()  # keys assumed seen while they were worked out

    # ------------------------------------------------------------ who decides

    def decider(self, body: str, e: n.Expr | None) -> Decider:
        """Who a role expression of ``body`` names: a role, an unassigned parameter, or anyone."""
        if not isinstance(e, n.Name) or e.ref is None:
            return ANY
        if e.ref[0] == "const" and e.ident in self.symbols.roles:
            return ("role", e.ident)
        code = self.code[body]
        if e.ref[0] == "local" and e.ref[1] < len(code.params) and e.ref[1] not in code.sources:
            return ("param", e.ref[1])
        return ANY

    def _deciders(self) -> dict[str, set[Decider]]:
        """The deciders of each procedure, spread along calls until nothing changes."""
        found: dict[str, set[Decider]] = {
            name: {self.decider(name, c) for c in code.choosers}
            for name, code in self.code.items()}
        while True:
            before = sum(map(len, found.values()))
            for name, code in self.code.items():
                self._spread(found, found[name], code)
            if sum(map(len, found.values())) == before:
                return found

    def _spread(self, found: dict[str, set[Decider]], mine: set[Decider], code: _Code) -> None:
        """Add the deciders of what a body calls, and of their anytime actions."""
        for proc, site in code.calls:
            mine |= {self.at_call(d, site) for d in found.get(proc, ())}
        for proc in self._anytime_of(mine):  # taken by a decider, on top of this procedure
            mine |= {d if d[0] == "role" else ANY for d in found.get(proc, ())}

    def _anytime_of(self, deciders: set[Decider]) -> list[str]:
        """The procedures of the anytime actions these deciders may take."""
        roles = {d[1] for d in deciders if d[0] == "role"}
        everyone = any(d[0] != "role" for d in deciders)
        return [a.procedure for a in self.symbols.anytime if everyone or a.role in roles]

    def at_call(self, d: Decider, site: _Site) -> Decider:
        """A decider of a called procedure, as its caller names them."""
        if d[0] != "param":
            return d
        assert isinstance(d[1], int)
        return self.decider(site.body, site.arg(d[1]))

    # ------------------------------------------------------------ what they see

    def player(self, body: str, d: Decider) -> n.Expr:
        """The role expression a :class:`Sight` compares piles with (none for any player)."""
        pos = n.Pos(0, 0)
        if d[0] == "role":
            return n.Name(pos, str(d[1]), ("const", d[1]))
        if d[0] == "param":
            assert isinstance(d[1], int)
            return n.Name(pos, self.code[body].params[d[1]], ("local", d[1]))
        return n.Literal(pos, None)

    def sight(self, body: str, d: Decider) -> Sight:
        """What ``d`` sees of the expressions of ``body``."""
        return Sight(self.player(body, d), self.symbols, lambda name: self.local(body, name, d))

    def local(self, body: str, name: n.Name, d: Decider) -> bool:
        """True if ``d`` sees every value the local ``name`` of ``body`` may hold."""
        return self._local_culprit(body, name.ref[1], d) is None

    def _local_culprit(self, body: str, slot: int, d: Decider) -> _Culprit | None:
        """What ``d`` may not see of local ``slot``; a local met again is assumed seen."""
        key = (body, slot, d)
        if key in self._known:
            return self._known[key]
        if key in self._asking:
            self._assumed.add(key)
            return None
        outer, self._assumed = self._assumed, set()
        self._asking.add(key)
        _, culprit = next(self._unseen(body, slot, d), (None, None))
        self._asking.discard(key)
        assumed = self._assumed - {key}
        self._assumed = outer | assumed
        if culprit is not None or not assumed:
            self._known[key] = culprit
        return culprit

    def _unseen(self, body: str, slot: int, d: Decider
                ) -> Iterator[tuple[_Site | None, _Culprit]]:
        """What ``d`` may not see in the assignments of local ``slot``, then in calls passing it."""
        code = self.code[body]
        for source in code.sources.get(slot, []):
            culprit = self._source_culprit(body, source, d)
            if culprit is not None:
                yield None, culprit
        if slot < len(code.params):  # a parameter: its argument, and which call runs
            for site in self.sites.get(body, []):
                culprit = self._site_culprit(site, slot, d)
                if culprit is not None:
                    yield site, culprit

    def _source_culprit(self, body: str, source: _Source, d: Decider) -> _Culprit | None:
        """What ``d`` may not see of an assignment of a local: its value, then its conditions."""
        e = source.expr
        if not isinstance(e, n.Choice):
            return self._culprit(body, [e, *source.guards], d)
        chooser = self.decider(body, e.player)
        if chooser == d != ANY:  # (anyone's choice may be another's)
            return self._culprit(body, list(source.guards), d)
        return (f"the answer of a choice of {self.who(body, chooser)}, which only they know",
                body, e.pos)

    def _site_culprit(self, site: _Site, slot: int, d: Decider) -> _Culprit | None:
        """What ``d`` may not see of a call's argument ``slot``, then of its conditions."""
        arg = site.arg(slot)
        if arg is None:
            return ("a value the engine passes (not worked out)", site.body, site.pos)
        return self._culprit(site.body, [arg, *site.guards], self.at_call(d, site))

    def _culprit(self, body: str, exprs: list[n.Expr], d: Decider) -> _Culprit | None:
        """What ``d`` may not see among ``exprs`` of ``body``: the first part, and where."""
        sight = self.sight(body, d)
        for e in exprs:
            for part in sight.unseen(e):
                if isinstance(part, n.Name) and part.ref is not None and part.ref[0] == "local":
                    return self._local_culprit(body, part.ref[1], d)
                return (self.secret(part), body, part.pos)
        return None

    # ------------------------------------------------------------ the leaks, in words

    def leak(self, proc: str, param: str) -> Leak | None:
        """How the field ``param`` of ``proc``'s context may show a decider a secret."""
        code = self.code.get(proc)
        if code is None or param not in code.params:
            return None
        slot = code.params.index(param)
        for d in sorted(self.deciders.get(proc, ()), key=str):
            site, culprit = next(self._unseen(proc, slot, d), (None, None))
            if culprit is not None:
                return self._told(proc, d, site, culprit)
        return None

    def _told(self, proc: str, d: Decider, site: _Site | None, culprit: _Culprit) -> Leak:
        """The leak through a field of ``proc``'s context, in words."""
        what, body, pos = culprit
        where = self.code[body].body.snippet
        at = self.code[site.body].body.snippet.location(site.pos) if site else where.location(pos)
        who = self.who(proc, d)
        if d[0] == "param" and site is not None:  # the role the call names
            who = f"{self.who(site.body, self.at_call(d, site))} ({who})"
        return Leak(who, at, what, where.location(pos))

    def who(self, body: str, d: Decider) -> str:
        """A decider of ``body``, in words."""
        if d[0] == "role":
            return str(d[1])
        if d[0] == "param":
            assert isinstance(d[1], int)
            return f"the role passed as '{self.code[body].params[d[1]]}'"
        return "a player not known in advance"

    def secret(self, e: n.Expr) -> str:
        """What ``e`` is, and who may not see it, in words."""
        base = e.obj if isinstance(e, n.Index) and is_pile(e.obj) else e
        if isinstance(base, n.Name) and is_pile(base):
            return self._pile_secret(e, base)
        if isinstance(e, n.Call):
            return f"a call of the function '{e.func}' (what it returns is not worked out)"
        if isinstance(e, n.Comprehension):
            return "a list comprehension (what it holds is not worked out)"
        return "a value not worked out"

    def _pile_secret(self, e: n.Expr, base: n.Name) -> str:
        """A zone or variable (``e``, named ``base``), and who may not see it."""
        kind = "zone" if base.ref[0] == "zone" else "variable"
        decl = pile_decl(base.ref, self.symbols)
        if decl is None or decl.visibility == "hidden":
            return f"the {kind} '{base.ident}', which no player sees"
        if isinstance(e, n.Index) and decl.per == "role":
            index = e.index.ident if isinstance(e.index, n.Name) else "its role"
            return f"'{base.ident}[{index}]', which only {index} sees"
        if decl.owner is not None:
            return f"the {kind} '{base.ident}', which only {decl.owner} sees"
        return f"the {kind} '{base.ident}' ({decl.visibility}), which not every player sees"
