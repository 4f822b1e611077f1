"""What checked code reads and writes: the zones and variables, by name.

The compiler uses it to check the end conditions only after a write to what they read, to keep
the values of anytime conditions until such a write, and to know which tests an anytime action
may change under a waiting choice.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from rulekit.lang import nodes as n
from rulekit.lang.walk import Triggers, bodies, zone_name


def reads(e: Any, functions: dict[str, n.Expr], found: set[str], seen: set[str],
          strict: bool = False) -> bool:
    """Add the zones and variables ``e`` reads to ``found`` (through the bodies of the pack's
    ``functions``); False if that is unknown (``strict``: also if it reads the round, the
    phase or the result)."""
    if isinstance(e, list):
        return all(reads(item, functions, found, seen, strict) for item in e)
    if not isinstance(e, n.Expr):
        return True
    if isinstance(e, n.Name) and e.ref:
        if e.ref[0] in ("var", "zone"):
            found.add(e.ident)
        elif strict and e.ref[0] == "builtin":
            return False
    if isinstance(e, n.Call) and e.ref and e.ref[0] == "func" and e.ref[1] not in seen:
        seen.add(e.ref[1])
        body = functions.get(e.ref[1])
        if body is None or not reads(body, functions, found, seen, strict):
            return False
    return all(reads(getattr(e, f.name), functions, found, seen, strict) for f in fields(e)
               if f.name not in ("pos", "ref"))


def written(stmts: list[n.Stmt], triggers: Triggers) -> tuple[set[str], set[str]]:
    """The zones and variables a statement list writes itself, and the procedures it calls
    (its triggers included)."""
    names: set[str] = set()
    calls: set[str] = set()
    for s in stmts:
        if isinstance(s, n.Simultaneous):
            continue  # (answers go to locals)
        if isinstance(s, n.Assign) and s.ref is not None and s.ref[0] == "var":
            names.add(s.ref[1])
            if ("var", s.ref[1]) in triggers:
                calls.add(triggers["var", s.ref[1]])
        elif isinstance(s, (n.Move, n.Draw)):
            names |= {zone_name(s.source), zone_name(s.dest)}
            if ("zone", zone_name(s.dest)) in triggers:
                calls.add(triggers["zone", zone_name(s.dest)])
        elif isinstance(s, n.Shuffle):
            names.add(zone_name(s.zone))
        elif isinstance(s, n.CallStmt):
            calls.add(s.proc)
        for body in bodies(s):
            more, called = written(body, triggers)
            names |= more
            calls |= called
    return names, calls


def writes_of(procedures: dict[str, list[n.Stmt]], roots: list[str],
              triggers: Triggers) -> set[str] | None:
    """The zones and variables the procedures ``roots`` write, directly or through the
    procedures they call (None: one of them is unknown)."""
    found: set[str] = set()
    todo, seen = list(roots), set(roots)
    while todo:
        name = todo.pop()
        if name not in procedures:
            return None
        names, calls = written(procedures[name], triggers)
        found |= names
        todo += [c for c in calls if c not in seen]
        seen |= calls
    return found
