"""Text laid out to fit the terminal, never breaking a name."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.rule import Rule
from rich.text import Text

from rulekit.play.styles import STYLE_HEAD, STYLE_HIDDEN, STYLE_TITLE

SEPARATOR = " · "
ROW = 76  # the width of a row of short lines
_COUNT = re.compile(r" [x×]\d+\b")  # the count after a name: " x2", " ×2"


def wrap_keeping(body: Text, width: int, keep: Iterable[str]) -> list[Text]:
    """``body`` in lines of at most ``width`` cells, broken at spaces outside ``keep``."""
    plain = body.plain
    inside = _kept_whole(plain, keep)
    breaks = [at for at, char in enumerate(plain) if char == " " and not inside[at]]
    cuts = _cuts(plain, breaks, width)
    starts = [0, *(cut + 1 for cut in cuts)]
    ends = [*cuts, len(plain)]
    return [body[start:end] for start, end in zip(starts, ends, strict=True)]


def _kept_whole(plain: str, keep: Iterable[str]) -> list[bool]:
    """Where in ``plain`` a line may not break."""
    inside = [False] * len(plain)
    for name in keep:
        if " " not in name:
            continue
        start = plain.find(name)
        while start >= 0:
            inside[start:start + len(name)] = [True] * len(name)
            start = plain.find(name, start + 1)
    for count in _COUNT.finditer(plain):  # "Name x2" stays on one line
        inside[count.start()] = True
    return inside


def _cuts(plain: str, breaks: list[int], width: int) -> list[int]:
    """Where lines end among ``breaks``, each as long as fits."""
    cuts: list[int] = []
    start, fits = 0, -1  # the line's start; the last break that keeps it within width
    for at in breaks:
        if cell_len(plain[start:at]) <= width:
            fits = at
            continue
        cut = fits if fits > start else at
        cuts.append(cut)
        start = cut + 1
        fits = at if cut != at and cell_len(plain[start:at]) <= width else -1
    if cell_len(plain[start:]) > width and fits > start:
        cuts.append(fits)
    return cuts


class Hanging:
    """A line wrapping under its own text, not its head; piped, it stays whole."""

    def __init__(self, head: Text, body: Text, indent: int | None = None,
                 keep: Iterable[str] = ()) -> None:
        self.head = head
        self.body = body
        self.indent = len(head.plain) if indent is None else indent  # of the wrapped lines
        self.keep = keep  # names never broken between two lines

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        if console.soft_wrap or options.max_width <= self.indent + 10:
            yield self.head + self.body
            return
        parts = wrap_keeping(self.body, options.max_width - self.indent, self.keep)
        for number, part in enumerate(parts):
            part.rstrip()
            yield (self.head if number == 0 else Text(" " * self.indent)) + part


class Header:
    """A screen's title in a rule of ``=``. The pack's name goes first if too long."""

    def __init__(self, parts: list[str]) -> None:
        self.parts = parts

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        parts = self.parts
        if len(" - ".join(parts)) + 4 > options.max_width and len(parts) > 1:
            parts = parts[1:]
        yield Rule(Text(" - ".join(parts), style=STYLE_TITLE), characters="=")


@dataclass
class Line:
    """A line, and its short form that may share a row."""

    text: Text
    short: Text | None = None


def side_by_side(lines: list[Line], keep: tuple[str, ...] = ()) -> list[RenderableType]:
    """A section's lines, runs of short ones side by side, never breaking a name of ``keep``."""
    return [_run_text(run, keep) for run in _runs(lines)]


def _runs(lines: list[Line]) -> list[list[Line]]:
    runs: list[list[Line]] = []
    for line in lines:
        if line.short is None or not runs or not _joins(runs[-1], line.short):
            runs.append([line])
        else:
            runs[-1].append(line)
    return runs


def _joins(run: list[Line], short: Text) -> bool:
    shorts = [line.short for line in run if line.short is not None]
    width = sum(len(text.plain) + 3 for text in shorts) + len(short.plain)
    return len(shorts) == len(run) and width <= ROW


def _run_text(run: list[Line], keep: tuple[str, ...]) -> RenderableType:
    first = run[0]
    if first.short is None:
        return Hanging(first.text[:2], first.text[2:], 4, keep)
    if len(run) == 1:
        return first.text
    return Text("  ") + Text(SEPARATOR).join(line.short or Text() for line in run)


class Cells:
    """Cells after a head, broken only between two cells; piped, at 80 columns."""

    def __init__(self, cells: list[Text], head: Text | None = None, separator: str = SEPARATOR,
                 separators: list[str] | None = None) -> None:
        self.cells = cells
        self.head = head or Text()
        self.separators = separators or [separator] * len(cells)  # the one before each cell

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        line = Text("  ") + self.head
        under = " " * min(2 + len(self.head.plain), max(width // 3, 2))
        for i, cell in enumerate(self.cells):
            if i and self._overflows(line, i, width):
                line.append(self._mark(i), style=STYLE_HIDDEN)  # "a," then "b" below it
                yield line
                line = Text(under)
            elif i:
                line.append(self.separators[i], style=STYLE_HIDDEN)
            line.append_text(cell)
        yield line

    def _overflows(self, line: Text, i: int, width: int) -> bool:
        """Whether cell ``i`` goes past ``width`` on ``line``, with room for a comma."""
        after = len(self._mark(i + 1)) if i + 1 < len(self.cells) else 0
        joined = len(line.plain) + len(self.separators[i]) + len(self.cells[i].plain)
        return joined + after > width

    def _mark(self, i: int) -> str:
        mark = self.separators[i].strip()
        return mark if mark in (",", ";") else ""


class RowTable:
    """A table: column names, then a padded line per row. Too narrow, each row is :class:`Cells`."""

    def __init__(self, title: Text | None, header: list[str], rows: list[list[Text]]) -> None:
        self.title = title
        self.header = header
        self.rows = rows

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        if self.title is not None:
            yield self.title
        widths = [max([len(self.header[i])] + [len(row[i].plain) for row in self.rows])
                  for i in range(len(self.header))]
        if 2 + sum(widths) + 2 * (len(widths) - 1) <= options.max_width:
            yield from self._padded(widths)
            return
        for row in self.rows:
            yield from Cells(self._named_cells(row), Text(f"{row[0].plain} ", style=STYLE_HEAD)
                             ).__rich_console__(console, options)

    def _padded(self, widths: list[int]) -> Iterator[Text]:
        yield Text("  " + "  ".join(h.ljust(w) for h, w in zip(self.header, widths,
                                                               strict=True)).rstrip(),
                   style=STYLE_HIDDEN)
        for row in self.rows:
            line = Text("  ") + Text("  ").join(Text.assemble(cell, " " * (width - len(cell.plain)))
                                                for cell, width in zip(row, widths, strict=True))
            line.rstrip()
            yield line

    def _named_cells(self, row: list[Text]) -> list[Text]:
        return [Text.assemble((f"{name}: ", STYLE_HIDDEN), cell)
                for name, cell in zip(self.header[1:], row[1:], strict=True)]
