"""A question's menu as the terminal shows it: in a list, in columns, or cut short."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.text import Text

from rulekit.engine.decisions import NONE_ID, Decision
from rulekit.play.styles import STYLE_HIDDEN, STYLE_KEY, STYLE_TITLE, STYLE_YOU
from rulekit.play.wrapping import Hanging

if TYPE_CHECKING:
    from rulekit.play.prompt import Entry, Menu
    from rulekit.play.render import Renderer

GAP = 3  # spaces between two columns
MORE = "more"  # the command that lists every line of a long menu
SHOWN_CLOSED = 3  # options not open now named under a menu; the rest counted


class MenuBlock:
    """The title, the entries (key, text) and the hint of a question, in at most ``rows`` lines."""

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
        """The fewest lines that show every entry at ``width``."""
        actions, lines, _, across = self._split(width)
        return -(-len(lines) // across) + len(actions)

    def _split(self, width: int) -> tuple[list[Text], list[Text], int, int]:
        """The lettered actions, the other lines, a column's width and how many fit across."""
        actions = [key + text for key, text in self.entries if key.plain.strip().isalpha()]
        lines = [key + text for key, text in self.entries if not key.plain.strip().isalpha()]
        column = max((len(line.plain) for line in lines), default=0) + GAP
        return actions, lines, column, max(1, (width + GAP) // column)

    def bare(self) -> MenuBlock:
        """The title and hint alone, to measure what entries leave."""
        return MenuBlock(self.title, [], self.hint, closed=self.closed)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.title
        if self.closed is not None:
            yield self.closed
        if self.rows is None or len(self.entries) <= self.rows or console.soft_wrap:
            for key, text in self.entries:
                yield Hanging(key, text)
        else:
            yield from self._columns(max(self.rows, 2), options.max_width)
        yield self.hint

    def _columns(self, rows: int, width: int) -> Iterator[Text]:
        """The lines in columns; the anytime actions (lettered) after them, one a line."""
        actions, lines, column, across = self._split(width)
        rows = max(rows - len(actions), 1)
        shown = lines if -(-len(lines) // across) <= rows else lines[:(rows - 1) * across]
        down = -(-len(shown) // across)
        for r in range(down):
            line = Text()
            for at in range(r, len(shown), down):
                if at >= down:
                    line.append(" " * (column - len(shown[at - down].plain)))
                line.append_text(shown[at])
            yield line
        rest = len(lines) - len(shown)
        if rest:
            yield Text(f"  ... and {rest} more: type {MORE} to list them all, or a name.",
                       style="dim")
        yield from actions


def menu_block(render: Renderer, menu: Menu, role: str) -> MenuBlock:
    """The question of ``menu`` as ``role`` reads it."""
    width = max((len(e.key) for e in menu.entries), default=1)
    entries = [(Text("  " + entry.key.rjust(width), style=STYLE_KEY) + Text("  "),
                _entry_text(render, menu, entry)) for entry in menu.entries]
    hint = Text(_hint(menu) + " Also: board, log, help, quit.", style=STYLE_HIDDEN)
    return MenuBlock(_title(render, menu, role), entries, hint, closed=closed_text(menu))


def _title(render: Renderer, menu: Menu, role: str) -> Text:
    decision = menu.decision
    about = f"{menu.context}: " if menu.context else ""
    how_many = f"  ({_how_many(decision)})" if menu.subset and decision.items else ""
    return Text.assemble((render.name(role), STYLE_YOU),
                         (": " + about + render.table.prompt(decision), STYLE_TITLE),
                         (how_many, STYLE_HIDDEN))


def _how_many(decision: Decision) -> str:
    n = len(decision.items)
    low, high = max(decision.min, 0), min(decision.max, n)
    if low == high:
        return f"choose {low}"
    if low > 0:
        return f"choose {low} to {high}"
    return f"choose up to {high}" if high < n else "choose any of them"


def _entry_text(render: Renderer, menu: Menu, entry: Entry) -> Text:
    items = menu.decision.items
    text = render.table.card_text(items[entry.index]) \
        if entry.index is not None and entry.index < len(items) else None
    return Text.assemble((entry.label, STYLE_HIDDEN if entry.anytime else ""),
                         (f": {text}", STYLE_HIDDEN) if text else "",
                         ("  (any time)", STYLE_HIDDEN) if entry.anytime else "")


def _hint(menu: Menu) -> str:
    default = menu.default
    if default is not None:
        only = "nothing to choose" if default.id == NONE_ID else menu.label_of(default)
        actions = any(entry.anytime for entry in menu.entries)
        return f"Press Enter ({only})" + (", or a letter for an action." if actions else ".")
    return "Type numbers (1 3, 1-4), all or none." if menu.subset else "Type a number or a name."


def closed_text(menu: Menu) -> Hanging | None:
    """The options the rules refuse now, a few by name; typed, they get the pack's reason."""
    names = list(dict.fromkeys(text for text, _ in menu.refused))
    if not names:
        return None
    shown = first_named(names, SHOWN_CLOSED, "; ")
    return Hanging(Text("  "), Text(f"Not open now: {shown} (type one to see why).",
                                    style=STYLE_HIDDEN), 4, names)


def first_named(names: list[str], most: int, separator: str = ", ") -> str:
    """The first ``most`` names, joined, then how many more there are."""
    more = f" and {len(names) - most} more" if len(names) > most else ""
    return separator.join(names[:most]) + more
