"""Whether a prompt's context (``display: context:``) tells the player who decides only what
they see.

A context is a text of the parameters of a procedure, written before the prompt of every
decision taken while that procedure runs (inside it, in a procedure it calls, in a procedure a
change it makes triggers, in an anytime action taken at one of those decisions). So each field
must be seen by every player who may decide there: the *deciders* of the procedure, worked out
from the chooser of each of those choices (a role, a parameter of the procedure, or a player not
known in advance: then every player).

What a parameter holds is worked out at each call: the argument must be seen by each decider
(named as the caller names it), by the rules of a label (:func:`rulekit.lang.reasons.seen_whole`),
and so must the conditions of the ``if``, ``while``, ``repeat`` and ``for`` the call is in
(which call runs tells them). A local variable in an argument is seen if everything assigned to
it is (``let``, ``=``, ``+=``, the list a ``for`` walks, under the conditions it is assigned in),
a parameter if every call passes something seen, through any number of calls; the answer of a
choice is seen by its chooser only; an ``on_change`` procedure gets what its variable now holds.
As for a label, a pack function and a comprehension are not worked out, so refused; so is the
card the engine hands to an ``on_enter`` procedure.

Not followed: the conditions under which the caller itself was called, and an early ``return``
or ``break`` (a field whose calls pass the same value everywhere tells nothing by them).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Protocol

from rulekit.errors import Location
from rulekit.lang import nodes as n
from rulekit.lang.reasons import seen_whole
from rulekit.lang.walk import bodies, zone_name
from rulekit.model.symbols import Symbols
from rulekit.source.snippet import Snippet

Decider = tuple[str, str | int | None]  # ("role", id), ("param", slot), ("any", None)
ANY: Decider = ("any", None)
_Key = tuple[str, int, Decider]  # a local variable of a body, and who must see it
_Culprit = tuple[str, str, n.Pos]  # what may not be seen, in words; the body and place it is in


class CodeBody(Protocol):
    """A checked statement list of the pack: a procedure, the setup, a phase."""

    name: str
    stmts: list[n.Stmt]
    snippet: Snippet
    params: list[tuple[str, str]]


@dataclass
class _Site:
    """A call of a procedure: where, with what arguments (None: what the engine passes)."""

    body: str
    args: list[n.Expr | None]
    guards: tuple[n.Expr, ...]
    pos: n.Pos


@dataclass
class _Source:
    """Something assigned to a local variable: a value, the list a ``for`` walks (``element``)
    or a choice."""

    kind: str  # "value", "element", "choice"
    expr: n.Expr
    guards: tuple[n.Expr, ...]
    pos: n.Pos


@dataclass
class _Code:
    body: CodeBody
    params: list[str]
    sources: dict[int, list[_Source]] = field(default_factory=dict)
    choosers: list[n.Expr] = field(default_factory=list)
    calls: list[tuple[str, _Site]] = field(default_factory=list)


@dataclass
class Leak:
    """A field of a context that may show its decider what they may not see."""

    proc: str
    param: str
    decider: str  # who decides, in words
    site: Location  # the call whose argument it is
    what: str  # what is secret, in words
    read: Location  # where it is read


class _Reader:
    """Collects, for one body, its calls, choices and what each local receives."""

    def __init__(self, code: _Code, symbols: Symbols) -> None:
        self.code = code
        self.symbols = symbols

    def stmts(self, stmts: list[n.Stmt], guards: tuple[n.Expr, ...]) -> None:
        for s in stmts:
            self.stmt(s, guards)

    def stmt(self, s: n.Stmt, guards: tuple[n.Expr, ...]) -> None:
        code = self.code
        if isinstance(s, n.Simultaneous):
            self.stmts(list(s.bindings), guards)
        elif isinstance(s, (n.Let, n.Assign)):
            self.assign(s, guards)
        elif isinstance(s, n.If):
            inner = guards
            for cond, branch in s.branches:
                inner = (*inner, cond)  # a later branch runs only if this test failed
                self.stmts(branch, inner)
            if s.otherwise is not None:
                self.stmts(s.otherwise, inner)
        elif isinstance(s, n.For):
            code.sources.setdefault(s.slot, []).append(_Source("element", s.iterable, guards,
                                                                  s.pos))
            self.stmts(s.body, (*guards, s.iterable))
        elif isinstance(s, n.While):
            self.stmts(s.body, (*guards, s.condition))
        elif isinstance(s, n.Repeat):
            self.stmts(s.body, (*guards, s.count))
        elif isinstance(s, n.CallStmt):
            code.calls.append((s.proc, _Site(code.body.name, list(s.args), guards, s.pos)))
        elif isinstance(s, (n.Move, n.Draw)):
            proc = self.symbols.zones[zone_name(s.dest)].on_enter
            if proc is not None:  # each card entering: not worked out
                code.calls.append((proc, _Site(code.body.name, [None], guards, s.pos)))
        else:
            for sub in bodies(s):
                self.stmts(sub, guards)

    def assign(self, s: n.Let | n.Assign, guards: tuple[n.Expr, ...]) -> None:
        code = self.code
        value = s.value
        if isinstance(value, n.Choice):
            code.choosers.append(value.player)
        # (x += v and x[i] = v keep what x held, and add v, and i)
        index = s.index if isinstance(s, n.Assign) else None
        held = value if index is None else n.ListLit(s.pos, [value, index])
        source = _Source("choice" if isinstance(value, n.Choice) else "value", held, guards,
                         s.pos)
        if isinstance(s, n.Let):
            code.sources.setdefault(s.slot, []).append(source)
            return
        if s.ref is not None and s.ref[0] == "local":
            code.sources.setdefault(s.ref[1], []).append(source)
        elif s.ref is not None and s.ref[0] == "var":
            proc = self.symbols.variables[s.ref[1]].on_change
            if proc is not None:  # called with the new value: what the variable holds now
                var: n.Expr = n.Name(s.pos, s.name, s.ref)
                if s.index is not None:
                    var = n.Index(s.pos, var, s.index)
                code.calls.append((proc, _Site(code.body.name, [var], guards, s.pos)))


class ContextCheck:
    """What the players deciding inside each procedure may see, for the pack's contexts."""

    def __init__(self, symbols: Symbols, code: Iterable[CodeBody]) -> None:
        self.symbols = symbols
        self.code: dict[str, _Code] = {}
        for body in code:
            found = _Code(body, [name for name, _ in body.params])
            _Reader(found, symbols).stmts(body.stmts, ())
            self.code[body.name] = found
        self.sites: dict[str, list[_Site]] = {}
        for found in self.code.values():
            for proc, site in found.calls:
                self.sites.setdefault(proc, []).append(site)
        self.deciders = self._deciders()
        self._known: dict[_Key, bool] = {}
        self._asking: set[_Key] = set()
        self._assumed: set[_Key] = set()  # keys assumed seen while they were worked out

    # ------------------------------------------------------------ who decides

    def decider(self, body: str, e: n.Expr | None) -> Decider:
        """Who a role expression of ``body`` names: a role, one of its parameters (never
        assigned in it), or any player."""
        if isinstance(e, n.Name) and e.ref is not None:
            if e.ref[0] == "const" and e.ident in self.symbols.roles:
                return ("role", e.ident)
            code = self.code[body]
            slot = e.ref[1]
            if e.ref[0] == "local" and isinstance(slot, int) and slot < len(code.params) \
                    and slot not in code.sources:
                return ("param", slot)
        return ANY

    def _deciders(self) -> dict[str, set[Decider]]:
        """The deciders of each procedure, until nothing changes."""
        found: dict[str, set[Decider]] = {
            name: {self.decider(name, c) for c in code.choosers}
            for name, code in self.code.items()}
        anytime = self.symbols.anytime
        changed = True
        while changed:
            changed = False
            for name, code in self.code.items():
                mine = found[name]
                before = len(mine)
                for proc, site in code.calls:
                    for d in list(found.get(proc, ())):
                        mine.add(self.at_call(d, site))
                roles = {d[1] for d in mine if d[0] == "role"}
                everyone = any(d[0] != "role" for d in mine)
                for decl in anytime:  # taken by a decider, on top of this procedure
                    if everyone or decl.role in roles:
                        mine |= {d if d[0] == "role" else ANY
                                 for d in found.get(decl.procedure, ())}
                changed = changed or len(mine) != before
        return found

    def at_call(self, d: Decider, site: _Site) -> Decider:
        """A decider of a called procedure, as its caller names them."""
        if d[0] != "param":
            return d
        slot = d[1]
        assert isinstance(slot, int)
        return self.decider(site.body, site.args[slot] if slot < len(site.args) else None)

    # ------------------------------------------------------------ what they see

    def player(self, body: str, d: Decider) -> n.Expr:
        """The role expression ``seen_whole`` compares piles with (none for any player)."""
        pos = n.Pos(0, 0)
        if d[0] == "role":
            return n.Name(pos, str(d[1]), ("const", d[1]))
        if d[0] == "param":
            assert isinstance(d[1], int)
            return n.Name(pos, self.code[body].params[d[1]], ("local", d[1]))
        return n.Literal(pos, None)

    def seen(self, body: str, exprs: Iterable[n.Expr | None], d: Decider) -> bool:
        """True if ``d`` sees the whole value of each of ``exprs`` of ``body``."""
        listed = list(exprs)
        if any(e is None for e in listed):
            return False
        return seen_whole([e for e in listed if e is not None], self.player(body, d),
                          self.symbols, local=lambda name: self.local(body, name, d))

    def local(self, body: str, name: n.Name, d: Decider) -> bool:
        """True if ``d`` sees every value the local variable ``name`` of ``body`` may hold."""
        slot = name.ref[1]
        key = (body, slot, d)
        known = self._known.get(key)
        if known is not None:
            return known
        if key in self._asking:  # a loop of calls or assignments: it holds nothing new
            self._assumed.add(key)
            return True
        outer, self._assumed = self._assumed, set()
        self._asking.add(key)
        result = self._local(body, slot, d)
        self._asking.discard(key)
        assumed = self._assumed - {key}
        self._assumed = outer | assumed
        if not result or not assumed:  # else it rests on a test still being worked out
            self._known[key] = result
        return result

    def _local(self, body: str, slot: int, d: Decider) -> bool:
        code = self.code[body]
        for source in code.sources.get(slot, []):
            if not self.source_seen(body, source, d):
                return False
        if slot < len(code.params):
            for site in self.sites.get(body, []):
                if not self.param_seen(site, slot, d):
                    return False
        return True

    def source_seen(self, body: str, source: _Source, d: Decider) -> bool:
        if not self.seen(body, source.guards, d):
            return False
        if source.kind == "choice":
            assert isinstance(source.expr, n.Choice)
            chooser = self.decider(body, source.expr.player)
            return chooser != ANY and chooser == d
        return self.seen(body, [source.expr], d)

    def param_seen(self, site: _Site, slot: int, d: Decider) -> bool:
        """True if the argument ``slot`` of a call is seen by ``d`` (a decider of the called
        procedure), and so is which call runs."""
        caller = self.at_call(d, site)
        arg = site.args[slot] if slot < len(site.args) else None
        return self.seen(site.body, [arg, *site.guards], caller)

    # ------------------------------------------------------------ the leaks, in words

    def leak(self, proc: str, param: str) -> Leak | None:
        """How the field ``param`` of ``proc``'s context may show a decider a secret."""
        code = self.code.get(proc)
        if code is None or param not in code.params:
            return None
        slot = code.params.index(param)
        for d in sorted(self.deciders.get(proc, ()), key=str):
            for source in code.sources.get(slot, []):
                if not self.source_seen(proc, source, d):
                    return self._told(proc, param, d, None,
                                      self._source_culprit(proc, source, d, set()))
            for site in self.sites.get(proc, []):
                if not self.param_seen(site, slot, d):
                    arg = site.args[slot] if slot < len(site.args) else None
                    culprit = self._culprit(site.body, [arg, *site.guards],
                                            self.at_call(d, site), set(), site)
                    return self._told(proc, param, d, site, culprit)
        return None

    def _told(self, proc: str, param: str, d: Decider, site: _Site | None,
              culprit: _Culprit | None) -> Leak:
        what, body, pos = culprit or ("a value not worked out", site.body if site else proc,
                                      site.pos if site else n.Pos(1, 1))
        where = self.code[body].body.snippet
        at = self.code[site.body].body.snippet.location(site.pos) if site else where.location(pos)
        who = self.who(proc, d)
        if d[0] == "param" and site is not None:  # the role the call names
            who = f"{self.who(site.body, self.at_call(d, site))} ({who})"
        return Leak(proc, param, who, at, what, where.location(pos))

    def who(self, body: str, d: Decider) -> str:
        if d[0] == "role":
            return str(d[1])
        if d[0] == "param":
            assert isinstance(d[1], int)
            return f"the role passed as '{self.code[body].params[d[1]]}'"
        return "a player not known in advance"

    def _culprit(self, body: str, exprs: list[n.Expr | None], d: Decider,
                 visited: set[_Key], site: _Site | None = None) -> _Culprit | None:
        """What ``d`` may not see among ``exprs`` of ``body``, where it is read (None if that
        is only a loop back to what is being worked out)."""
        for e in exprs:
            if e is None and site is not None:
                return ("a value the engine passes (not worked out)", site.body, site.pos)
            if e is not None and not self.seen(body, [e], d):
                found = self._dig(body, e, d, visited)
                if found is not None:
                    return found
        return None

    def _dig(self, body: str, e: n.Expr, d: Decider, visited: set[_Key]) -> _Culprit | None:
        if isinstance(e, n.Name) and e.ref is not None and e.ref[0] == "local":
            return self._local_culprit(body, e.ref[1], d, visited)
        parts: list[n.Expr | None] = (
            [e.obj] if isinstance(e, n.Attr) else [e.operand] if isinstance(e, n.Unary) else
            [e.left, e.right] if isinstance(e, n.Binary) else
            list(e.items) if isinstance(e, n.ListLit) else
            list(e.args) if isinstance(e, n.Call) and (e.ref is None or
                                                        e.ref[0] == "builtin") else [])
        if isinstance(e, n.Index) and not self._pile(e.obj):
            parts = [e.obj, e.index]
        if parts:
            return self._culprit(body, parts, d, visited)
        return (self.secret(e), body, e.pos)

    def _local_culprit(self, body: str, slot: int, d: Decider, visited: set[_Key]
                       ) -> _Culprit | None:
        key = (body, slot, d)
        if key in visited:
            return None
        visited.add(key)
        code = self.code[body]
        for source in code.sources.get(slot, []):
            if not self.source_seen(body, source, d):
                found = self._source_culprit(body, source, d, visited)
                if found is not None:
                    return found
        if slot < len(code.params):
            for site in self.sites.get(body, []):
                if not self.param_seen(site, slot, d):
                    arg = site.args[slot] if slot < len(site.args) else None
                    found = self._culprit(site.body, [arg, *site.guards],
                                          self.at_call(d, site), visited, site)
                    if found is not None:
                        return found
        return None

    def _source_culprit(self, body: str, source: _Source, d: Decider, visited: set[_Key]
                        ) -> _Culprit | None:
        if isinstance(source.expr, n.Choice):
            chooser = self.decider(body, source.expr.player)
            if chooser == ANY or chooser != d:
                return (f"the answer of a choice of {self.who(body, chooser)}, which only "
                        "they know", body, source.expr.pos)
        elif not self.seen(body, [source.expr], d):
            return self._culprit(body, [source.expr], d, visited)
        return self._culprit(body, list(source.guards), d, visited)

    def _pile(self, e: n.Expr) -> bool:
        return isinstance(e, n.Name) and e.ref is not None and e.ref[0] in ("zone", "var")

    def secret(self, e: n.Expr) -> str:
        """What ``e`` is, and who may not see it, in words."""
        base = e.obj if isinstance(e, n.Index) and self._pile(e.obj) else e
        if isinstance(base, n.Name) and self._pile(base):
            kind = "zone" if base.ref[0] == "zone" else "variable"
            decl = (self.symbols.zones.get(base.ident) if kind == "zone" else
                    self.symbols.variables.get(base.ident))
            visibility = getattr(decl, "visibility", "hidden")
            owner = getattr(decl, "owner", None)
            if visibility == "hidden":
                return f"the {kind} '{base.ident}', which no player sees"
            if isinstance(e, n.Index) and getattr(decl, "per", None) == "role":
                index = e.index.ident if isinstance(e.index, n.Name) else "its role"
                return f"'{base.ident}[{index}]', which only {index} sees"
            if owner is not None:
                return f"the {kind} '{base.ident}', which only {owner} sees"
            return f"the {kind} '{base.ident}' ({visibility}), which not every player sees"
        if isinstance(e, n.Call):
            return f"a call of the function '{e.func}' (what it returns is not worked out)"
        if isinstance(e, n.Comprehension):
            return "a list comprehension (what it holds is not worked out)"
        return "a value not worked out"
