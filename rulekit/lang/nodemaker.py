"""Make the syntax tree of :mod:`rulekit.lang.nodes` from lark's parse tree."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial

from lark import Token, Tree
from lark.tree import Meta

from rulekit.errors import EffectSyntaxError, Location
from rulekit.lang import nodes as n


def pos_of(where: Meta | Token) -> n.Pos:
    """The place of a rule (lark's ``meta``) or of a token."""
    return n.Pos(getattr(where, "line", 1) or 1, getattr(where, "column", 1) or 1)


_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "'": "'", "\\": "\\"}

# The pieces of a log text: a doubled brace, a field, a brace left open, plain text.
_LOG_PIECES = re.compile(r"\{\{|\}\}|\{[^}]*\}|\{|[^{}]+|\}")

ChoiceOption = Callable[[n.Choice], None]
"""One option of a choice (``where``, ``min``, ``prompt``...), which sets itself on it."""

Branch = tuple[n.Expr | None, list[n.Stmt]]
"""An ``elif`` clause (its condition and body) or an ``else`` clause (no condition)."""


def _unescape(text: str) -> str:
    """The text between quotes, its escapes undone."""
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(1)), text)


class NodeMaker:
    """Makes the nodes of one parse tree."""

    def __init__(self, locate: Callable[[int, int], Location],
                 expression: Callable[[str, int, int], n.Expr]) -> None:
        self.locate = locate
        self.expression = expression

    def make(self, tree: Tree[Token]) -> object:
        """The node of ``tree``, made from the nodes of its children (depth first)."""
        children = [self.make(c) if isinstance(c, Tree) else c for c in tree.children]
        return MAKERS[tree.data](self, tree.meta, *children)

    # -- statements
    def start(self, meta: Meta, *stmts: n.Stmt | None) -> list[n.Stmt]:
        return [s for s in stmts if s is not None]

    block = start

    def empty_stmt(self, meta: Meta) -> None:
        return None

    def let_stmt(self, meta: Meta, name: Token, value: n.Expr) -> n.Let:
        return n.Let(pos_of(meta), str(name), value)

    def assign_stmt(self, meta: Meta, target: tuple[str, n.Expr | None], op: Token,
                    value: n.Expr) -> n.Assign:
        name, index = target
        return n.Assign(pos_of(meta), name, index, str(op), value)

    def target(self, meta: Meta, name: Token, index: n.Expr | None = None
               ) -> tuple[str, n.Expr | None]:
        return str(name), index

    def if_stmt(self, meta: Meta, condition: n.Expr, body: list[n.Stmt],
                *clauses: Branch) -> n.If:
        branches = [(condition, body), *((c, b) for c, b in clauses if c is not None)]
        otherwise = next((b for c, b in clauses if c is None), None)
        return n.If(pos_of(meta), branches, otherwise)

    def elif_clause(self, meta: Meta, condition: n.Expr, body: list[n.Stmt]) -> Branch:
        return condition, body

    def else_clause(self, meta: Meta, body: list[n.Stmt]) -> Branch:
        return None, body

    def for_stmt(self, meta: Meta, var: Token, iterable: n.Expr, body: list[n.Stmt]) -> n.For:
        return n.For(pos_of(meta), str(var), iterable, body)

    def move_stmt(self, meta: Meta, cards: Token | n.Expr, source: n.Expr, dest: n.Expr,
                  end: Token | None = None) -> n.Move:
        """``move CARDS from A to B``, where ``all`` and ``bottom`` are tokens."""
        to_bottom = end is not None and end.type == "BOTTOM"
        return n.Move(pos_of(meta), None if isinstance(cards, Token) else cards, source, dest,
                      to_bottom)

    def call_stmt(self, meta: Meta, name: Token, args: list[n.Expr] | None = None
                  ) -> n.CallStmt:
        return n.CallStmt(pos_of(meta), str(name), args or [])

    def simultaneous_stmt(self, meta: Meta, *bindings: n.Let) -> n.Simultaneous:
        return n.Simultaneous(pos_of(meta), list(bindings))

    choice_binding = let_stmt

    def win_stmt(self, meta: Meta, winner: n.Expr, reason: Token | None = None) -> n.Win:
        return n.Win(pos_of(meta), winner, None if reason is None else self.reason(meta, reason))

    def log_stmt(self, meta: Meta, text: Token, to: n.Expr | None = None) -> n.Log:
        return n.Log(pos_of(meta), self._log_parts(text), to)

    def _log_parts(self, token: Token) -> list[str | n.Expr]:
        """Split ``"text {expr} text"`` into pieces; ``{{`` and ``}}`` are literal braces."""
        line = token.line or 1
        column = (token.column or 1) + 1  # the column of the text after the quote
        parts: list[str | n.Expr] = []
        text = ""
        for piece in _LOG_PIECES.finditer(str(token)[1:-1]):
            found, at = piece.group(), column + piece.start()
            if found == "{":
                raise EffectSyntaxError("unclosed '{' in log text", self.locate(line, at),
                                        "write '{{' for a literal brace")
            if found in ("{{", "}}"):
                text += found[0]
            elif found.startswith("{"):
                parts += [_unescape(text)] if text else []
                parts.append(self.expression(found[1:-1], line, at))
                text = ""
            else:
                text += found
        return parts + ([_unescape(text)] if text else [])

    # -- choices
    def choice(self, meta: Meta, player: n.Expr, kind: str, source: n.Expr,
               *options: ChoiceOption) -> n.Choice:
        made = n.Choice(pos_of(meta), player, kind, source)
        for option in options:
            option(made)
        return made

    def choice_kind(self, meta: Meta, kind: Token) -> str:
        return str(kind)

    def reason(self, meta: Meta, text: Token) -> n.Log:
        return n.Log(pos_of(text), self._log_parts(text), None)

    def opt_where(self, meta: Meta, condition: n.Expr, reason: n.Log | None = None
                  ) -> ChoiceOption:
        """A ``where`` clause; with several, a candidate must meet them all."""
        def add(choice: n.Choice) -> None:
            choice.wheres.append((condition, reason))
            choice.where = condition if choice.where is None else \
                n.Binary(choice.where.pos, "and", choice.where, condition)
        return add

    def opt_min(self, meta: Meta, least: n.Expr, reason: n.Log | None = None) -> ChoiceOption:
        return _bound("min", least, reason)

    def opt_max(self, meta: Meta, most: n.Expr, reason: n.Log | None = None) -> ChoiceOption:
        return _bound("max", most, reason)

    def opt_at_most(self, meta: Meta, limit: n.Expr, condition: n.Expr,
                    reason: n.Log | None = None) -> ChoiceOption:
        rule = n.AtMost(pos_of(meta), limit, condition, reason)
        return lambda choice: choice.at_most.append(rule)

    def opt_optional(self, meta: Meta) -> ChoiceOption:
        return _setting("optional", True)

    def opt_as(self, meta: Meta, name: Token) -> ChoiceOption:
        return _setting("var", str(name))

    def opt_label(self, meta: Meta, text: Token) -> ChoiceOption:
        return _setting("label", self.reason(meta, text))

    def opt_prompt(self, meta: Meta, text: Token) -> ChoiceOption:
        return _setting("prompt", self.reason(meta, text))

    # -- expressions
    def conditional(self, meta: Meta, then: n.Expr, _if: Token, test: n.Expr,
                    otherwise: n.Expr) -> n.Conditional:
        return n.Conditional(pos_of(meta), then, test, otherwise)

    def compare(self, meta: Meta, left: n.Expr, op: str, right: n.Expr) -> n.Binary:
        return n.Binary(pos_of(meta), op, left, right)

    def comp_op(self, meta: Meta, *words: Token) -> str:
        return " ".join(str(w) for w in words)

    def binop(self, meta: Meta, left: n.Expr, op: Token, right: n.Expr) -> n.Binary:
        return n.Binary(pos_of(meta), str(op), left, right)

    def attr(self, meta: Meta, obj: n.Expr, name: Token) -> n.Attr:
        return n.Attr(pos_of(meta), obj, str(name))

    def call(self, meta: Meta, name: Token, args: list[n.Expr] | None = None) -> n.Call:
        return n.Call(pos_of(meta), str(name), args or [])

    def args(self, meta: Meta, *items: n.Expr) -> list[n.Expr]:
        return list(items)

    def number(self, meta: Meta, digits: Token) -> n.Literal:
        return n.Literal(pos_of(meta), int(digits))

    def string(self, meta: Meta, text: Token) -> n.Literal:
        return n.Literal(pos_of(meta), _unescape(str(text)[1:-1]))

    def card(self, meta: Meta, token: Token) -> n.CardLit:
        return n.CardLit(pos_of(meta), str(token)[1:])

    def name(self, meta: Meta, token: Token) -> n.Name:
        return n.Name(pos_of(meta), str(token))

    def list_lit(self, meta: Meta, *items: n.Expr) -> n.ListLit:
        return n.ListLit(pos_of(meta), list(items))

    def comprehension(self, meta: Meta, element: n.Expr, var: Token, iterable: n.Expr,
                      *condition: n.Expr | Token) -> n.Comprehension:
        test = condition[-1] if condition else None  # (after an INLINE_IF token, if any)
        assert test is None or isinstance(test, n.Expr)
        return n.Comprehension(pos_of(meta), element, str(var), iterable, test)


def _setting(field: str, value: object) -> ChoiceOption:
    """An option of a choice that sets one of its fields."""
    return lambda choice: setattr(choice, field, value)


def _bound(key: str, value: n.Expr, reason: n.Log | None) -> ChoiceOption:
    """A ``min`` or ``max`` of a subset choice, and its reason if given."""
    def add(choice: n.Choice) -> None:
        setattr(choice, key, value)
        if reason is not None:
            choice.reasons[key] = reason
    return add


def _plain(kind: Callable[..., n.Node], *first: str) -> Callable[..., n.Node]:
    """The maker of a rule whose node takes the rule's place, ``first``, then its children."""
    return lambda maker, meta, *children: kind(pos_of(meta), *first, *children)


# The node of each rule that takes the rule's place, then its children as they are.
_PLAIN: dict[str, Callable[..., n.Node]] = {
    "while_stmt": n.While, "repeat_stmt": n.Repeat, "draw_stmt": n.Draw,
    "shuffle_stmt": n.Shuffle, "break_stmt": n.Break, "continue_stmt": n.Continue,
    "return_stmt": n.Return, "end_round_stmt": n.EndRound, "pass_stmt": n.Pass,
    "index": n.Index, "true": partial(n.Literal, value=True),
    "false": partial(n.Literal, value=False), "none": partial(n.Literal, value=None),
}

# The operator of each rule whose node is an operation with a fixed operator.
_OPERATORS: dict[str, tuple[Callable[..., n.Node], str]] = {
    "or_op": (n.Binary, "or"), "and_op": (n.Binary, "and"), "not_op": (n.Unary, "not"),
    "neg": (n.Unary, "-"),
}

# The method that makes the node of each rule, by the rule's name.
MAKERS: dict[str, Callable[..., object]] = {
    **{name: made for name, made in vars(NodeMaker).items()
       if not name.startswith("_") and name != "make"},
    **{rule: _plain(kind) for rule, kind in _PLAIN.items()},
    **{rule: _plain(kind, op) for rule, (kind, op) in _OPERATORS.items()},
}
