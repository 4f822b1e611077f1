"""Where a place inside a text value of a YAML file is in the file."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulekit.errors import Location

if TYPE_CHECKING:
    from rulekit.source.document import YamlDocument, _NodeInfo

# Escapes of double-quoted YAML text followed by hexadecimal digits, and how many.
_HEX_ESCAPES = {"x": 2, "u": 4, "U": 8}


def inside_scalar(doc: YamlDocument, info: _NodeInfo, line: int, column: int) -> Location:
    """Where ``(line, column)``, 1-based, in the scalar ``info`` is in the file."""
    value = info.raw
    assert value is not None  # (a scalar with its text: YamlDocument.text_location checks)
    if info.style == "|":
        header = _header_line(doc, info, "|")
        return doc._at(header + line, _block_indent(doc, header, value) + column - 1)
    if info.style == ">":
        return _folded_location(doc, info, value, line, column)
    return _flow_location(doc, info, value, line, column)


def _folded_location(doc: YamlDocument, info: _NodeInfo, value: str, line: int,
                     column: int) -> Location:
    header = _header_line(doc, info, ">")
    positions = _folded_positions(doc, info, value, header)
    if positions is None:
        return _approximate(doc, header + 1, value, line, column, None)
    return _from_positions(doc, positions, value, line, column, (header + 1, 0))


def _flow_location(doc: YamlDocument, info: _NodeInfo, value: str, line: int,
                   column: int) -> Location:
    start = _value_start(doc, info)
    positions = _flow_positions(doc, info, value, start)
    if positions is not None:
        return _from_positions(doc, positions, value, line, column, (info.line, start))
    if info.line == info.end_line:
        # One line of text: shift by where the value starts (ignoring escapes).
        return doc._at(info.line, start + _offset(value, line, column))
    return _approximate(doc, info.line, value, line, column, start)


def _header_line(doc: YamlDocument, info: _NodeInfo, indicator: str) -> int:
    """The 0-based line holding a block scalar's ``|`` or ``>`` indicator."""
    for line0 in range(info.line, min(info.end_line, len(doc._lines) - 1) + 1):
        start = info.column if line0 == info.line else 0
        if indicator in doc._lines[line0][start:]:
            return line0
    return info.line


def _block_indent(doc: YamlDocument, header: int, value: str) -> int:
    """The indentation of the block scalar whose header is line ``header``."""
    first = next(((i, text) for i, text in enumerate(value.split("\n")) if text.strip()), None)
    if first is not None:
        index, text = first
        file_line = doc.source_line(header + index + 2)
        if file_line is not None:
            if file_line.endswith(text):
                return len(file_line) - len(text)
            return len(file_line) - len(file_line.lstrip(" "))
    following = doc.source_line(header + 2)
    if following is not None:
        return len(following) - len(following.lstrip(" "))
    return 0


def _value_start(doc: YamlDocument, info: _NodeInfo) -> int:
    """The 0-based column where a flow scalar's text starts, after any quote."""
    first = doc._lines[info.line] if info.line < len(doc._lines) else ""
    if info.style in ('"', "'"):
        quote = first.find(info.style, info.column)
        return info.column + 1 if quote < 0 else quote + 1
    if info.line == info.end_line and info.raw is not None:
        return max(info.end_column - len(info.raw), info.column)
    return _skip_properties(first, info.column)


def _flow_positions(doc: YamlDocument, info: _NodeInfo, value: str, start: int
                    ) -> list[tuple[int, int]] | None:
    """The file position of each character of a plain or quoted scalar; None if unsure."""
    lines = doc._lines
    quoted = info.style in ('"', "'")
    end = (info.end_line, info.end_column - (1 if quoted else 0))  # before a closing quote
    if end[0] >= len(lines):
        return None
    positions: list[tuple[int, int]] = []
    spaces: list[tuple[int, int]] = []  # kept unless a line break follows them
    line0, col = info.line, start
    while (line0, col) < end:
        text = lines[line0]
        if col >= len(text):  # a line break: trailing spaces go, the break folds
            spaces = []
            line0, col = _fold(doc, positions, line0, end[0], 1, trim=not quoted)
            continue
        ch = text[col]
        if ch in " \t":
            spaces.append((line0, col))
            col += 1
            continue
        positions.extend(spaces)
        spaces = []
        positions.append((line0, col))
        line0, col = _after_char(doc, positions, line0, col, info.style, end[0])
    positions.extend(spaces)
    return positions if len(positions) == len(value) else None


def _after_char(doc: YamlDocument, positions: list[tuple[int, int]], line0: int, col: int,
                style: str, last: int) -> tuple[int, int]:
    """Where the character after ``(line0, col)`` of a flow scalar starts, escapes skipped."""
    text = doc._lines[line0]
    if style == "'":
        return line0, col + (2 if text.startswith("''", col) else 1)
    if style != '"' or text[col] != "\\":
        return line0, col + 1
    if col + 1 >= len(text):
        positions.pop()
        return _fold(doc, positions, line0, last, 0)
    return line0, col + 2 + _HEX_ESCAPES.get(text[col + 1], 0)


def _fold(doc: YamlDocument, positions: list[tuple[int, int]], line0: int, last: int,
          space: int, trim: bool = False) -> tuple[int, int]:
    """Step over a line break of a flow scalar (as newlines, or ``space`` spaces); go on."""
    text = doc._lines[line0]
    end_of_line = (line0, len(text.rstrip(" \t") if trim else text))
    line0 += 1
    empty = 0
    while line0 < last and not doc._lines[line0].strip(" \t"):
        empty += 1
        line0 += 1
    positions.extend([end_of_line] * (empty or space))
    text = doc._lines[line0]
    return line0, len(text) - len(text.lstrip(" \t"))


def _folded_positions(doc: YamlDocument, info: _NodeInfo, value: str, header: int
) -> list[tuple[int, int]] | None:
    """Replay the folding of a ``>`` block scalar; None if it differs."""
    indent = _block_indent(doc, header, value)
    last = info.end_line if info.end_column > 0 else info.end_line - 1
    last = min(last, len(doc._lines) - 1)
    built: list[str] = []  # the text rebuilt as YAML reads it, and where each character is
    positions: list[tuple[int, int]] = []
    blank = 0
    previous: tuple[int, int, bool] | None = None  # line0, end column, more indented
    for line0 in range(header + 1, last + 1):
        text = doc._lines[line0]
        if not text.strip():
            blank += 1
            continue
        piece = text[indent:]
        more = piece[:1] in (" ", "\t")
        fold, at = _folded_break(previous, more, blank, line0)
        built += [fold, piece]
        positions += [at] * len(fold) + [(line0, indent + i) for i in range(len(piece))]
        previous = (line0, indent + len(piece), more)
        blank = 0
    rebuilt = "".join(built)
    if rebuilt.rstrip("\n") != value.rstrip("\n"):
        return None
    if previous is not None:
        positions += [(previous[0], previous[1])] * (len(value) - len(rebuilt))
    return positions[: len(value)]


def _folded_break(previous: tuple[int, int, bool] | None, more: bool, blank: int,
                  line0: int) -> tuple[str, tuple[int, int]]:
    """What the breaks before a line of a folded block become, and where."""
    if previous is None:  # leading empty lines are kept
        return "\n" * blank, (line0, 0)
    at = (previous[0], previous[1])
    if previous[2] or more:  # breaks around more-indented lines are kept
        return "\n" * (blank + 1), at
    return ("\n" * blank if blank else " "), at  # one break is a space; n+1 are n newlines


def _from_positions(doc: YamlDocument, positions: list[tuple[int, int]],
    value: str,
    line: int,
    column: int,
    start: tuple[int, int],
) -> Location:
    lines = value.split("\n")
    line = min(line, len(lines))
    extra = max(column - 1 - len(lines[line - 1]), 0)  # columns past the end of the line
    offset = _offset(value, line, column) - extra
    if offset < len(positions):
        at_line, at_column = positions[offset]
        return doc._at(at_line, at_column + extra)
    if positions:
        last_line, last_column = positions[-1]
        return doc._at(last_line, last_column + 1 + extra + offset - len(positions))
    return doc._at(start[0], start[1] + offset + extra)


def _approximate(doc: YamlDocument, first_line0: int, value: str, line: int, column: int,
                 start: int | None) -> Location:
    """Place line ``k`` of the value on file line ``first_line0 + k - 1``."""
    line = min(line, len(value.split("\n")))
    line0 = first_line0 + line - 1
    if line == 1 and start is not None:
        return doc._at(line0, start + column - 1)
    text = doc.source_line(line0 + 1) or ""
    column0 = len(text) - len(text.lstrip(" \t")) + column - 1
    return doc._at(line0, min(column0, len(text)))


def _offset(value: str, line: int, column: int) -> int:
    """The index in ``value`` of 1-based ``(line, column)``, within its lines."""
    lines = value.split("\n")
    line = min(max(line, 1), len(lines))
    return sum(len(text) + 1 for text in lines[: line - 1]) + max(column, 1) - 1


def _skip_properties(text: str, column: int) -> int:
    """The column after an anchor (``&a``) and a tag (``!!str``) at ``column``."""
    while column < len(text) and text[column] in "&!":
        while column < len(text) and text[column] not in " \t":
            column += 1
        while column < len(text) and text[column] in " \t":
            column += 1
    return column
