"""A question's menu laid out to fit a terminal: its lines one under another while they fit,
else in columns (read down, like ``ls``), else the first of them with the count of the rest
(``more`` lists them all). The keys stay those of :class:`~rulekit.play.prompt.Menu`."""

from __future__ import annotations

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.text import Text

from rulekit.play.render import Hanging

GAP = 3  # spaces between two columns
MORE = "more"  # the command that lists every line of a long menu


class MenuBlock:
    """The title, the entries (each a key and a text) and the hint of a question; ``rows``,
    if given, is the most lines the entries may take."""

    def __init__(self, title: Text, entries: list[tuple[Text, Text]], hint: Text,
                 rows: int | None = None, closed: RenderableType | None = None) -> None:
        self.title = title
        self.entries = entries
        self.hint = hint
        self.rows = rows
        self.closed = closed  # the options not open now, above the entries

    def capped(self, rows: int | None) -> MenuBlock:
        """The same menu, its entries in at most ``rows`` lines."""
        return MenuBlock(self.title, self.entries, self.hint, rows, self.closed)

    def rows_needed(self, width: int) -> int:
        """The fewest lines that show every entry, in columns if need be, at ``width``."""
        if not self.entries:
            return 0
        column = max(len(key.plain) + len(text.plain) for key, text in self.entries) + GAP
        across = max(1, (width + GAP) // column)
        return -(-len(self.entries) // across)

    def bare(self) -> MenuBlock:
        """The title and hint alone (to measure what the entries leave)."""
        return MenuBlock(self.title, [], self.hint, closed=self.closed)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.title
        if self.closed is not None:
            yield self.closed
        rows, width = self.rows, options.max_width
        lines = [key + text for key, text in self.entries]
        if rows is None or len(lines) <= rows or console.soft_wrap:
            for key, text in self.entries:
                yield Hanging(key, text)
            yield self.hint
            return
        rows = max(rows, 2)
        column = max(len(line.plain) for line in lines) + GAP
        across = max(1, (width + GAP) // column)
        if -(-len(lines) // across) <= rows:
            shown, rest = lines, 0
        else:
            shown = lines[:(rows - 1) * across]
            rest = len(lines) - len(shown)
        down = -(-len(shown) // across)
        for r in range(down):
            line = Text()
            for c in range(across):
                at = c * down + r
                if at >= len(shown):
                    break
                if c:
                    line.append(" " * (column - len(shown[at - down].plain)))
                line.append_text(shown[at])
            yield line
        if rest:
            yield Text(f"  ... and {rest} more: type {MORE} to list them all, or a name.",
                       style="dim")
        yield self.hint


__all__ = ["MORE", "MenuBlock"]
