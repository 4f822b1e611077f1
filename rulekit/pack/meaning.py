"""What a pack file means to ``rulekit validate``: its data, how each value is written (but
where), and its effect code token by token, without comments or the width of spaces.

Two versions of a file with the same meaning differ only in where things are: comments, blank
lines, the indentation of a block, spaces between the tokens of code. Every check of a pack
reads the data and the syntax trees of its code, not where they are written; places only
locate what the checks find. So a pack validated free of errors, whose files are then edited
keeping their meanings, is free of errors still, with the same warnings, but for where those
in the edited files are (:mod:`rulekit.pack.cache` uses this only when there are none there).

A value read as effect code (the loader marks it: ``YamlDocument.code_paths``) is compared by
its tokens: the language ignores spaces, tabs, line breaks and ``#`` comments between tokens
(``grammar.lark``: ``%ignore WS``, ``%ignore COMMENT``), and no token spans a line break, so
two texts whose tokens and separations are the same parse into the same tree but for its
positions. A text whose tokens this cannot tell (a quote never closed) is compared whole.
"""

from __future__ import annotations

import json
import re
from typing import Any

from rulekit.stored import sha256
from rulekit.yamlsource import JsonPath, YamlDocument

# In a text of the effect language: what the lexer ignores (runs of lark's common WS and of
# COMMENTs), a STRING, a CARD (whose '#' is no comment), and a quote that opens no STRING;
# anything else is kept as written.
_PIECE = re.compile(r"""(?:[ \t\f\r\n]+|\#[^\n]*)+"""
                    r"""|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'"""
                    r"""|@[A-Za-z_][A-Za-z0-9_]*(?:\#[0-9]+)?|["']""")
_CODE = "\0code"  # what stands for a value read as code, in the data compared


class _NoString(Exception):
    """A quote opens no string."""


def _piece(match: re.Match[str]) -> str:
    piece = match.group()
    if piece[0] in " \t\f\r\n#":
        return " "
    if piece in ('"', "'"):
        raise _NoString
    return piece


def code_tokens(text: str) -> str | None:
    """``text`` with each run of spaces, line breaks and comments made one space (none at the
    ends); None if a quote opens no string (its tokens are not clear)."""
    try:
        return _PIECE.sub(_piece, text).strip(" ")
    except _NoString:
        return None


def meaning(doc: YamlDocument) -> str:
    """A digest of what ``doc`` means to validation (see the module's documentation)."""
    data = doc.data
    code: list[tuple[str, str | None]] = []
    marked: set[JsonPath] = set()
    for path in doc.code_paths:
        value = _at(data, path)
        if isinstance(value, str):
            data = _replaced(data, path)
            marked.add(path)
            tokens = code_tokens(value)
            code.append((json.dumps(path), tokens if tokens is not None else "\0" + value))
    code.sort()
    shapes = [(path, kind, style, None if path in marked else raw, keyed)
              for path, kind, style, raw, keyed in doc.shapes()]
    text = json.dumps([doc.display_name, doc.schema, data, shapes, code])
    return sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _at(data: Any, path: JsonPath) -> Any:
    """The value at ``path``, or None."""
    for key in path:
        found = (isinstance(data, dict) and isinstance(key, str) and key in data) or (
            isinstance(data, list) and isinstance(key, int) and 0 <= key < len(data))
        if not found:
            return None
        data = data[key]
    return data


def _replaced(data: Any, path: JsonPath) -> Any:
    """``data`` with the value at ``path`` replaced by the mark of code (containers on the way
    copied, the rest shared)."""
    if not path:
        return _CODE
    copy: Any = dict(data) if isinstance(data, dict) else list(data)
    copy[path[0]] = _replaced(data[path[0]], path[1:])
    return copy
