"""The syntax tree (:mod:`rulekit.lang.nodes`) of lark's parse tree of effect-language text.

:class:`NodeMaker` has one method per rule of the grammar: it makes that rule's node from its
children (tokens and nodes) and its place in the text.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from lark import Token, Tree
from lark.tree import Meta

from rulekit.errors import EffectSyntaxError, Location
from rulekit.lang import nodes as n


def pos_of(where: Meta | Token) -> n.Pos:
    """The place of a rule (lark's ``meta``) or of a token."""
    return n.Pos(getattr(where, "line", 1) or 1, getattr(where, "column", 1) or 1)


_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "'": "'", "\\": "\\"}


def _unquote(token: Token) -> str:
    """The text of a quoted token, its escapes undone."""
    return _unescape(str(token)[1:-1])


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(1)), text)


class NodeMaker:
    """Makes the nodes of one parse tree, each from its rule's children and place (``meta``).

    ``locate`` places a line and column of the text in the pack file. ``expression`` parses
    the text of a ``{...}`` part of a log text, padded to keep its positions.
    """

    def __init__(self, locate: Callable[[int, int], Location],
                 expression: Callable[[str], n.Expr]) -> None:
        self.locate = locate
        self.expression = expression

    def make(self, tree: Tree[Token]) -> Any:
        """The node of ``tree``, made from the nodes of its children (depth first)."""

        def node(item: Tree[Token] | Token) -> Any:
            if isinstance(item, Tree):
                return MAKERS[item.data](self, item.meta, [node(c) for c in item.children])
            return item

        return node(tree)

    # -- statements
    def start(self, meta: Meta, children: list[Any]) -> list[n.Stmt]:
        return [c for c in children if c is not None]

    def block(self, meta: Meta, children: list[Any]) -> list[n.Stmt]:
        return [c for c in children if c is not None]

    def empty_stmt(self, meta: Meta, children: list[Any]) -> None:
        return None

    def let_stmt(self, meta: Meta, children: list[Any]) -> n.Let:
        return n.Let(pos_of(meta), str(children[0]), children[1])

    def assign_stmt(self, meta: Meta, children: list[Any]) -> n.Assign:
        (name, index), op, value = children
        return n.Assign(pos_of(meta), name, index, str(op), value)

    def target(self, meta: Meta, children: list[Any]) -> tuple[str, n.Expr | None]:
        return str(children[0]), (children[1] if len(children) > 1 else None)

    def if_stmt(self, meta: Meta, children: list[Any]) -> n.If:
        branches = [(children[0], children[1])]
        otherwise = None
        for extra in children[2:]:
            if extra[0] == "elif":
                branches.append((extra[1], extra[2]))
            else:
                otherwise = extra[1]
        return n.If(pos_of(meta), branches, otherwise)

    def elif_clause(self, meta: Meta, children: list[Any]) -> tuple[str, n.Expr, list[n.Stmt]]:
        return ("elif", children[0], children[1])

    def else_clause(self, meta: Meta, children: list[Any]) -> tuple[str, list[n.Stmt]]:
        return ("else", children[0])

    def for_stmt(self, meta: Meta, children: list[Any]) -> n.For:
        return n.For(pos_of(meta), str(children[0]), children[1], children[2])

    def while_stmt(self, meta: Meta, children: list[Any]) -> n.While:
        return n.While(pos_of(meta), children[0], children[1])

    def repeat_stmt(self, meta: Meta, children: list[Any]) -> n.Repeat:
        return n.Repeat(pos_of(meta), children[0], children[1])

    def move_stmt(self, meta: Meta, children: list[Any]) -> n.Move:
        items = list(children)
        to_bottom = False
        if _kind(items[-1]) in ("TOP", "BOTTOM"):
            to_bottom = _kind(items.pop()) == "BOTTOM"
        cards = None if _kind(items[0]) == "ALL" else items[0]
        return n.Move(pos_of(meta), cards, items[1], items[2], to_bottom)

    def draw_stmt(self, meta: Meta, children: list[Any]) -> n.Draw:
        return n.Draw(pos_of(meta), children[0], children[1], children[2])

    def shuffle_stmt(self, meta: Meta, children: list[Any]) -> n.Shuffle:
        return n.Shuffle(pos_of(meta), children[0])

    def call_stmt(self, meta: Meta, children: list[Any]) -> n.CallStmt:
        args = children[1] if len(children) > 1 else []
        return n.CallStmt(pos_of(meta), str(children[0]), args)

    def simultaneous_stmt(self, meta: Meta, children: list[Any]) -> n.Simultaneous:
        return n.Simultaneous(pos_of(meta), list(children))

    def choice_binding(self, meta: Meta, children: list[Any]) -> n.Let:
        return n.Let(pos_of(meta), str(children[0]), children[1])

    def win_stmt(self, meta: Meta, children: list[Any]) -> n.Win:
        reason = _unquote(children[1]) if len(children) > 1 else None
        return n.Win(pos_of(meta), children[0], reason)

    def log_stmt(self, meta: Meta, children: list[Any]) -> n.Log:
        token: Token = children[0]
        parts = self._log_parts(token)
        return n.Log(pos_of(meta), parts, children[1] if len(children) > 1 else None)

    def _log_parts(self, token: Token) -> list[str | n.Expr]:
        """Split ``"text {expr} text"`` into pieces; ``{{`` and ``}}`` are literal braces."""
        raw = str(token)[1:-1]
        parts: list[str | n.Expr] = []
        text = ""
        i = 0
        line = token.line or 1
        col0 = (token.column or 1) + 1
        while i < len(raw):
            ch = raw[i]
            if raw.startswith("{{", i) or raw.startswith("}}", i):
                text += ch
                i += 2
            elif ch == "{":
                end = raw.find("}", i)
                if end < 0:
                    raise EffectSyntaxError(
                        "unclosed '{' in log text", self.locate(line, col0 + i),
                        "write '{{' for a literal brace",
                    )
                if text:
                    parts.append(_unescape(text))
                    text = ""
                inner = raw[i + 1 : end]
                parts.append(self.expression("\n" * (line - 1) + " " * (col0 + i) + inner))
                i = end + 1
            else:
                text += ch
                i += 1
        if text:
            parts.append(_unescape(text))
        return parts

    def break_stmt(self, meta: Meta, children: list[Any]) -> n.Break:
        return n.Break(pos_of(meta))

    def continue_stmt(self, meta: Meta, children: list[Any]) -> n.Continue:
        return n.Continue(pos_of(meta))

    def return_stmt(self, meta: Meta, children: list[Any]) -> n.Return:
        return n.Return(pos_of(meta))

    def end_round_stmt(self, meta: Meta, children: list[Any]) -> n.EndRound:
        return n.EndRound(pos_of(meta))

    def pass_stmt(self, meta: Meta, children: list[Any]) -> n.Pass:
        return n.Pass(pos_of(meta))

    # -- choices
    def choice(self, meta: Meta, children: list[Any]) -> n.Choice:
        player, kind, source, *rest = children
        choice = n.Choice(pos_of(meta), player, str(kind), source)
        for item in rest:
            tag, value, *reason = item
            if tag == "where":  # several: all must hold
                choice.wheres.append((value, reason[0] if reason else None))
                choice.where = value if choice.where is None else \
                    n.Binary(choice.where.pos, "and", choice.where, value)
                continue
            if reason:
                choice.reasons[tag] = reason[0]
            if tag == "min":
                choice.min = value
            elif tag == "max":
                choice.max = value
            elif tag == "at_most":
                choice.at_most.append(value)
            elif tag == "optional":
                choice.optional = True
            elif tag == "prompt":
                choice.prompt = value
            elif tag == "as":
                choice.var = value
            elif tag == "label":
                choice.label = value
        return choice

    def choice_kind(self, meta: Meta, children: list[Any]) -> str:
        return str(children[0])

    def opt_where(self, meta: Meta, children: list[Any]) -> tuple[Any, ...]:
        return ("where", *children)

    def opt_min(self, meta: Meta, children: list[Any]) -> tuple[Any, ...]:
        return ("min", *children)

    def opt_max(self, meta: Meta, children: list[Any]) -> tuple[Any, ...]:
        return ("max", *children)

    def opt_at_most(self, meta: Meta, children: list[Any]) -> tuple[str, Any]:
        reason = children[2] if len(children) > 2 else None
        return ("at_most", n.AtMost(pos_of(meta), children[0], children[1], reason))

    def reason(self, meta: Meta, children: list[Any]) -> n.Log:
        token: Token = children[0]
        return n.Log(pos_of(token), self._log_parts(token), None)

    def opt_optional(self, meta: Meta, children: list[Any]) -> tuple[str, Any]:
        return ("optional", True)

    def opt_as(self, meta: Meta, children: list[Any]) -> tuple[str, Any]:
        return ("as", str(children[0]))

    def opt_label(self, meta: Meta, children: list[Any]) -> tuple[str, n.Log]:
        return ("label", self.reason(meta, children))

    def opt_prompt(self, meta: Meta, children: list[Any]) -> tuple[str, Any]:
        return ("prompt", _unquote(children[0]))

    # -- expressions
    def or_op(self, meta: Meta, children: list[Any]) -> n.Binary:
        return n.Binary(pos_of(meta), "or", children[0], children[1])

    def and_op(self, meta: Meta, children: list[Any]) -> n.Binary:
        return n.Binary(pos_of(meta), "and", children[0], children[1])

    def not_op(self, meta: Meta, children: list[Any]) -> n.Unary:
        return n.Unary(pos_of(meta), "not", children[0])

    def compare(self, meta: Meta, children: list[Any]) -> n.Binary:
        return n.Binary(pos_of(meta), children[1], children[0], children[2])

    def comp_op(self, meta: Meta, children: list[Any]) -> str:
        return " ".join(str(c) for c in children)

    def binop(self, meta: Meta, children: list[Any]) -> n.Binary:
        return n.Binary(pos_of(meta), str(children[1]), children[0], children[2])

    def neg(self, meta: Meta, children: list[Any]) -> n.Unary:
        return n.Unary(pos_of(meta), "-", children[0])

    def attr(self, meta: Meta, children: list[Any]) -> n.Attr:
        return n.Attr(pos_of(meta), children[0], str(children[1]))

    def index(self, meta: Meta, children: list[Any]) -> n.Index:
        return n.Index(pos_of(meta), children[0], children[1])

    def call(self, meta: Meta, children: list[Any]) -> n.Call:
        args = children[1] if len(children) > 1 else []
        return n.Call(pos_of(meta), str(children[0]), args)

    def args(self, meta: Meta, children: list[Any]) -> list[n.Expr]:
        return list(children)

    def number(self, meta: Meta, children: list[Any]) -> n.Literal:
        return n.Literal(pos_of(meta), int(children[0]))

    def string(self, meta: Meta, children: list[Any]) -> n.Literal:
        return n.Literal(pos_of(meta), _unquote(children[0]))

    def true(self, meta: Meta, children: list[Any]) -> n.Literal:
        return n.Literal(pos_of(meta), True)

    def false(self, meta: Meta, children: list[Any]) -> n.Literal:
        return n.Literal(pos_of(meta), False)

    def none(self, meta: Meta, children: list[Any]) -> n.Literal:
        return n.Literal(pos_of(meta), None)

    def card(self, meta: Meta, children: list[Any]) -> n.CardLit:
        return n.CardLit(pos_of(meta), str(children[0])[1:])

    def name(self, meta: Meta, children: list[Any]) -> n.Name:
        return n.Name(pos_of(meta), str(children[0]))

    def list_lit(self, meta: Meta, children: list[Any]) -> n.ListLit:
        return n.ListLit(pos_of(meta), [c for c in children if c is not None])

    def comprehension(self, meta: Meta, children: list[Any]) -> n.Comprehension:
        cond = children[3] if len(children) > 3 else None
        return n.Comprehension(pos_of(meta), children[0], str(children[1]), children[2], cond)

    def expr_start(self, meta: Meta, children: list[Any]) -> n.Expr:
        result: n.Expr = children[0]
        return result


def _kind(item: object) -> str | None:
    """The terminal of a token (None for a node)."""
    return item.type if isinstance(item, Token) else None


# The method that makes the node of each rule, by the rule's name.
MAKERS: dict[str, Callable[[NodeMaker, Meta, list[Any]], Any]] = {
    name: made for name, made in vars(NodeMaker).items()
    if not name.startswith("_") and name != "make"}
