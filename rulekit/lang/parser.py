"""Parse effect-language text into the syntax tree of :mod:`rulekit.lang.nodes`."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedInput
from lark.lark import PostLex

from rulekit.errors import EffectSyntaxError, Location
from rulekit.lang import nodes as n
from rulekit.lang.nodemaker import NodeMaker, pos_of
from rulekit.lang.syntaxhints import syntax_error
from rulekit.lang.walk import every_node
from rulekit.limits import (
    MAX_BLOCK_NESTING,
    MAX_CODE_CHARS,
    MAX_CODE_NESTING,
    MAX_INT,
    MAX_TEXT_CHARS,
)
from rulekit.source.datafiles import cache_dir
from rulekit.source.snippet import Snippet


def grammar_text() -> str:
    """The text of the effect language's lark grammar."""
    return Path(__file__).with_name("grammar.lark").read_text("utf-8")


# Words of the language; they cannot name variables, zones, procedures or parameters.
KEYWORDS = frozenset(re.findall(r'"([a-z_]+)"', grammar_text()))


def parse_block(snippet: Snippet) -> list[n.Stmt]:
    """Parse a sequence of statements."""
    statements = _parse(snippet, "start")
    assert isinstance(statements, list)
    return statements


def parse_expression(snippet: Snippet) -> n.Expr:
    """Parse one expression."""
    expression = _parse(snippet, "expr_start")
    assert isinstance(expression, n.Expr)
    return expression


class InlineIf(PostLex):
    """Makes an ``if`` on the line of a value before it the ``if`` of a conditional."""

    def process(self, stream: Iterator[Token]) -> Iterator[Token]:
        before: Token | None = None
        for token in stream:
            if token.type == "IF" and before is not None and before.type in _VALUE_ENDS \
                    and before.end_line == token.line:
                token = Token.new_borrow_pos("INLINE_IF", token, token)
            before = token
            yield token


# The tokens a value may end with.
_VALUE_ENDS = frozenset({"NAME", "NUMBER", "STRING", "CARD", "RPAR", "RSQB", "TRUE", "FALSE",
                         "NONE"})


@cache
def _lark() -> Lark:
    """The grammar's LALR parser, built at its first use and cached by lark."""
    return Lark(grammar_text(), parser="lalr", start=["start", "expr_start"],
                propagate_positions=True, maybe_placeholders=False, cache=_cache_file(),
                postlex=InlineIf())


def _cache_file() -> str | bool:
    """Where lark keeps the built parser; False when caching is off or impossible."""
    folder = cache_dir()
    if folder is None:
        return False
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    # Named by the grammar's digest: installs of other grammars may share the folder.
    digest = hashlib.sha256(grammar_text().encode()).hexdigest()[:12]
    return str(folder / f"parser-{digest}.lark")


def _parse(snippet: Snippet, start: str) -> object:
    """The nodes of ``snippet`` by the grammar's rule ``start``."""
    if len(snippet.text) > MAX_CODE_CHARS:
        raise EffectSyntaxError(f"this code is {len(snippet.text):,} characters long; the limit "
                                f"is {MAX_CODE_CHARS:,}", snippet.locate(1, 1),
                                "split it into procedures or functions")
    try:
        tree = _lark().parse(snippet.text, start=start)
    except UnexpectedInput as exc:
        raise syntax_error(snippet.text, exc, snippet.locate) from None
    _check_limits(snippet, tree)

    def expression(text: str, line: int, column: int) -> n.Expr:
        def locate(at_line: int, at_column: int) -> Location:
            return snippet.locate(*_shifted(at_line, at_column, line, column))

        field = parse_expression(Snippet(text, locate))
        for node in every_node(field):
            node.pos = n.Pos(*_shifted(node.pos.line, node.pos.column, line, column))
        return field

    return NodeMaker(snippet.locate, expression).make(tree)


def _shifted(line: int, column: int, at_line: int, at_column: int) -> tuple[int, int]:
    """A place in a log text's field (after ``at_line``, ``at_column``) in the whole text."""
    return at_line + line - 1, column + at_column if line == 1 else column


def _check_limits(snippet: Snippet, tree: Tree[Token]) -> None:
    """Refuse code nested too deep, numbers too large and texts too long."""
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
            elif child.type == "NUMBER":
                _check_number(snippet, child)
            elif child.type == "STRING" and len(child) - 2 > MAX_TEXT_CHARS:
                raise EffectSyntaxError(
                    f"this text is too long ({len(child) - 2:,} characters): texts hold at "
                    f"most {MAX_TEXT_CHARS:,}", snippet.location(pos_of(child)),
                    "split it into several texts")


def _too_deep(snippet: Snippet, node: Tree[Token], what: str, hint: str) -> EffectSyntaxError:
    return EffectSyntaxError(f"the code is nested too deeply: {what} (the limit)",
                             snippet.location(pos_of(node.meta)), hint)


def _check_number(snippet: Snippet, token: Token) -> None:
    digits = str(token).lstrip("0")
    if len(digits) > len(str(MAX_INT)) or (digits and int(digits) > MAX_INT):
        shown = str(token) if len(token) <= 24 else f"{token[:20]}... ({len(token)} digits)"
        raise EffectSyntaxError(f"the number {shown} is too large; numbers lie within "
                                f"±{MAX_INT:,} (±2^63 - 1)",
                                snippet.location(pos_of(token)))
