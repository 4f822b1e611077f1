"""What a checked statement list holds: choices, calls of procedures, the zones it names; and
every node of a tree (:func:`every_node`).

The compiler asks these questions to find which procedures may stop for a decision, and the
emitter to choose between structured Python and blocks; the lint reads every node.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import fields
from typing import Any

from rulekit.lang import nodes as n


def choices_in(body: list[n.Stmt]) -> bool:
    """True if a statement list holds a choice (not counting procedure calls)."""
    return any(stmt_chooses(s) for s in body)


def stmt_chooses(s: n.Stmt) -> bool:
    """True if a statement is a choice or holds one (not counting procedure calls)."""
    if isinstance(s, n.Simultaneous):
        return True
    if isinstance(s, (n.Let, n.Assign)):
        return isinstance(s.value, n.Choice)
    return any(choices_in(body) for body in bodies(s))


Triggers = dict[tuple[str, str], str]  # ("var", name) or ("zone", name) -> procedure


def calls_in(body: list[n.Stmt], triggers: Triggers | None = None) -> set[str]:
    """Names of the procedures a statement list calls, triggers included."""
    found: set[str] = set()
    triggers = triggers or {}
    for s in body:
        if isinstance(s, n.CallStmt):
            found.add(s.proc)
        if isinstance(s, n.Assign) and s.ref is not None and s.ref[0] == "var" \
                and ("var", s.ref[1]) in triggers:
            found.add(triggers["var", s.ref[1]])
        if isinstance(s, (n.Move, n.Draw)) and ("zone", zone_name(s.dest)) in triggers:
            found.add(triggers["zone", zone_name(s.dest)])
        for sub in bodies(s):
            found |= calls_in(sub, triggers)
    return found


def zone_name(zone: n.Expr) -> str:
    """The declared name of a zone expression (``deck``, ``hand[p]``)."""
    base = zone.obj if isinstance(zone, n.Index) else zone
    assert isinstance(base, n.Name)
    return base.ident


def bodies(s: n.Stmt) -> list[list[n.Stmt]]:
    """The statement lists directly inside a statement (branches, loop bodies)."""
    if isinstance(s, n.If):
        return [b for _, b in s.branches] + ([s.otherwise] if s.otherwise is not None else [])
    if isinstance(s, (n.For, n.While, n.Repeat)):
        return [s.body]
    return []


def every_node(node: Any) -> Iterator[Any]:
    """``node`` and every node of the effect language's tree below it, parents first."""
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, (n.Expr, n.Stmt, n.AtMost)):
            yield item
            stack.extend(getattr(item, name) for name in reversed(_children(type(item))))
        elif isinstance(item, (list, tuple)):
            stack.extend(reversed(item))


_CHILDREN: dict[type, tuple[str, ...]] = {}  # a node class -> its fields that may hold nodes


def _children(kind: type) -> tuple[str, ...]:
    names = _CHILDREN.get(kind)
    if names is None:
        names = _CHILDREN[kind] = tuple(f.name for f in fields(kind)
                                        if f.name not in ("pos", "ref"))
    return names
