"""Why an ``expect`` of a scenario is false: the values of its parts.

``expected money >= 5 and round == 3: money = 4, round = 3``. The parts of ``a and b``,
``a or b`` and ``not a`` are those of ``a`` and ``b``; the parts of a comparison are its two
sides; a part that shows only its own value (``3``, ``@key``, a role's name) is left out.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rulekit.lang import nodes as n
from rulekit.model.symbols import Symbols

COMPARISONS = frozenset({"==", "!=", "<", "<=", ">", ">=", "in", "not in"})
_PRECEDENCE = {"or": 1, "and": 2, "not": 3, **dict.fromkeys(COMPARISONS, 4), "+": 5, "-": 5,
               "*": 6, "//": 6, "%": 6}
_UNARY, _POSTFIX, _ATOM = 7, 8, 9
LIST_SHOWN = 12  # items of a list shown before "..."


def explain(expr: n.Expr, evaluate: Callable[[n.Expr], Any], symbols: Symbols) -> str:
    """``": a = 1, b = 2"`` for the parts of ``expr`` (empty if none can be shown)."""
    shown: list[str] = []
    for part in parts(expr):
        try:
            value = evaluate(part)
        except Exception:  # a part that cannot be evaluated alone is not shown
            continue
        text, result = expr_text(part), show_value(value, symbols)
        line = f"{text} = {result}"
        if text != result and line not in shown:
            shown.append(line)
    return ": " + ", ".join(shown) if shown else ""


def parts(expr: n.Expr) -> list[n.Expr]:
    """The sub-expressions whose values explain ``expr``."""
    if isinstance(expr, n.Binary) and expr.op in ("and", "or"):
        return parts(expr.left) + parts(expr.right)
    if isinstance(expr, n.Unary) and expr.op == "not":
        return parts(expr.operand)
    if isinstance(expr, n.Binary) and expr.op in COMPARISONS:
        return [side for side in (expr.left, expr.right) if not _constant(side)]
    return [] if _constant(expr) else [expr]


def _constant(expr: n.Expr) -> bool:
    if isinstance(expr, n.Literal | n.CardLit):
        return True
    return isinstance(expr, n.ListLit) and all(_constant(item) for item in expr.items)


def expr_text(expr: n.Expr) -> str:
    """The effect-language text of ``expr`` (with only the parentheses it needs)."""
    return _text(expr)[0]


def _text(expr: n.Expr) -> tuple[str, int]:
    """The text of ``expr`` and its precedence."""
    if isinstance(expr, n.Literal):
        return show_literal(expr.value), _ATOM
    if isinstance(expr, n.CardLit):
        return "@" + expr.card_id, _ATOM
    if isinstance(expr, n.Name):
        return expr.ident, _ATOM
    if isinstance(expr, n.ListLit):
        return "[" + ", ".join(expr_text(item) for item in expr.items) + "]", _ATOM
    if isinstance(expr, n.Comprehension):
        cond = f" if {expr_text(expr.condition)}" if expr.condition is not None else ""
        return (f"[{expr_text(expr.element)} for {expr.var} in "
                f"{expr_text(expr.iterable)}{cond}]", _ATOM)
    if isinstance(expr, n.Attr):
        return f"{_wrap(expr.obj, _POSTFIX)}.{expr.attr}", _POSTFIX
    if isinstance(expr, n.Index):
        return f"{_wrap(expr.obj, _POSTFIX)}[{expr_text(expr.index)}]", _POSTFIX
    if isinstance(expr, n.Call):
        return f"{expr.func}({', '.join(expr_text(a) for a in expr.args)})", _POSTFIX
    if isinstance(expr, n.Unary):
        if expr.op == "not":
            return f"not {_wrap(expr.operand, 3)}", 3
        return f"-{_wrap(expr.operand, _UNARY)}", _UNARY
    if isinstance(expr, n.Binary):
        level = _PRECEDENCE[expr.op]
        # Left-associative: the right operand needs parentheses at the same level; a
        # comparison takes no comparison on either side.
        left = _wrap(expr.left, level + (1 if level == 4 else 0))
        right = _wrap(expr.right, level + 1)
        return f"{left} {expr.op} {right}", level
    return "...", _ATOM


def _wrap(expr: n.Expr, least: int) -> str:
    text, level = _text(expr)
    return text if level >= least else f"({text})"


def show_literal(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return str(value)


def show_value(value: Any, symbols: Symbols) -> str:
    """A value as a designer writes it: ``@berlin`` for a component, a role by its id,
    ``"text"`` for other text, ``[...]`` for a list."""
    if isinstance(value, list):
        items = [show_value(v, symbols) for v in value[:LIST_SHOWN]]
        more = f", ... ({len(value)} in all)" if len(value) > LIST_SHOWN else ""
        return "[" + ", ".join(items) + more + "]"
    if isinstance(value, str):
        if value in symbols.roles:
            return value
        if symbols.kind_of(value) is not None:
            return "@" + value
    return show_literal(value)
