"""What the compiler knows of an expression before it runs: bounds on numbers, sizes, simple
forms (syntax trees of :mod:`rulekit.lang.nodes` in, facts out; no code written here).

:mod:`rulekit.lang.pyexpr` asks these to choose the shortest safe Python for an expression: an
operation that cannot outgrow the size limits needs no check, an argument that is simple may
be read in place of a parameter, a count compared with 0 is a test of an empty pile.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from rulekit.lang import nodes as n

SMALL = 1 << 20  # items of a list whose sum surely fits (see pyexpr.ExprWriter._sum_fits)


def is_simple(e: n.Expr) -> bool:
    """Whether an argument may be read in place of a parameter, as often as the body reads
    it: a constant, a local or a variable (no list built, nothing that may fail)."""
    if isinstance(e, (n.Literal, n.CardLit)):
        return True
    return isinstance(e, n.Name) and bool(e.ref) and e.ref[0] in ("local", "const", "var")


def reads_local(e: n.Expr, slot: int) -> bool:
    """Whether ``e`` is the name of local ``slot``."""
    return isinstance(e, n.Name) and bool(e.ref) and e.ref[0] == "local" and e.ref[1] == slot


def node_count(e: Any) -> int:
    """The number of nodes of an expression."""
    if isinstance(e, list):
        return sum(node_count(item) for item in e)
    if not isinstance(e, n.Expr):
        return 0
    return 1 + sum(node_count(getattr(e, f.name)) for f in fields(e)
                   if f.name not in ("pos", "ref"))


def invariant(condition: n.Expr, slot: int) -> bool:
    """Whether a comprehension's condition is worth working out once for all its items: it
    does not read the comprehension's variable (local ``slot``), and it walks a list or calls
    a function of the pack (expressions change nothing, so once is as good as each time)."""
    costly = False
    todo: list[Any] = [condition]
    while todo:
        e = todo.pop()
        if isinstance(e, list):
            todo += e
            continue
        if not isinstance(e, n.Expr):
            continue
        if isinstance(e, n.Name) and e.ref and e.ref[0] == "local" and e.ref[1] == slot:
            return False
        if isinstance(e, n.Comprehension) or (isinstance(e, n.Call) and e.ref
                                              and e.ref[0] == "func"):
            costly = True
        todo += [getattr(e, f.name) for f in fields(e) if f.name not in ("pos", "ref")]
    return costly


def fits(e: n.Binary) -> bool:
    """Whether an operation cannot outgrow the size limits: adding or taking away a small
    number (the step budget runs out long before), or multiplying two small numbers."""
    left, right = int_bound(e.left), int_bound(e.right)
    if e.op == "*":
        return left is not None and right is not None and left * right < 1 << 62
    return any(b is not None and b < 1 << 32 for b in (left, right))


def int_bound(e: n.Expr) -> int | None:
    """A bound on the size of an integer expression known when compiling, if there is one
    (a number, a remainder by a number, and sums and products of those)."""
    if isinstance(e, n.Literal):
        return abs(e.value) if e.value.__class__ is int else None
    if isinstance(e, n.Unary) and e.op == "-":
        return int_bound(e.operand)
    if isinstance(e, n.Binary) and e.op in ("%", "+", "-", "*"):
        right = int_bound(e.right)
        if e.op == "%":
            return right  # the remainder by b is smaller than b (or fails, by zero)
        left = int_bound(e.left)
        if left is None or right is None:
            return None
        return left * right if e.op == "*" else left + right
    return None


def is_range(e: n.Expr) -> bool:
    """Whether an expression is a call of ``range`` (a list of numbers)."""
    return isinstance(e, n.Call) and bool(e.ref) and e.ref[0] == "builtin" and e.ref[1] == "range"


# A count compared with 0 (or 1) that says whether a pile is empty: op -> (empty, swapped op).
_EMPTINESS = {"==": (0, True), "!=": (0, False), ">": (0, False), ">=": (1, False),
              "<": (1, True), "<=": (0, True)}
_SWAPPED = {"==": "==", "!=": "!=", ">": "<", ">=": "<=", "<": ">", "<=": ">="}


def counted_against_zero(e: n.Binary) -> tuple[n.Expr, bool] | None:
    """(the zone, whether the test is that it is empty) when ``e`` compares the count of a
    zone with 0 (or 1) to tell whether it is empty (``count(deck) == 0``, ``0 < count(x)``,
    ``count(x) >= 1``); else None."""
    op, count, number = e.op, e.left, e.right
    if isinstance(e.left, n.Literal):
        op, count, number = _SWAPPED.get(op, ""), e.right, e.left
    if op not in _EMPTINESS or not isinstance(number, n.Literal) \
            or number.value.__class__ is not int or not isinstance(count, n.Call) \
            or count.ref != ("builtin", "count") or len(count.args) != 1 \
            or not is_zone(count.args[0]):
        return None
    bound, empty = _EMPTINESS[op]
    return (count.args[0], empty) if number.value == bound else None


def is_zone(e: n.Expr) -> bool:
    target = e.obj if isinstance(e, n.Index) else e
    return isinstance(target, n.Name) and bool(target.ref) and target.ref[0] == "zone"
