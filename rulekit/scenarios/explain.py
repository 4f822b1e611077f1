"""Why an ``expect`` is false, by the values of its parts: ``money >= 5: money = 4``."""

from __future__ import annotations

from collections.abc import Callable

from rulekit.engine.vm import CODE_ERRORS
from rulekit.errors import RulekitError
from rulekit.lang import nodes as n
from rulekit.model.symbols import Symbols

COMPARISONS = frozenset({"==", "!=", "<", "<=", ">", ">=", "in", "not in"})
_PRECEDENCE = {"or": 1, "and": 2, "not": 3, **dict.fromkeys(COMPARISONS, 4), "+": 5, "-": 5,
               "*": 6, "//": 6, "%": 6}
_UNARY, _POSTFIX, _ATOM = 7, 8, 9
LIST_SHOWN = 12  # items of a list shown before "..."


def explain(expr: n.Expr, evaluate: Callable[[n.Expr], object], symbols: Symbols) -> str:
    """The values of the parts of ``expr``: ``": a = 1, b = 2"``, or nothing."""
    shown: list[str] = []
    for part in parts(expr):
        try:
            value = evaluate(part)
        except (*CODE_ERRORS, RulekitError):  # a part that cannot be evaluated alone
            continue
        text, result = expr_text(part), show_value(value, symbols)
        line = f"{text} = {result}"
        if text != result and line not in shown:
            shown.append(line)
    return ": " + ", ".join(shown) if shown else ""


def parts(expr: n.Expr) -> list[n.Expr]:
    """The sub-expressions whose values explain ``expr``."""
    match expr:
        case n.Binary(op="and" | "or"):
            return parts(expr.left) + parts(expr.right)
        case n.Unary(op="not"):
            return parts(expr.operand)
        case n.Binary(op=op) if op in COMPARISONS:
            return [side for side in (expr.left, expr.right) if not _constant(side)]
    return [] if _constant(expr) else [expr]


def _constant(expr: n.Expr) -> bool:
    """Whether ``expr`` shows only its own value."""
    if isinstance(expr, n.Literal | n.CardLit):
        return True
    return isinstance(expr, n.ListLit) and all(_constant(item) for item in expr.items)


def expr_text(expr: n.Expr) -> str:
    """The effect-language text of ``expr``, with the parentheses it needs."""
    return _text(expr)[0]


def _text(expr: n.Expr) -> tuple[str, int]:
    """The text of ``expr``, and how tightly it binds (a level of :data:`_PRECEDENCE`)."""
    match expr:
        case n.Unary(op="not"):
            return f"not {_wrap(expr.operand, 3)}", 3
        case n.Unary():
            return f"-{_wrap(expr.operand, _UNARY)}", _UNARY
        case n.Binary():
            return _binary_text(expr)
        case n.Attr():
            return f"{_wrap(expr.obj, _POSTFIX)}.{expr.attr}", _POSTFIX
        case n.Index():
            return f"{_wrap(expr.obj, _POSTFIX)}[{expr_text(expr.index)}]", _POSTFIX
        case n.Call():
            return f"{expr.func}({', '.join(expr_text(a) for a in expr.args)})", _POSTFIX
        case n.Conditional():  # the loosest of all: wrapped wherever it stands
            return (f"{_wrap(expr.then, 1)} if {_wrap(expr.test, 1)} else "
                    f"{expr_text(expr.otherwise)}"), 0
        case n.Literal():
            return show_literal(expr.value), _ATOM
        case n.CardLit():
            return "@" + expr.card_id, _ATOM
        case n.Name():
            return expr.ident, _ATOM
        case n.ListLit():
            return "[" + ", ".join(expr_text(item) for item in expr.items) + "]", _ATOM
        case n.Comprehension():
            cond = f" if {expr_text(expr.condition)}" if expr.condition is not None else ""
            return (f"[{expr_text(expr.element)} for {expr.var} in "
                    f"{expr_text(expr.iterable)}{cond}]"), _ATOM
    return "...", _ATOM


def _binary_text(expr: n.Binary) -> tuple[str, int]:
    """A binary operation: left-associative; a comparison beside another is wrapped."""
    level = _PRECEDENCE[expr.op]
    left = _wrap(expr.left, level + (1 if level == 4 else 0))
    right = _wrap(expr.right, level + 1)
    return f"{left} {expr.op} {right}", level


def _wrap(expr: n.Expr, least: int) -> str:
    text, level = _text(expr)
    return text if level >= least else f"({text})"


def show_literal(value: object) -> str:
    """A value as code writes it: ``none``, ``true``, ``"text"``."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return str(value)


def show_value(value: object, symbols: Symbols) -> str:
    """A value as a designer writes it: ``@berlin``, a role's id, a quoted text, ``[...]``."""
    if isinstance(value, list):
        items = [show_value(v, symbols) for v in value[:LIST_SHOWN]]
        more = f", ... ({len(value)} in all)" if len(value) > LIST_SHOWN else ""
        return "[" + ", ".join(items) + more + "]"
    if isinstance(value, str) and value in symbols.roles:
        return value
    if isinstance(value, str) and symbols.kind_of(value) is not None:
        return "@" + value
    return show_literal(value)
