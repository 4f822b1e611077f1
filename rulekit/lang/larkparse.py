"""Effect-language text to syntax tree with lark: the grammar's LALR parser, and the
transformer from lark's parse tree to :mod:`rulekit.lang.nodes`.

Used by :mod:`rulekit.lang.parser` for a text it has not parsed before. The lark parser is made
once per process, from the tables shipped with rulekit (:mod:`rulekit.lang.larkbuild`). Syntax
errors become :class:`~rulekit.errors.EffectSyntaxError` located through the snippet's
``locate`` function.
"""

from __future__ import annotations

import logging
from functools import cache
from typing import Any

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedInput

from rulekit.errors import EffectSyntaxError
from rulekit.lang.larkbuild import lalr_parser
from rulekit.lang.nodemaker import MAKERS, NodeMaker
from rulekit.lang.parser import Snippet
from rulekit.lang.syntaxhints import syntax_error
from rulekit.limits import MAX_BLOCK_NESTING, MAX_CODE_NESTING, MAX_INT

# lark reports a cache file it could not read (say, one another process is still writing) on
# its logger, then builds the tables itself; that note is for lark's developers, not ours.
logging.getLogger("lark").addHandler(logging.NullHandler())


@cache
def _lark() -> Lark:
    return lalr_parser()


def parse(snippet: Snippet, start: str) -> Any:
    """The syntax tree of ``snippet`` by the grammar's rule ``start`` (``start``: statements,
    ``expr_start``: one expression)."""
    return _transform(snippet, _parse(snippet, start))


def _transform(snippet: Snippet, tree: Tree[Token]) -> Any:
    """The nodes of lark's parse tree (whose nesting is checked: the walk may recurse)."""
    maker = NodeMaker(snippet)

    def node(item: Any) -> Any:
        if isinstance(item, Tree):
            return MAKERS[item.data](maker, item.meta, [node(c) for c in item.children])
        return item

    return node(tree)


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
