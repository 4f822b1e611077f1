"""What the compiler knows of checked code: what it reads and writes, and facts of expressions."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeGuard

from rulekit.lang import nodes as n
from rulekit.lang.walk import (
    Triggers,
    calls_in,
    choices_in,
    every_node,
    reached,
    statements,
    zone_name,
)
from rulekit.model.symbols import Symbols, VarDecl, ZoneDecl

SMALL = 1 << 20
"""A bound on the items of a list whose sum surely fits the size limits."""

# ---------------------------------------------------------------- reads and writes


def reads(e: n.Expr, functions: dict[str, n.Expr], found: set[str], seen: set[str],
          strict: bool = False) -> bool:
    """Add what ``e`` reads to ``found``; false if unknown (``strict``: or round, phase, result)."""
    return all(_read(node, functions, found, seen, strict) for node in every_node(e))


def live_reads(bodies: Iterable[list[n.Stmt]], conditions: Iterable[n.Expr],
               functions: dict[str, n.Expr], triggers: Triggers) -> set[str] | None:
    """The variables and zones whose value where the game waits may change what follows.

    They are those the rules read (``conditions`` at any time; ``bodies`` in order), except
    where only log lines read them, or only after code sets them anew with no stop between:
    such a variable records the past and changes nothing to come. None if unknown.
    """
    found: set[str] = set()
    if not _reads_in(list(conditions), functions, found):
        return None
    for body in bodies:
        fresh: set[str] = set()  # variables set anew since the game last may have waited
        for s in body:
            here: set[str] = set()
            if not _reads_in(s, functions, here):
                return None
            found |= here - fresh
            if choices_in([s]) or calls_in([s], triggers):
                fresh = set()
            elif isinstance(s, n.Assign) and s.op == "=" and s.index is None and s.ref \
                    and s.ref[0] == "var":
                fresh.add(s.ref[1])
    return found


def _reads_in(root: object, functions: dict[str, n.Expr], found: set[str]) -> bool:
    """Add what ``root`` reads, log lines left out, to ``found`` (``+=`` reads its variable);
    false if unknown."""
    seen: set[str] = set()
    for node in every_node(root, skip=n.Log):
        if isinstance(node, n.Assign) and node.op != "=" and node.ref and node.ref[0] == "var":
            found.add(node.ref[1])
        if not _read(node, functions, found, seen, False):
            return False
    return True


def _read(node: n.Node, functions: dict[str, n.Expr], found: set[str], seen: set[str],
          strict: bool) -> bool:
    """What one node reads (not its children): see :func:`reads`."""
    if isinstance(node, n.Name) and node.ref:
        if node.ref[0] in ("var", "zone"):
            found.add(node.ident)
        return not (strict and node.ref[0] == "builtin")
    if isinstance(node, n.Call) and node.ref and node.ref[0] == "func":
        return _function_reads(node.ref[1], functions, found, seen, strict)
    return True


def _function_reads(name: str, functions: dict[str, n.Expr], found: set[str], seen: set[str],
                    strict: bool) -> bool:
    """What the body of a pack function reads, the first time it is met."""
    if name in seen:
        return True
    seen.add(name)
    body = functions.get(name)
    return body is not None and reads(body, functions, found, seen, strict)


def writes_of(procedures: dict[str, list[n.Stmt]], roots: list[str],
              triggers: Triggers) -> set[str] | None:
    """What the procedures ``roots``, and those they call or trigger, write; None if unknown."""
    names = reached(procedures, roots, triggers)
    if not names <= procedures.keys():
        return None
    return {written for name in names for s in statements(procedures[name])
            for written in _writes(s)}


def _writes(s: n.Stmt) -> list[str]:
    """The zones and variables one statement writes itself."""
    if isinstance(s, n.Assign) and s.ref is not None and s.ref[0] == "var":
        return [s.ref[1]]
    if isinstance(s, (n.Move, n.Draw)):
        return [zone_name(s.source), zone_name(s.dest)]
    if isinstance(s, n.Shuffle):
        return [zone_name(s.zone)]
    return []


# ---------------------------------------------------------------- facts about an expression


def is_simple(e: n.Expr) -> bool:
    """Whether ``e`` is a constant, a local or a variable: cheap to read again, never failing."""
    if isinstance(e, (n.Literal, n.CardLit)):
        return True
    return isinstance(e, n.Name) and bool(e.ref) and e.ref[0] in ("local", "const", "var")


def reads_local(e: n.Expr, slot: int) -> bool:
    """Whether ``e`` is the name of local ``slot``."""
    return isinstance(e, n.Name) and bool(e.ref) and e.ref[0] == "local" and e.ref[1] == slot


def node_count(e: n.Expr) -> int:
    """The number of nodes of an expression."""
    return sum(isinstance(node, n.Expr) for node in every_node(e))


def invariant(condition: n.Expr, slot: int) -> bool:
    """Whether a comprehension's costly condition does not read its variable (local ``slot``)."""
    costly = False
    for e in every_node(condition):
        if isinstance(e, n.Expr) and reads_local(e, slot):
            return False
        costly = costly or isinstance(e, n.Comprehension) or (
            isinstance(e, n.Call) and bool(e.ref) and e.ref[0] == "func")
    return costly


def fits(e: n.Binary) -> bool:
    """Whether an operation cannot outgrow the size limits (the step budget ends first)."""
    left, right = int_bound(e.left), int_bound(e.right)
    if e.op == "*":
        return left is not None and right is not None and left * right < 1 << 62
    return any(b is not None and b < 1 << 32 for b in (left, right))


def int_bound(e: n.Expr) -> int | None:
    """A bound on the size of an integer expression, if known when compiling."""
    if isinstance(e, n.Literal):
        return abs(e.value) if e.value.__class__ is int else None
    if isinstance(e, n.Unary) and e.op == "-":
        return int_bound(e.operand)
    if isinstance(e, n.Binary) and e.op in ("%", "+", "-", "*"):
        return _binary_bound(e)
    return None


def _binary_bound(e: n.Binary) -> int | None:
    right = int_bound(e.right)
    if e.op == "%":
        return right  # the remainder by b is smaller than b (or fails, by zero)
    left = int_bound(e.left)
    if left is None or right is None:
        return None
    return left * right if e.op == "*" else left + right


def is_range(e: n.Expr) -> bool:
    """Whether an expression is a call of ``range`` (a list of numbers)."""
    return isinstance(e, n.Call) and bool(e.ref) and e.ref[0] == "builtin" and e.ref[1] == "range"


def is_zone(e: n.Expr) -> bool:
    """Whether an expression names a zone: ``deck`` or ``hand[p]``."""
    target = e.obj if isinstance(e, n.Index) else e
    return isinstance(target, n.Name) and bool(target.ref) and target.ref[0] == "zone"


def pile_decl(ref: tuple[object, ...] | None, symbols: Symbols) -> ZoneDecl | VarDecl | None:
    """The zone or variable a ``ref`` (``("zone", name, ...)``) refers to, if it refers to one."""
    if not ref or ref[0] not in ("zone", "var"):
        return None
    return (symbols.zones if ref[0] == "zone" else symbols.variables).get(str(ref[1]))


def is_pile(e: n.Expr) -> TypeGuard[n.Name]:
    """Whether ``e`` is the name of a zone or a variable of the pack."""
    return isinstance(e, n.Name) and bool(e.ref) and e.ref[0] in ("zone", "var")


def pile_counted(call: n.Call) -> n.Expr | None:
    """The pile a call ``count(ZONE)`` or ``count(ZONE[i])`` counts, if it is one."""
    if call.func != "count" or len(call.args) != 1 or not is_zone(call.args[0]):
        return None
    return call.args[0]


# A count compared with 0 (or 1) that says whether a pile is empty: op -> (empty, swapped op).
_EMPTINESS = {"==": (0, True), "!=": (0, False), ">": (0, False), ">=": (1, False),
              "<": (1, True), "<=": (0, True)}
_SWAPPED = {"==": "==", "!=": "!=", ">": "<", ">=": "<=", "<": ">", "<=": ">="}


def counted_against_zero(e: n.Binary) -> tuple[n.Expr, bool] | None:
    """The zone whose count ``e`` compares with 0 or 1, and whether an empty one passes."""
    op, count, number = e.op, e.left, e.right
    if isinstance(e.left, n.Literal):
        op, count, number = _SWAPPED.get(op, ""), e.right, e.left
    pile = pile_counted(count) if isinstance(count, n.Call) and count.ref == ("builtin", "count") \
        else None
    if op not in _EMPTINESS or pile is None or not isinstance(number, n.Literal) \
            or number.value.__class__ is not int:
        return None
    bound, empty = _EMPTINESS[op]
    return (pile, empty) if number.value == bound else None
