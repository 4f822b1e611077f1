"""Load pack YAML files safely, keeping the file position of every value."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

from rulekit.errors import Location, PackFileError
from rulekit.limits import MAX_FILE_BYTES
from rulekit.source.positions import inside_scalar

__all__ = ["JsonPath", "YamlDocument", "load_yaml"]

JsonPath = tuple[str | int, ...]
"""The path of a value in a document: mapping keys and list indexes, from the root."""

# PyYAML counts these as line breaks (after Python's universal newlines removed the '\r's).
_LINE_BREAK = re.compile("\n|\x85|\u2028|\u2029")


class _NodeInfo(NamedTuple):
    """Where a value (and its key) sits in the text, from 0; a scalar's style and raw text."""

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
    """A loaded YAML file: its text, its data, and where each value is."""

    def __init__(self, path: Path, display_name: str, text: str, data: object) -> None:
        self.path = path
        self.display_name = display_name
        self.text = text
        self.data: Any = data  # its shape is the one its schema checks
        self._nodes: dict[JsonPath, _NodeInfo] = {}
        self.origin = ""  # "in the base pack ID" (see Location)
        self._lines = _LINE_BREAK.split(text)

    def source_line(self, line: int) -> str | None:
        """The text of file line ``line`` (1-based); None past the end."""
        if 1 <= line <= len(self._lines):
            return self._lines[line - 1]
        return None

    def has_path(self, path: Sequence[str | int]) -> bool:
        """Whether a value is recorded exactly at ``path``."""
        return tuple(path) in self._nodes

    def node(self, path: Sequence[str | int]) -> _NodeInfo | None:
        """Where the value at ``path`` sits, if one is recorded there."""
        return self._nodes.get(tuple(path))

    def location(self, path: Sequence[str | int]) -> Location:
        """Where the value at ``path`` starts, or its nearest known ancestor."""
        doc, info = self._nearest(path)
        if info is None:
            return doc._at(0, 0)
        return doc._at(info.line, info.column)

    def key_location(self, path: Sequence[str | int]) -> Location:
        """Where the mapping key of the value at ``path`` starts (for a list item, the item)."""
        doc, info = self._nearest(path)
        if info is None or info.key_line is None or info.key_column is None:
            return self.location(path)
        return doc._at(info.key_line, info.key_column)

    def raw_text(self, path: Sequence[str | int]) -> str | None:
        """The text of the scalar at ``path`` as written: ``'yes'`` for True."""
        info = self.node(path)
        return None if info is None else info.raw

    def resolve(self, path: Sequence[str | int]) -> tuple[YamlDocument, JsonPath]:
        """The document and path the value at ``path`` comes from (a merged one differs)."""
        return self, tuple(path)

    def text_location(self, path: Sequence[str | int], line: int, column: int) -> Location:
        """Map ``(line, column)``, 1-based, in the text at ``path`` to the file."""
        doc, real = self.resolve(path)
        info = doc.node(real)
        if info is None or info.kind != "scalar" or info.raw is None:
            return doc.location(real)
        return inside_scalar(doc, info, max(line, 1), max(column, 1))

    def _nearest(self, path: Sequence[str | int]) -> tuple[YamlDocument, _NodeInfo | None]:
        """The document of the value at ``path``, and its place or its nearest ancestor's."""
        doc, key = self.resolve(path)
        while True:
            info = doc.node(key)
            if info is not None or not key:
                return doc, info
            key = key[:-1]

    def _at(self, line0: int, column0: int) -> Location:
        return Location(self.display_name, line0 + 1, column0 + 1, self.source_line(line0 + 1),
                        self.origin)


def load_yaml(path: Path, display_name: str | None = None) -> YamlDocument:
    """Read and parse the YAML file at ``path``; ``display_name`` names it in messages."""
    from rulekit.source.yamlload import convert  # (which imports this module)

    name = display_name if display_name is not None else path.as_posix()
    document = YamlDocument(path=path, display_name=name, text=_read(path, name), data=None)
    convert(document)
    return document


def _read(path: Path, name: str) -> str:
    """The text of the pack file ``path``: UTF-8, universal newlines, within the size limit."""
    raw = _read_bytes(path, name)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise _not_utf8(name, raw, error.start) from None
    return text.replace("\r\n", "\n").replace("\r", "\n")  # universal newlines


def _read_bytes(path: Path, name: str) -> bytes:
    if not path.exists():
        raise PackFileError(f"file not found: {name}")
    if not path.is_file():
        raise PackFileError(f"not a file: {name}")
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise PackFileError(f"{name} is {size:,} bytes long; the limit for a pack file is "
                                f"{MAX_FILE_BYTES:,} bytes", Location(name, 1, 1, None))
        return path.read_bytes()
    except OSError as error:
        reason = error.strerror or str(error)
        raise PackFileError(f"cannot read {name}: {reason}") from None


def _not_utf8(name: str, raw: bytes, start: int) -> PackFileError:
    """A file whose byte ``start`` is not UTF-8 text."""
    before = raw[:start]
    line = before.count(b"\n") + 1
    line_start = before.rfind(b"\n") + 1
    column = len(before[line_start:].decode("utf-8", "replace")) + 1
    return PackFileError(
        f"{name} is not UTF-8 text (byte 0x{raw[start]:02x} on line {line})",
        Location(name, line, column, None),
        "save the file with the UTF-8 encoding",
    )
