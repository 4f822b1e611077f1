"""Parse effect-language text into the syntax tree of :mod:`rulekit.lang.nodes`.

Syntax errors become :class:`~rulekit.errors.EffectSyntaxError` located in the pack file through
the snippet's ``locate`` function.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulekit.errors import Location
from rulekit.lang import nodes as n


@dataclass(frozen=True)
class Snippet:
    """A piece of effect text and how to find its positions in the pack file."""

    text: str
    locate: Callable[[int, int], Location]

    def location(self, pos: n.Pos) -> Location:
        return self.locate(pos.line, pos.column)


def plain_snippet(text: str, file: str = "<text>") -> Snippet:
    """A snippet whose positions are those of ``text`` itself (for tests and the REPL)."""
    lines = text.splitlines() or [""]

    def locate(line: int, column: int) -> Location:
        src = lines[line - 1] if 0 < line <= len(lines) else None
        return Location(file, line, column, src)

    return Snippet(text, locate)


def grammar_text() -> str:
    """The text of the effect language's lark grammar (read next to this module, without
    importlib.resources, whose import took longer than the rest of this module's)."""
    return Path(__file__).with_name("grammar.lark").read_text("utf-8")


# Words of the language; they cannot name variables, zones, procedures or parameters.
KEYWORDS = frozenset(re.findall(r'"([a-z_]+)"', grammar_text()))


def parse_block(snippet: Snippet) -> list[n.Stmt]:
    """Parse a sequence of statements."""
    result: list[n.Stmt] = _parse(snippet, "start")
    return result


def parse_expression(snippet: Snippet) -> n.Expr:
    """Parse one expression."""
    result: n.Expr = _parse(snippet, "expr_start")
    return result


def _parse(snippet: Snippet, start: str) -> Any:
    """Parse by the shipped tables without lark (:mod:`~rulekit.lang.larkfast`), else (a
    mistake, code nested near the limits) with lark, which says what and where the mistake is
    (:mod:`~rulekit.lang.larkparse`, imported only then)."""
    from rulekit.lang.larkfast import fast_parse

    found = fast_parse(snippet, start)
    if found is None:
        from rulekit.lang.larkparse import parse

        found = parse(snippet, start)
    return found
