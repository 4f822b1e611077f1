"""Walks over checked statement lists and trees: their statements, choices, calls and nodes."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import fields

from rulekit.lang import nodes as n
from rulekit.model.symbols import Symbols

Triggers = dict[tuple[str, str], str]
"""The procedure a change runs: ``("var", name)`` or ``("zone", name)`` -> its name."""

Guards = tuple[n.Expr, ...]
"""The conditions a statement runs under: the tests, lists and counts around it."""


def statements(body: list[n.Stmt]) -> Iterator[n.Stmt]:
    """Every statement of a list and of the lists inside it, in order (see :func:`guarded`)."""
    return (s for s, _ in guarded(body))


def guarded(body: list[n.Stmt], guards: Guards = ()) -> Iterator[tuple[n.Stmt, Guards]]:
    """Every statement of a list and of those inside it, in order, with the tests it runs under."""
    for s in body:
        if isinstance(s, n.Simultaneous):
            yield from guarded(list(s.bindings), guards)
            continue
        yield s, guards
        if isinstance(s, n.If):
            inner = guards
            for cond, branch in s.branches:
                inner = (*inner, cond)  # a later branch runs only if this test failed
                yield from guarded(branch, inner)
            yield from guarded(s.otherwise or [], inner)
        elif isinstance(s, (n.For, n.While, n.Repeat)):
            test = s.iterable if isinstance(s, n.For) else \
                s.condition if isinstance(s, n.While) else s.count
            yield from guarded(s.body, (*guards, test))


def choices_in(body: list[n.Stmt]) -> bool:
    """True if a statement list holds a choice (not counting procedure calls)."""
    return any(is_choice(s) for s in statements(body))


def is_choice(s: n.Stmt) -> bool:
    """True if a statement asks itself: ``let x = choose ...``, ``simultaneous { ... }``."""
    if isinstance(s, (n.Let, n.Assign)):
        return isinstance(s.value, n.Choice)
    return isinstance(s, n.Simultaneous)


def calls_in(body: list[n.Stmt], triggers: Triggers | None = None) -> set[str]:
    """Names of the procedures a statement list calls, triggers included."""
    found: set[str] = set()
    for s in statements(body):
        if isinstance(s, n.CallStmt):
            found.add(s.proc)
        proc = triggered(s, triggers or {})
        if proc is not None:
            found.add(proc)
    return found


def reached(procedures: dict[str, list[n.Stmt]], roots: Iterable[str],
            triggers: Triggers | None = None) -> set[str]:
    """The procedures ``roots`` name, and those they call or trigger, directly or not."""
    found: set[str] = set()
    todo = list(roots)
    while todo:
        name = todo.pop()
        if name not in found:
            found.add(name)
            todo += calls_in(procedures.get(name, []), triggers)
    return found


def triggers_of(symbols: Symbols) -> Triggers:
    """The procedure each change of a variable (``on_change``) or a zone (``on_enter``) runs."""
    found = {("var", v.name): v.on_change for v in symbols.variables.values() if v.on_change}
    return found | {("zone", z.name): z.on_enter for z in symbols.zones.values() if z.on_enter}


def changed(s: n.Stmt) -> tuple[str, str] | None:
    """What a statement changes that may run a trigger: ``("var", name)`` or ``("zone", name)``."""
    if isinstance(s, n.Assign) and s.ref is not None and s.ref[0] == "var":
        return ("var", s.ref[1])
    if isinstance(s, (n.Move, n.Draw)):
        return ("zone", zone_name(s.dest))
    return None


def triggered(s: n.Stmt, triggers: Triggers) -> str | None:
    """The procedure a statement's change runs (an ``on_change``, an ``on_enter``), if any."""
    key = changed(s)
    return None if key is None else triggers.get(key)


def assigned_slot(s: n.Let | n.Assign) -> int | None:
    """The local slot a ``let`` or an assignment sets (None: a pack variable)."""
    if isinstance(s, n.Let):
        return s.slot
    return s.ref[1] if s.ref is not None and s.ref[0] == "local" else None


def zone_name(zone: n.Expr) -> str:
    """The declared name of a zone expression (``deck``, ``hand[p]``)."""
    base = zone.obj if isinstance(zone, n.Index) else zone
    assert isinstance(base, n.Name)
    return base.ident


def children(e: n.Expr) -> list[n.Expr]:
    """The expressions right inside ``e``, in order: ``a`` and ``b`` of ``a + b``."""
    values = [getattr(e, name) for name in _CHILDREN[type(e)]]
    items = [item for value in values for item in (value if isinstance(value, list) else [value])]
    return [item for item in items if isinstance(item, n.Expr)]


def every_node(root: object, skip: type | tuple[type, ...] = ()) -> Iterator[n.Node]:
    """Every node from ``root`` (a node or a list of them), parents first; nodes of the
    kinds ``skip`` names are left out, with all they hold."""
    stack = [root]
    while stack:
        item = stack.pop()
        if isinstance(item, skip):
            continue
        if isinstance(item, (n.Expr, n.Stmt, n.AtMost)):
            yield item
            stack.extend(getattr(item, name) for name in reversed(_CHILDREN[type(item)]))
        elif isinstance(item, (list, tuple)):
            stack.extend(reversed(item))


# The fields of each kind of node that may hold nodes.
_CHILDREN = {kind: tuple(f.name for f in fields(kind) if f.name not in ("pos", "ref"))
             for kind in (*n.Expr.__subclasses__(), *n.Stmt.__subclasses__(), n.AtMost)}
