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

*Numbers left out* (``meaning(doc, numbers=True)``), the meaning is also blind to the numbers
that validation reads only in a few known places (see :mod:`rulekit.pack.edits`): the numbers
of effect code (a ``NUMBER`` token: its value is read by no check but the evaluation of the end
conditions; the checker reads its type) and the *number slots* of data
(:func:`number_slots`): a number given as a property of a card, node, edge or region (but
under the keys rulekit reads by name), and a parameter's ``default``. Each is left out for its
type (an integer, or a number with a fraction): two files that mean the same, numbers left out,
differ only in those values.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

from rulekit.limits import MAX_INT
from rulekit.source.store import sha256

if TYPE_CHECKING:
    from rulekit.source.document import JsonPath, YamlDocument

# In a text of the effect language: what the lexer ignores (runs of lark's common WS and of
# COMMENTs), a STRING, a CARD (whose '#' is no comment), and a quote that opens no STRING;
# anything else is kept as written. With a NUMBER (digits that do not go on a NAME), to find
# the numbers; and in a text so made, to leave them out, what holds digits but a NUMBER.
_STRING_OR_CARD = (r"""|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'"""
                   r"""|@[A-Za-z_][A-Za-z0-9_]*(?:\#[0-9]+)?""")
_NUMBER_TOKEN = r"|(?<![A-Za-z0-9_])[0-9]+"
_PIECE = re.compile(r"(?:[ \t\f\r\n]+|\#[^\n]*)+" + _STRING_OR_CARD + r"""|["']""")
_PIECE_OR_NUMBER = re.compile(_PIECE.pattern + _NUMBER_TOKEN)
_IN_TOKENS = re.compile(_STRING_OR_CARD[1:] + _NUMBER_TOKEN)
_CODE = "\0code"  # what stands for a value read as code, in the data compared
_NUMBER = "\0"  # what stands for a number of code, numbers left out
# The keys of a component whose values rulekit reads by name (never a number slot).
_NAMED_KEYS = frozenset({"id", "name", "copies", "type", "owner", "region", "from", "to",
                         "before", "after"})
_COMPONENTS: tuple[JsonPath, ...] = (("cards",), ("map", "nodes"), ("map", "edges"),
                                     ("map", "regions"))


class _NoString(Exception):
    """A quote opens no string."""


class _TooLarge(Exception):
    """A number of code is larger than a number may be."""


def _piece(match: re.Match[str]) -> str:
    piece = match.group()
    if piece[0] in " \t\f\r\n#":
        return " "
    if piece in ('"', "'"):
        raise _NoString
    return piece


def _number(match: re.Match[str]) -> str:
    piece = match.group()
    if not piece[0].isdigit():
        return piece
    if len(piece.lstrip("0")) > len(str(MAX_INT)) or int(piece) > MAX_INT:
        raise _TooLarge  # an error of the parser, which validation must report
    return _NUMBER


def code_tokens(text: str, numbers: bool = False) -> str | None:
    """``text`` with each run of spaces, line breaks and comments made one space (none at the
    ends), and with ``numbers``, each number made ``\\0``; None if a quote opens no string
    (its tokens are not clear) or, with ``numbers``, a number is too large."""
    try:
        tokens = _PIECE.sub(_piece, text).strip(" ")
        return _IN_TOKENS.sub(_number, tokens) if numbers else tokens
    except (_NoString, _TooLarge):
        return None


def code_numbers(text: str) -> list[tuple[int, str]]:
    """The offset and digits of each number of code ``text`` (none if a quote opens no
    string: its tokens are not clear)."""
    found = []
    for match in _PIECE_OR_NUMBER.finditer(text):
        piece = match.group()
        if piece in ('"', "'"):
            return []
        if piece[0].isdigit():
            found.append((match.start(), piece))
    return found


def number_slots(doc: YamlDocument) -> list[JsonPath]:
    """The paths of the numbers of ``doc`` (by its schema) that only a few known checks read:
    the properties of components but those read by name, and the defaults of parameters."""
    return slots_of(doc.data, doc.schema)


def slots_of(data: Any, schema: str) -> list[JsonPath]:
    """The number slots of ``data``, a document of the schema ``schema`` (``pack``:
    a manifest; ``content``: sections, of one file or merged)."""
    found: list[JsonPath] = []
    if not isinstance(data, dict):
        return found
    if schema == "pack" and isinstance(data.get("parameters"), dict):
        found += [("parameters", name, "default") for name, spec in data["parameters"].items()
                  if isinstance(spec, dict) and _is_number(spec.get("default"))]
    elif schema == "content":
        for section in _COMPONENTS:
            items = value_at(data, section)
            for i, item in enumerate(items if isinstance(items, list) else []):
                if isinstance(item, dict):
                    found += [(*section, i, key) for key, value in item.items()
                              if key not in _NAMED_KEYS and _is_number(value)]
    return found


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def meaning(doc: YamlDocument, numbers: bool = False) -> str | None:
    """A digest of what ``doc`` means to validation (see the module's documentation); with
    ``numbers``, numbers left out (None if a number of its code is too large)."""
    return meanings(doc)[numbers]


def meanings(doc: YamlDocument) -> tuple[str, str | None]:
    """What ``doc`` means, as :func:`meaning` says it without numbers left out and with."""
    data = doc.data
    code: list[tuple[str, str, str | None]] = []
    marked: set[JsonPath] = set()
    for path in doc.code_paths:
        value = value_at(data, path)
        if isinstance(value, str):
            data = _replaced(data, path, _CODE)
            marked.add(path)
            tokens = code_tokens(value)
            blind = _blind(tokens) if tokens is not None else None
            code.append((json.dumps(path), tokens if tokens is not None else "\0" + value,
                         blind if tokens is not None else "\0" + value))
    code.sort()
    shapes = doc.shapes()
    exact = _digest(doc, data, shapes, marked, [(at, tokens) for at, tokens, _ in code], False)
    if any(blind is None for _, _, blind in code):
        return exact, None  # a number too large
    slots = number_slots(doc)
    blind = _digest(doc, numbers_left_out(data, slots), shapes, marked | set(slots),
                    [(at, tokens) for at, _, tokens in code], True)
    return exact, blind


def _blind(tokens: str) -> str | None:
    """The tokens of code (as :func:`code_tokens` made them) with each number made ``\\0``;
    None if one is too large."""
    try:
        return _IN_TOKENS.sub(_number, tokens)
    except _TooLarge:
        return None


def _digest(doc: YamlDocument, data: Any, shapes: list[tuple[JsonPath, str, str, str | None,
                                                              bool]],
            marked: set[JsonPath], code: list[tuple[str, str | None]], numbers: bool) -> str:
    shown = [(path, kind, style, None if path in marked else raw, keyed)
             for path, kind, style, raw, keyed in shapes]
    text = json.dumps([doc.display_name, doc.schema, data, shown, code, numbers])
    return sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def numbers_left_out(data: Any, slots: list[JsonPath]) -> Any:
    """``data`` with the number at each of ``slots`` replaced by its type (containers on the
    way copied, the rest shared)."""
    for path in slots:
        data = _replaced(data, path, "\0" + type(value_at(data, path)).__name__)
    return data


def value_at(data: Any, path: JsonPath) -> Any:
    """The value at ``path``, or None."""
    for key in path:
        found = (isinstance(data, dict) and isinstance(key, str) and key in data) or (
            isinstance(data, list) and isinstance(key, int) and 0 <= key < len(data))
        if not found:
            return None
        data = data[key]
    return data


def _replaced(data: Any, path: JsonPath, mark: str) -> Any:
    """``data`` with the value at ``path`` replaced by ``mark`` (containers on the way copied,
    the rest shared)."""
    if not path:
        return mark
    copy: Any = dict(data) if isinstance(data, dict) else list(data)
    copy[path[0]] = _replaced(data[path[0]], path[1:], mark)
    return copy
