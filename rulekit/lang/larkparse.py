"""Effect-language text to syntax tree with lark: the grammar's LALR parser, and the
transformer from lark's parse tree to :mod:`rulekit.lang.nodes`.

Used by :mod:`rulekit.lang.parser` for a text it has not parsed before. The lark parser is made
once per process, from the tables shipped with rulekit (:mod:`rulekit.lang.larkbuild`). Syntax
errors become :class:`~rulekit.errors.EffectSyntaxError` located through the snippet's
``locate`` function.
"""

from __future__ import annotations

import logging
import re
from functools import cache
from typing import Any

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedInput, VisitError

from rulekit.errors import EffectSyntaxError
from rulekit.lang import nodes as n
from rulekit.lang.larkbuild import lalr_parser
from rulekit.lang.larkfast import FastParser
from rulekit.lang.parser import Snippet, parse_expression
from rulekit.lang.syntaxhints import syntax_error
from rulekit.limits import MAX_BLOCK_NESTING, MAX_CODE_NESTING, MAX_INT

# lark reports a cache file it could not read (say, one another process is still writing) on
# its logger, then builds the tables itself; that note is for lark's developers, not ours.
logging.getLogger("lark").addHandler(logging.NullHandler())


@cache
def _lark() -> Lark:
    return lalr_parser()


@cache
def _fast() -> FastParser:
    return FastParser(_lark())


def parse(snippet: Snippet, start: str) -> Any:
    """The syntax tree of ``snippet`` by the grammar's rule ``start`` (``start``: statements,
    ``expr_start``: one expression).

    Made as lark parses (:mod:`rulekit.lang.larkfast`); code with a mistake, or nested near
    the limits, is parsed again the usual way (a parse tree, checked, then transformed), which
    says what and where the mistake is."""
    try:
        found = _fast().parse(snippet.text, start, _ToAst(snippet).build)
    except Exception:  # any mistake: the usual way finds it and says it
        found = None
    if found is not None and found.height < MAX_CODE_NESTING \
            and found.blocks <= MAX_BLOCK_NESTING:
        return found.value
    return _transform(snippet, _parse(snippet, start))


def _transform(snippet: Snippet, tree: Tree[Token]) -> Any:
    try:
        return _ToAst(snippet).transform(tree)
    except VisitError as exc:
        if isinstance(exc.orig_exc, EffectSyntaxError):
            raise exc.orig_exc from None
        raise


def _parse(snippet: Snippet, start: str) -> Tree[Token]:
    key = (snippet.text, start)
    tree = _trees.get(key)
    if tree is None:
        try:
            tree = _lark().parse(snippet.text, start=start)
        except UnexpectedInput as exc:
            raise syntax_error(snippet, exc) from None
        _check_nesting(snippet, tree)
        _trees[key] = tree
        while len(_trees) > _TREES_KEPT:
            del _trees[next(iter(_trees))]
    return tree


# Parse trees of the texts parsed in this process (nothing changes a tree once made): a pack
# loaded again parses only the code that changed.
_trees: dict[tuple[str, str], Tree[Token]] = {}
_TREES_KEPT = 4096


def _check_nesting(snippet: Snippet, tree: Tree[Token]) -> None:
    """Refuse code nested deeper than the limits, walking the tree without recursion (so that
    nothing recursive ever sees a tree too deep for it)."""
    stack: list[tuple[Tree[Token], int, int]] = [(tree, 0, 0)]
    while stack:
        node, depth, blocks = stack.pop()
        if node.data == "block":
            blocks += 1
            if blocks > MAX_BLOCK_NESTING:
                raise _too_deep(snippet, node, f"more than {MAX_BLOCK_NESTING} blocks inside one "
                                "another", "move the inner blocks into a procedure")
        if depth > MAX_CODE_NESTING:
            raise _too_deep(snippet, node, f"more than {MAX_CODE_NESTING} levels",
                            "split it into parts with let, functions or procedures")
        for child in node.children:
            if isinstance(child, Tree):
                stack.append((child, depth + 1, blocks))
            elif isinstance(child, Token) and child.type == "NUMBER":
                _check_number(snippet, child)


def _too_deep(snippet: Snippet, node: Tree[Token], what: str, hint: str) -> EffectSyntaxError:
    return EffectSyntaxError(f"the code is nested too deeply: {what} (the limit)",
                             snippet.locate(*_line_column(node)), hint)


def _check_number(snippet: Snippet, token: Token) -> None:
    digits = str(token).lstrip("0")
    if len(digits) > len(str(MAX_INT)) or (digits and int(digits) > MAX_INT):
        shown = str(token) if len(token) <= 24 else f"{token[:20]}... ({len(token)} digits)"
        raise EffectSyntaxError(f"the number {shown} is too large; numbers lie within "
                                f"±{MAX_INT:,} (±2^63 - 1)",
                                snippet.locate(*_line_column(token)))


def _line_column(item: Tree[Token] | Token) -> tuple[int, int]:
    where = item if isinstance(item, Token) else item.meta
    return getattr(where, "line", 1) or 1, getattr(where, "column", 1) or 1


def _pos(meta_or_token: Any) -> n.Pos:
    if type(meta_or_token) is n.Pos:  # made by larkfast
        return meta_or_token
    return n.Pos(getattr(meta_or_token, "line", 1) or 1, getattr(meta_or_token, "column", 1) or 1)


_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "'": "'", "\\": "\\"}


def _unquote(token: Token) -> str:
    body = str(token)[1:-1]
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(1)), body)


@v_args(meta=True)
class _ToAst(Transformer[Token, Any]):
    """Turns lark's parse tree into nodes; keeps positions."""

    def __init__(self, snippet: Snippet) -> None:
        super().__init__()
        self.snippet = snippet

    def build(self, name: str, pos: n.Pos, children: list[Any]) -> Any:
        """The node of the rule ``name`` (for :mod:`rulekit.lang.larkfast`)."""
        if name == "number":
            _check_number(self.snippet, children[0])
        return _MAKERS[name](self, pos, children)

    # -- statements
    def start(self, meta: Any, children: list[Any]) -> list[n.Stmt]:
        return [c for c in children if c is not None]

    def block(self, meta: Any, children: list[Any]) -> list[n.Stmt]:
        return [c for c in children if c is not None]

    def empty_stmt(self, meta: Any, children: list[Any]) -> None:
        return None

    def let_stmt(self, meta: Any, children: list[Any]) -> n.Let:
        return n.Let(_pos(meta), str(children[0]), children[1])

    def assign_stmt(self, meta: Any, children: list[Any]) -> n.Assign:
        (name, index), op, value = children
        return n.Assign(_pos(meta), name, index, str(op), value)

    def target(self, meta: Any, children: list[Any]) -> tuple[str, n.Expr | None]:
        return str(children[0]), (children[1] if len(children) > 1 else None)

    def if_stmt(self, meta: Any, children: list[Any]) -> n.If:
        branches = [(children[0], children[1])]
        otherwise = None
        for extra in children[2:]:
            if extra[0] == "elif":
                branches.append((extra[1], extra[2]))
            else:
                otherwise = extra[1]
        return n.If(_pos(meta), branches, otherwise)

    def elif_clause(self, meta: Any, children: list[Any]) -> tuple[str, n.Expr, list[n.Stmt]]:
        return ("elif", children[0], children[1])

    def else_clause(self, meta: Any, children: list[Any]) -> tuple[str, list[n.Stmt]]:
        return ("else", children[0])

    def for_stmt(self, meta: Any, children: list[Any]) -> n.For:
        return n.For(_pos(meta), str(children[0]), children[1], children[2])

    def while_stmt(self, meta: Any, children: list[Any]) -> n.While:
        return n.While(_pos(meta), children[0], children[1])

    def repeat_stmt(self, meta: Any, children: list[Any]) -> n.Repeat:
        return n.Repeat(_pos(meta), children[0], children[1])

    def move_stmt(self, meta: Any, children: list[Any]) -> n.Move:
        items = list(children)
        to_bottom = False
        if isinstance(items[-1], Token) and items[-1].type in ("TOP", "BOTTOM"):
            to_bottom = items.pop().type == "BOTTOM"
        cards = None if isinstance(items[0], Token) and items[0].type == "ALL" else items[0]
        return n.Move(_pos(meta), cards, items[1], items[2], to_bottom)

    def draw_stmt(self, meta: Any, children: list[Any]) -> n.Draw:
        return n.Draw(_pos(meta), children[0], children[1], children[2])

    def shuffle_stmt(self, meta: Any, children: list[Any]) -> n.Shuffle:
        return n.Shuffle(_pos(meta), children[0])

    def call_stmt(self, meta: Any, children: list[Any]) -> n.CallStmt:
        args = children[1] if len(children) > 1 else []
        return n.CallStmt(_pos(meta), str(children[0]), args)

    def simultaneous_stmt(self, meta: Any, children: list[Any]) -> n.Simultaneous:
        return n.Simultaneous(_pos(meta), list(children))

    def choice_binding(self, meta: Any, children: list[Any]) -> n.Let:
        return n.Let(_pos(meta), str(children[0]), children[1])

    def win_stmt(self, meta: Any, children: list[Any]) -> n.Win:
        reason = _unquote(children[1]) if len(children) > 1 else None
        return n.Win(_pos(meta), children[0], reason)

    def log_stmt(self, meta: Any, children: list[Any]) -> n.Log:
        token: Token = children[0]
        parts = self._log_parts(token)
        return n.Log(_pos(meta), parts, children[1] if len(children) > 1 else None)

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
                        "unclosed '{' in log text", self.snippet.locate(line, col0 + i),
                        "write '{{' for a literal brace",
                    )
                if text:
                    parts.append(_unescape(text))
                    text = ""
                inner = raw[i + 1 : end]
                padded = "\n" * (line - 1) + " " * (col0 + i) + inner
                sub = Snippet(padded, self.snippet.locate)
                parts.append(parse_expression(sub))
                i = end + 1
            else:
                text += ch
                i += 1
        if text:
            parts.append(_unescape(text))
        return parts

    def break_stmt(self, meta: Any, children: list[Any]) -> n.Break:
        return n.Break(_pos(meta))

    def continue_stmt(self, meta: Any, children: list[Any]) -> n.Continue:
        return n.Continue(_pos(meta))

    def return_stmt(self, meta: Any, children: list[Any]) -> n.Return:
        return n.Return(_pos(meta))

    def end_round_stmt(self, meta: Any, children: list[Any]) -> n.EndRound:
        return n.EndRound(_pos(meta))

    def pass_stmt(self, meta: Any, children: list[Any]) -> n.Pass:
        return n.Pass(_pos(meta))

    # -- choices
    def choice(self, meta: Any, children: list[Any]) -> n.Choice:
        player, kind, source, *rest = children
        choice = n.Choice(_pos(meta), player, str(kind), source)
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

    def choice_kind(self, meta: Any, children: list[Any]) -> str:
        return str(children[0])

    def opt_where(self, meta: Any, children: list[Any]) -> tuple[Any, ...]:
        return ("where", *children)

    def opt_min(self, meta: Any, children: list[Any]) -> tuple[Any, ...]:
        return ("min", *children)

    def opt_max(self, meta: Any, children: list[Any]) -> tuple[Any, ...]:
        return ("max", *children)

    def opt_at_most(self, meta: Any, children: list[Any]) -> tuple[str, Any]:
        reason = children[2] if len(children) > 2 else None
        return ("at_most", n.AtMost(_pos(meta), children[0], children[1], reason))

    def reason(self, meta: Any, children: list[Any]) -> n.Log:
        token: Token = children[0]
        return n.Log(_pos(token), self._log_parts(token), None)

    def opt_optional(self, meta: Any, children: list[Any]) -> tuple[str, Any]:
        return ("optional", True)

    def opt_as(self, meta: Any, children: list[Any]) -> tuple[str, Any]:
        return ("as", str(children[0]))

    def opt_label(self, meta: Any, children: list[Any]) -> tuple[str, n.Log]:
        return ("label", self.reason(meta, children))

    def opt_prompt(self, meta: Any, children: list[Any]) -> tuple[str, Any]:
        return ("prompt", _unquote(children[0]))

    # -- expressions
    def or_op(self, meta: Any, children: list[Any]) -> n.Binary:
        return n.Binary(_pos(meta), "or", children[0], children[1])

    def and_op(self, meta: Any, children: list[Any]) -> n.Binary:
        return n.Binary(_pos(meta), "and", children[0], children[1])

    def not_op(self, meta: Any, children: list[Any]) -> n.Unary:
        return n.Unary(_pos(meta), "not", children[0])

    def compare(self, meta: Any, children: list[Any]) -> n.Binary:
        return n.Binary(_pos(meta), children[1], children[0], children[2])

    def comp_op(self, meta: Any, children: list[Any]) -> str:
        return " ".join(str(c) for c in children)

    def binop(self, meta: Any, children: list[Any]) -> n.Binary:
        return n.Binary(_pos(meta), str(children[1]), children[0], children[2])

    def neg(self, meta: Any, children: list[Any]) -> n.Unary:
        return n.Unary(_pos(meta), "-", children[0])

    def attr(self, meta: Any, children: list[Any]) -> n.Attr:
        return n.Attr(_pos(meta), children[0], str(children[1]))

    def index(self, meta: Any, children: list[Any]) -> n.Index:
        return n.Index(_pos(meta), children[0], children[1])

    def call(self, meta: Any, children: list[Any]) -> n.Call:
        args = children[1] if len(children) > 1 else []
        return n.Call(_pos(meta), str(children[0]), args)

    def args(self, meta: Any, children: list[Any]) -> list[n.Expr]:
        return list(children)

    def number(self, meta: Any, children: list[Any]) -> n.Literal:
        return n.Literal(_pos(meta), int(children[0]))

    def string(self, meta: Any, children: list[Any]) -> n.Literal:
        return n.Literal(_pos(meta), _unquote(children[0]))

    def true(self, meta: Any, children: list[Any]) -> n.Literal:
        return n.Literal(_pos(meta), True)

    def false(self, meta: Any, children: list[Any]) -> n.Literal:
        return n.Literal(_pos(meta), False)

    def none(self, meta: Any, children: list[Any]) -> n.Literal:
        return n.Literal(_pos(meta), None)

    def card(self, meta: Any, children: list[Any]) -> n.CardLit:
        return n.CardLit(_pos(meta), str(children[0])[1:])

    def name(self, meta: Any, children: list[Any]) -> n.Name:
        return n.Name(_pos(meta), str(children[0]))

    def list_lit(self, meta: Any, children: list[Any]) -> n.ListLit:
        return n.ListLit(_pos(meta), [c for c in children if c is not None])

    def comprehension(self, meta: Any, children: list[Any]) -> n.Comprehension:
        cond = children[3] if len(children) > 3 else None
        return n.Comprehension(_pos(meta), children[0], str(children[1]), children[2], cond)

    def expr_start(self, meta: Any, children: list[Any]) -> n.Expr:
        result: n.Expr = children[0]
        return result


# the node makers of _ToAst as plain functions (a method wrapped by v_args is made again at
# each use)
_MAKERS: dict[str, Any] = {name: getattr(made, "base_func", made)
                           for name, made in vars(_ToAst).items() if not name.startswith("_")}


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(1)), text)
