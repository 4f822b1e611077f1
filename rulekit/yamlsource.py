"""Load pack YAML files safely, keeping the file position of every value.

:func:`load_yaml` reads a file into a :class:`YamlDocument`: its plain Python values
(``dict``, ``list``, ``str``, ``int``, ``float``, ``bool``, ``None``) and where each value is,
by its JSON path (``("flow", "phases", 0, "do")``), so that later checks can point at the
exact line and column of a mistake, and so that the effect language can map positions
*inside* a string back to the file (:meth:`YamlDocument.text_location`). A text read before
is found in the store (:mod:`rulekit.stored`); a new one is parsed by :mod:`rulekit.yamlparse`
(PyYAML's composer, a ``SafeLoader``: no Python tags, no other non-standard tag either),
imported only then.

Decisions worth knowing:

* Mapping keys are always text: a key is the text of its scalar (``yes:`` is the key ``'yes'``,
  ``1:`` the key ``'1'``). A mapping or list used as a key is an error.
* Values follow the YAML 1.1 rules of ``SafeLoader`` (``yes``/``no``/``on``/``off`` are booleans,
  ``0x1F`` is an integer, ``~`` is null), except timestamps, which stay text.
* A key given twice in one mapping is a :class:`~rulekit.errors.DuplicateKeyError`. Anchors,
  aliases and merge keys (``<<: *base``) work; keys written next to ``<<`` override merged ones.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

from rulekit.errors import Location, PackFileError
from rulekit.limits import MAX_FILE_BYTES
from rulekit.stored import Store
from rulekit.textfiles import decode_text, too_big

__all__ = ["JsonPath", "YamlDocument", "decode_text", "is_stored", "load_yaml", "parse_yaml",
           "read_text"]

JsonPath = tuple[str | int, ...]
"""The path of a value in a document: mapping keys and list indexes, from the root."""

# PyYAML counts these as line breaks (after Python's universal newlines removed the '\r's).
_LINE_BREAK = re.compile("\n|\x85|\u2028|\u2029")

# Escapes of double-quoted YAML text followed by hexadecimal digits, and how many.
_HEX_ESCAPES = {"x": 2, "u": 4, "U": 8}



_Node = tuple[str, int, int, int, int, str, "str | None", "int | None", "int | None"]
"""Where a value sits, as kept: the fields of :class:`_NodeInfo`, in order (a plain tuple: made,
kept and read back from the store with no Python code run per value)."""


class _NodeInfo(NamedTuple):
    """Where a value sits in the text; lines and columns count from 0, as PyYAML's marks do:
    its kind ("scalar", "sequence" or "mapping"), line, column, end line and end column; for a
    scalar its style ('' plain, '|' literal, '>' folded, '"' or "'" quoted) and its text
    before tag resolution; for a mapping value, where its key starts. Made from a kept
    :data:`_Node` when a place is asked for."""

    kind: str
    line: int
    column: int
    end_line: int
    end_column: int
    style: str
    raw: str | None
    key_line: int | None
    key_column: int | None


class YamlDocument:
    """A loaded YAML file: its text, its data and the position of every value in it. Equal
    when the path, name, text and data are."""

    def __init__(self, path: Path, display_name: str, text: str, data: Any,
                 _nodes: dict[JsonPath, _Node] | None = None, origin: str = "") -> None:
        self.path = path
        self.display_name = display_name
        self.text = text
        self.data = data
        self._nodes: dict[JsonPath, _Node] = {} if _nodes is None else _nodes
        self.origin = origin  # "in the base pack ID" (see Location)
        self.schema = ""  # the schema it was checked against, if any
        # the paths of the values read as effect code (marked as their snippets are made)
        self.code_paths: set[JsonPath] = set()
        self._lines = _LINE_BREAK.split(text)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, YamlDocument) or type(other) is not type(self):
            return NotImplemented
        return (self.path, self.display_name, self.text, self.data) == (
            other.path, other.display_name, other.text, other.data)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"{type(self).__name__}(path={self.path!r}, display_name="
                f"{self.display_name!r}, text={self.text!r}, data={self.data!r})")

    # -- plain positions ------------------------------------------------------------------

    def source_line(self, line: int) -> str | None:
        """The text of file line ``line`` (1-based), or None past the end of the file."""
        if 1 <= line <= len(self._lines):
            return self._lines[line - 1]
        return None

    def has_path(self, path: Sequence[str | int]) -> bool:
        """Whether a value is recorded exactly at ``path``."""
        return tuple(path) in self._nodes

    def node(self, path: Sequence[str | int]) -> _NodeInfo | None:
        """Where the value at ``path`` sits, if one is recorded there."""
        found = self._nodes.get(tuple(path))
        return None if found is None else _NodeInfo._make(found)

    def nodes(self) -> list[tuple[JsonPath, _NodeInfo]]:
        """Where each value sits, by path, in the order of the file."""
        return [(path, _NodeInfo._make(found)) for path, found in self._nodes.items()]

    def location(self, path: Sequence[str | int]) -> Location:
        """Where the value at ``path`` starts; for an unknown path, its nearest known ancestor."""
        info = self._nearest(path)
        if info is None:
            return self._at(0, 0)
        return self._at(info.line, info.column)

    def key_location(self, path: Sequence[str | int]) -> Location:
        """Where the mapping key of the value at ``path`` starts.

        For a list item (no key) this is the item itself; for an unknown path, the nearest known
        ancestor's key (or value).
        """
        info = self._nearest(path)
        if info is None:
            return self._at(0, 0)
        if info.key_line is not None and info.key_column is not None:
            return self._at(info.key_line, info.key_column)
        return self._at(info.line, info.column)

    def scalar_origin(self, path: Sequence[str | int]) -> tuple[Location, str]:
        """Where the scalar at ``path`` starts and its YAML style.

        The style is ``''`` (plain), ``'|'`` (literal block), ``'>'`` (folded block), ``'"'`` or
        ``"'"``. For a path that is not a scalar, the location of the nearest known value and
        ``''``.
        """
        info = self.node(path)
        if info is None or info.kind != "scalar":
            return self.location(path), ""
        return self._at(info.line, info.column), info.style

    def raw_text(self, path: Sequence[str | int]) -> str | None:
        """The source text of the scalar at ``path`` (``'yes'`` for a value read as True)."""
        info = self.node(path)
        return None if info is None else info.raw

    def resolve(self, path: Sequence[str | int]) -> tuple[YamlDocument, JsonPath]:
        """The document the value at ``path`` comes from, and its path there: this one (a
        merged document answers the file each value came from)."""
        return self, tuple(path)

    def shapes(self) -> list[tuple[JsonPath, str, str, str | None, bool]]:
        """How each value is written, but where: its path, kind, style, source text (of a
        scalar) and whether it has a key, in the order of the file."""
        return [(path, info[0], info[5], info[6], info[7] is not None)
                for path, info in self._nodes.items()]

    # -- positions inside text values -----------------------------------------------------

    def text_location(self, path: Sequence[str | int], line: int, column: int) -> Location:
        """Map ``(line, column)`` (1-based) inside the string value at ``path`` to the file.

        Literal blocks (``|``, ``|-``, ``|+``) map exactly: value line ``k`` is the ``k``-th line
        after the ``|`` line, shifted by the block's indentation. Single-line plain and quoted
        scalars are shifted by the column where their text starts (escapes are ignored).
        Folded blocks and multi-line plain or quoted scalars are mapped through YAML's line
        folding when it can be replayed, approximately otherwise.
        """
        info = self.node(path)
        if info is None or info.kind != "scalar" or info.raw is None:
            return self.location(path)
        line, column = max(line, 1), max(column, 1)
        value = info.raw
        if info.style == "|":
            return self._literal_location(info, value, line, column)
        if info.style == ">":
            header = self._header_line(info, ">")
            positions = self._folded_positions(info, value, header)
            if positions is None:
                return self._approximate(header + 1, value, line, column, None)
            return self._from_positions(positions, value, line, column, (header + 1, 0))
        start = self._value_start(info)
        if info.style in ('"', "'"):
            quoted = self._quoted_positions(info, value, start)
            if quoted is not None:
                return self._from_positions(quoted, value, line, column, (info.line, start))
        if info.line == info.end_line:
            # One line of text: shift by where the value starts (ignoring escapes).
            offset = _offset(value, line, column)
            return self._at(info.line, start + offset)
        positions = self._flow_positions(info, value, start)
        if positions is None:
            return self._approximate(info.line, value, line, column, start)
        return self._from_positions(positions, value, line, column, (info.line, start))

    # -- helpers --------------------------------------------------------------------------

    def _nearest(self, path: Sequence[str | int]) -> _NodeInfo | None:
        key = tuple(path)
        while True:
            info = self.node(key)
            if info is not None or not key:
                return info
            key = key[:-1]

    def _at(self, line0: int, column0: int) -> Location:
        """A Location from 0-based line and column."""
        return Location(self.display_name, line0 + 1, column0 + 1, self.source_line(line0 + 1),
                        self.origin)

    def _header_line(self, info: _NodeInfo, indicator: str) -> int:
        """The 0-based line holding a block scalar's ``|`` or ``>`` indicator."""
        for line0 in range(info.line, min(info.end_line, len(self._lines) - 1) + 1):
            start = info.column if line0 == info.line else 0
            if indicator in self._lines[line0][start:]:
                return line0
        return info.line

    def _literal_location(self, info: _NodeInfo, value: str, line: int, column: int) -> Location:
        header = self._header_line(info, "|")
        indent = self._block_indent(header, value)
        return self._at(header + line, indent + column - 1)

    def _block_indent(self, header: int, value: str) -> int:
        """The indentation of the block scalar whose indicator is on line ``header``."""
        for index, text in enumerate(value.split("\n")):
            if text.strip():
                file_line = self.source_line(header + index + 2)
                if file_line is None:
                    break
                if file_line.endswith(text):
                    return len(file_line) - len(text)
                return len(file_line) - len(file_line.lstrip(" "))
        following = self.source_line(header + 2)
        if following is not None:
            return len(following) - len(following.lstrip(" "))
        return 0

    def _value_start(self, info: _NodeInfo) -> int:
        """The 0-based column where a flow scalar's text starts (after any quote)."""
        first = self._lines[info.line] if info.line < len(self._lines) else ""
        if info.style in ('"', "'"):
            quote = first.find(info.style, info.column)
            return info.column + 1 if quote < 0 else quote + 1
        if info.line == info.end_line and info.raw is not None:
            return max(info.end_column - len(info.raw), info.column)
        return _skip_properties(first, info.column)

    def _flow_positions(
        self, info: _NodeInfo, value: str, start: int
    ) -> list[tuple[int, int]] | None:
        """Replay the folding of a multi-line plain or quoted scalar; None if it differs."""
        quoted = info.style in ('"', "'")
        last = min(info.end_line, len(self._lines) - 1)
        end = info.end_column - 1 if quoted else info.end_column
        segments: list[tuple[int, int, str]] = []
        for line0 in range(info.line, last + 1):
            text = self._lines[line0]
            begin = start if line0 == info.line else 0
            stop = end if line0 == last else len(text)
            piece = text[begin:stop]
            if line0 != info.line:
                stripped = piece.lstrip(" \t")
                begin += len(piece) - len(stripped)
                piece = stripped
            if line0 != last:
                piece = piece.rstrip(" \t")
            segments.append((line0, begin, piece))
        chars: list[str] = []
        positions: list[tuple[int, int]] = []
        blank = 0
        prev_end = (info.line, start)
        for index, (line0, begin, piece) in enumerate(segments):
            if index > 0:
                if not piece and index < len(segments) - 1:
                    blank += 1
                    continue
                fold = "\n" * blank if blank else " "
                chars.extend(fold)
                positions.extend([prev_end] * len(fold))
                blank = 0
            chars.extend(piece)
            positions.extend((line0, begin + i) for i in range(len(piece)))
            prev_end = (line0, begin + len(piece))
        if "".join(chars) != value:
            return None
        return positions

    def _quoted_positions(
        self, info: _NodeInfo, value: str, start: int
    ) -> list[tuple[int, int]] | None:
        """The file position of each character of a quoted scalar, replaying its escapes
        (``\\n``, ``\\x41``, ``''``...) and line folding; None if the replay differs."""
        lines = self._lines
        end = (info.end_line, info.end_column - 1)  # the closing quote
        if end[0] >= len(lines):
            return None
        positions: list[tuple[int, int]] = []
        spaces: list[tuple[int, int]] = []  # kept unless a line break follows them
        line0, col = info.line, start
        while (line0, col) < end:
            text = lines[line0]
            if col >= len(text):  # a line break: trailing spaces go, the break folds
                spaces = []
                line0, col = self._fold(positions, line0, end[0], 1)
                continue
            ch = text[col]
            if ch in " \t":
                spaces.append((line0, col))
                col += 1
                continue
            positions.extend(spaces)
            spaces = []
            positions.append((line0, col))
            if info.style == "'":
                col += 2 if text.startswith("''", col) else 1
            elif ch != "\\":
                col += 1
            elif col + 1 >= len(text):  # an escaped line break joins the lines
                positions.pop()
                line0, col = self._fold(positions, line0, end[0], 0)
            else:
                col += 2 + _HEX_ESCAPES.get(text[col + 1], 0)
        positions.extend(spaces)
        return positions if len(positions) == len(value) else None

    def _fold(self, positions: list[tuple[int, int]], line0: int, last: int,
              space: int) -> tuple[int, int]:
        """Step over a line break of a quoted scalar: each empty line that follows is a
        newline; with none, the break is ``space`` spaces. Returns where the text goes on."""
        end_of_line = (line0, len(self._lines[line0]))
        line0 += 1
        empty = 0
        while line0 < last and not self._lines[line0].strip(" \t"):
            empty += 1
            line0 += 1
        positions.extend([end_of_line] * (empty or space))
        text = self._lines[line0]
        return line0, len(text) - len(text.lstrip(" \t"))

    def _folded_positions(
        self, info: _NodeInfo, value: str, header: int
    ) -> list[tuple[int, int]] | None:
        """Replay the folding of a ``>`` block scalar; None if it differs."""
        indent = self._block_indent(header, value)
        last = info.end_line if info.end_column > 0 else info.end_line - 1
        last = min(last, len(self._lines) - 1)
        chars: list[str] = []
        positions: list[tuple[int, int]] = []
        blank = 0
        previous: tuple[int, int, bool] | None = None  # line0, end column, more indented
        for line0 in range(header + 1, last + 1):
            text = self._lines[line0]
            if not text.strip():
                blank += 1
                continue
            piece = text[indent:]
            more = piece[:1] in (" ", "\t")
            if previous is None:  # leading empty lines are kept
                fold, at = "\n" * blank, (line0, 0)
            elif previous[2] or more:  # breaks around more-indented lines are kept
                fold, at = "\n" * (blank + 1), (previous[0], previous[1])
            else:  # one break folds into a space; n+1 breaks into n newlines
                fold, at = ("\n" * blank if blank else " "), (previous[0], previous[1])
            chars.extend(fold)
            positions.extend([at] * len(fold))
            chars.extend(piece)
            positions.extend((line0, indent + i) for i in range(len(piece)))
            previous = (line0, indent + len(piece), more)
            blank = 0
        built = "".join(chars)
        if built.rstrip("\n") != value.rstrip("\n"):
            return None
        if previous is not None:
            positions.extend([(previous[0], previous[1])] * (len(value) - len(built)))
        return positions[: len(value)]

    def _from_positions(
        self,
        positions: list[tuple[int, int]],
        value: str,
        line: int,
        column: int,
        start: tuple[int, int],
    ) -> Location:
        lines = value.split("\n")
        line = min(line, len(lines))
        within = column - 1
        extra = max(within - len(lines[line - 1]), 0)  # columns past the end of the line
        offset = sum(len(text) + 1 for text in lines[: line - 1]) + within - extra
        if offset < len(positions):
            at_line, at_column = positions[offset]
            return self._at(at_line, at_column + extra)
        if positions:
            last_line, last_column = positions[-1]
            return self._at(last_line, last_column + 1 + extra + offset - len(positions))
        return self._at(start[0], start[1] + offset + extra)

    def _approximate(
        self, first_line0: int, value: str, line: int, column: int, start: int | None
    ) -> Location:
        """Value line ``k`` on file line ``first_line0 + k - 1``, after its indentation."""
        line = min(line, len(value.split("\n")))
        line0 = first_line0 + line - 1
        if line == 1 and start is not None:
            return self._at(line0, start + column - 1)
        text = self.source_line(line0 + 1) or ""
        column0 = len(text) - len(text.lstrip(" \t")) + column - 1
        return self._at(line0, min(column0, len(text)))


def _offset(value: str, line: int, column: int) -> int:
    """The index in ``value`` of 1-based ``(line, column)``; lines past the end are clamped."""
    lines = value.split("\n")
    line = min(max(line, 1), len(lines))
    return sum(len(text) + 1 for text in lines[: line - 1]) + max(column, 1) - 1


def _skip_properties(text: str, column: int) -> int:
    """The column after an anchor (``&a``) and a tag (``!!str``) starting at ``column``."""
    while column < len(text) and text[column] in "&!":
        while column < len(text) and text[column] not in " \t":
            column += 1
        while column < len(text) and text[column] in " \t":
            column += 1
    return column


def load_yaml(path: Path, display_name: str | None = None) -> YamlDocument:
    """Read and parse the YAML file at ``path``.

    ``display_name`` is the file name used in messages (default: ``path`` as given). Raises
    :class:`PackFileError` if the file cannot be read, :class:`YamlSyntaxError` if it is not
    valid YAML (or uses a tag other than the standard ones) and :class:`DuplicateKeyError` if a
    mapping has the same key twice.
    """
    name = display_name if display_name is not None else path.as_posix()
    return parse_yaml(_read(path, name), path, name)


def parse_yaml(text: str, path: Path, name: str, keep: bool = True) -> YamlDocument:
    """The document of ``text`` (read from ``path``, called ``name`` in messages), as
    :func:`load_yaml` makes it (``keep``: found among the texts read before, or kept)."""
    document = YamlDocument(path=path, display_name=name, text=text, data=None)
    stored = _loaded.get_object((text,)) if keep else None
    if isinstance(stored, tuple) and len(stored) == 2:  # the same text, read before
        document.data, document._nodes = stored
        return document
    from rulekit.yamlparse import convert  # (PyYAML only for a text not read before)

    convert(document)
    if keep:
        _loaded.put_object((text,), (document.data, document._nodes))
    return document


# The data and positions of texts read without error (they depend on the text alone).
_loaded = Store("yaml-documents")


def is_stored(text: str) -> bool:
    """Whether the document of ``text`` is stored (:func:`parse_yaml` would not parse it)."""
    return _loaded.get((text,)) is not None


def read_text(path: Path) -> str:
    """The text of a pack file, as :func:`load_yaml` reads it (UTF-8, universal newlines);
    raises :class:`PackFileError` if it cannot."""
    return _read(path, path.as_posix())


def _read(path: Path, name: str) -> str:
    if not path.exists():
        raise PackFileError(f"file not found: {name}")
    if not path.is_file():
        raise PackFileError(f"not a file: {name}")
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise too_big(name, size)
        raw = path.read_bytes()
    except OSError as error:
        reason = error.strerror or str(error)
        raise PackFileError(f"cannot read {name}: {reason}") from None
    return decode_text(raw, name)
