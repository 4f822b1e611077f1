"""Edits of the digits of numbers, told from a file's text alone (no YAML parser).

When a pack is validated, each of its files keeps the places of its *plain numbers*: the
number slots of its data (:func:`rulekit.pack.meaning.number_slots`) written as plain decimal
integers (``score: 12``), and the numbers of its effect code written in literal blocks
(``do: |``). Each place is kept only when the file's text there is exactly the number, and
no other value of the file is written at that place (no anchor or alias shares it), in a file
with no line breaks but ``\\n``. A text equal to the kept one everywhere but in those places,
which hold numbers again (a decimal integer in data, digits in code), is the same YAML with
those numbers changed, and nothing else: a plain scalar's digits are no YAML syntax, and a
literal block's lines are its value's lines, indentation removed. :func:`reread` tells which.
"""

from __future__ import annotations

import re
from itertools import pairwise
from typing import TYPE_CHECKING, Any

from rulekit.limits import MAX_INT
from rulekit.source.store import sha256

if TYPE_CHECKING:
    from rulekit.source.document import YamlDocument

_DECIMAL = re.compile(r"0|-?[1-9][0-9]*")
_DIGITS = re.compile(r"[0-9]+")
_OTHER_BREAKS = ("\x85", "\u2028", "\u2029", "\r")


def _blank(text: str, places: list[tuple[int, int]]) -> str:
    """A digest of ``text`` with each place (start, end) left out."""
    digest = sha256()
    at = 0
    for start, end in places:
        digest.update(text[at:start].encode("utf-8", "surrogatepass") + b"\0")
        at = end
    digest.update(text[at:].encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def places(doc: YamlDocument) -> dict[str, Any] | None:
    """The plain numbers of ``doc``: ``places`` (start and end in its text, the path of the
    value, in code the offset of the number in the value (-1 in data), and its digits) and
    ``blank`` (a digest of the text without them); None if it has none, or line breaks but
    ``\\n``."""
    from rulekit.pack.meaning import code_numbers, number_slots, value_at

    text = doc.text
    if any(mark in text for mark in _OTHER_BREAKS):
        return None
    starts = [0]
    for written in text.split("\n"):
        starts.append(starts[-1] + len(written) + 1)
    shared: dict[tuple[int, int], int] = {}
    for _, node in doc.nodes():
        key = (node.line, node.column)
        shared[key] = shared.get(key, 0) + 1
    found: list[list[Any]] = []
    for path in number_slots(doc):
        info = doc.node(path)
        value = value_at(doc.data, path)
        if info is None or info.kind != "scalar" or info.style or info.raw is None \
                or shared[(info.line, info.column)] > 1 or not isinstance(value, int) \
                or not _DECIMAL.fullmatch(info.raw) or int(info.raw) != value:
            continue
        start = starts[info.line] + info.column
        if text[start:start + len(info.raw)] == info.raw:
            found.append([start, start + len(info.raw), list(path), -1, info.raw])
    for path in doc.code_paths:
        info = doc.node(path)
        value = value_at(doc.data, path)
        if info is None or info.style != "|" or not isinstance(value, str) \
                or shared[(info.line, info.column)] > 1:
            continue
        base = doc.text_location(path, 1, 1)  # (a literal block: line k, column c on the
        for offset, digits in code_numbers(value):  # k-1th line after, c-1 columns on)
            line = value.count("\n", 0, offset)
            column = offset - (value.rfind("\n", 0, offset) + 1)
            if base.line - 1 + line >= len(starts):
                break
            start = starts[base.line - 1 + line] + base.column - 1 + column
            if text[start:start + len(digits)] == digits:
                found.append([start, start + len(digits), list(path), offset, digits])
    found.sort()
    if not found or any(a[1] > b[0] for a, b in pairwise(found)):
        return None
    return {"places": found, "blank": _blank(text, [(a[0], a[1]) for a in found])}


def reread(text: str, kept: dict[str, Any]) -> list[str] | None:
    """The digits of each number of ``text`` at the places ``kept`` (as :func:`places` made
    it) says; None if ``text`` differs from the text it was made from elsewhere too, or holds
    a number too large."""
    found: list[str] = []
    spans: list[tuple[int, int]] = []
    old_at = new_at = 0
    for start, end, _, offset, _ in kept["places"]:
        new_at += start - old_at
        match = (_DIGITS if offset >= 0 else _DECIMAL).match(text, new_at)
        if match is None:
            return None
        digits = match.group()
        if len(digits.lstrip("-0")) > len(str(MAX_INT)) or abs(int(digits)) > MAX_INT:
            return None
        spans.append((new_at, match.end()))
        found.append(digits)
        old_at, new_at = end, match.end()
    if _blank(text, spans) != kept["blank"]:
        return None
    return found


def renumbered(kept: dict[str, Any], data: Any, digits: list[str]) -> dict[str, Any]:
    """The places of the text whose numbers are ``digits`` (found by :func:`reread`), and
    ``data`` (the file's data when ``kept`` was made: changed in place) with those numbers."""
    shift = 0
    places = []
    code: dict[tuple[Any, ...], list[tuple[int, int, str]]] = {}
    for (start, end, path, offset, old), new in zip(kept["places"], digits, strict=True):
        places.append([start + shift, start + shift + len(new), path, offset, new])
        shift += len(new) - (end - start)
        if offset < 0:
            _set(data, path, int(new))
        else:
            code.setdefault(tuple(path), []).append((offset, offset + len(old), new))
    for path, numbers in code.items():
        value = _get(data, path)
        pieces, at = [], 0
        for begin, finish, new in numbers:
            pieces += [value[at:begin], new]
            at = finish
        _set(data, list(path), "".join(pieces) + value[at:])
    return {"places": places, "blank": kept["blank"]}


def _get(data: Any, path: Any) -> Any:
    for key in path:
        data = data[key]
    return data


def _set(data: Any, path: list[Any], value: Any) -> None:
    _get(data, path[:-1])[path[-1]] = value
