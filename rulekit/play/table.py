"""The table a pack declares in its ``display:`` section, drawn for one player.

:class:`Table` turns an observation into the compact status block (the panel marked
``status``), the other panels, the row tables, and labels options and cards as the pack says.
Lines are laid out by :class:`Cells`, which breaks a line only between two cells (a name, a
value), so that at any width nothing is broken in the middle of a name. "Where a piece may be"
comes from the engine's belief of the viewer (:mod:`rulekit.play.tablebeliefs`), fed with the
viewer's observations only. Nothing here knows any particular game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.text import Text

from rulekit.model.program import zone_key
from rulekit.pack.display import Column, Display, Item, Panel, Row
from rulekit.play.tablebeliefs import TableBeliefs

if TYPE_CHECKING:
    from rulekit.engine.decisions import Decision
    from rulekit.play.render import Renderer

STYLE_SECTION = "bold underline"
STYLE_HEAD = "bold"
STYLE_CARD = "cyan"
STYLE_HIDDEN = "dim"
SEPARATOR = " · "
EMPTY = "-"
FACE_DOWN = "face down"


class Cells:
    """Cells on lines, after a head: a line is broken only between two cells, and the lines
    after the first are indented under the head (a piped transcript too: 80 columns)."""

    def __init__(self, cells: list[Text], head: Text | None = None, indent: int = 2,
                 separator: str = SEPARATOR, separators: list[str] | None = None) -> None:
        self.cells = cells
        self.head = head or Text()
        self.indent = indent
        self.separator = separator
        self.separators = separators  # the one before each cell, if not all the same

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        line = Text(" " * self.indent) + self.head
        under = " " * min(self.indent + len(self.head.plain), max(width // 3, self.indent))
        first = True
        for i, cell in enumerate(self.cells):
            separator = self._separator(i)
            # room for the comma that ends the line should the next cell go on the next one
            after = len(self._mark(i + 1)) if i + 1 < len(self.cells) else 0
            joined = len(line.plain) + (0 if first else len(separator)) + len(cell.plain)
            if not first and joined + after > width:
                line.append(self._mark(i), style=STYLE_HIDDEN)  # "a," then "b" below it
                yield line
                line = Text(under)
                first = True
            if not first:
                line.append(separator, style=STYLE_HIDDEN)
            line.append_text(cell)
            first = False
        yield line

    def _separator(self, i: int) -> str:
        return self.separators[i] if self.separators else self.separator

    def _mark(self, i: int) -> str:
        """What stays at the end of a line broken before cell ``i``: a comma or semicolon,
        never a dot between items."""
        mark = self._separator(i).strip()
        return mark if mark in (",", ";") else ""


class RowTable:
    """A row table: a line of column names, then one line per row, the columns padded; when
    the console is too narrow, each row is laid out as :class:`Cells`."""

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
            yield Text("  " + "  ".join(h.ljust(w) for h, w in zip(self.header, widths,
                                                                   strict=True)).rstrip(),
                       style=STYLE_HIDDEN)
            for row in self.rows:
                line = Text("  ")
                for i, (cell, w) in enumerate(zip(row, widths, strict=True)):
                    if i:
                        line.append("  ")
                    line.append_text(cell)
                    line.append(" " * (w - len(cell.plain)))
                line.rstrip()
                yield line
            return
        for row in self.rows:
            cells = [Text.assemble((f"{h}: ", STYLE_HIDDEN), c)
                     for h, c in zip(self.header[1:], row[1:], strict=True)]
            yield from Cells(cells, Text(f"{row[0].plain} ", style=STYLE_HEAD)
                             ).__rich_console__(console, options)


class Table:
    """The pack's ``display:`` section applied to one game's observations."""

    def __init__(self, render: Renderer, display: Display) -> None:
        self.render = render
        self.game = render.game
        self.display = display
        self.beliefs = TableBeliefs(self.game)  # where hidden pieces may be, per viewer

    # ------------------------------------------------------------ names and words

    def name(self, ref: str) -> str:
        return self.display.names.get(ref) or ref.replace("_", " ")

    def word(self, value: Any) -> str:
        if isinstance(value, str) and value in self.display.words:
            return self.display.words[value]
        return self.render.value(value)

    def card_fill(self, template: str, card: str) -> str:
        props = self.game.symbols.cards.get(card, {})
        values = {key: self.word(value) for key, value in props.items()}
        values["name"] = self.game.label(card)
        values.setdefault("id", card)
        try:
            return template.format_map(_Missing(values))
        except (ValueError, IndexError):
            return template

    def card_text(self, card: Any) -> str | None:
        """A card's text: its type's template, else its ``text`` property."""
        if not isinstance(card, str) or card not in self.game.symbols.cards:
            return None
        template = self.display.cards.get(str(self.game.symbols.cards[card].get("type")))
        if template is not None:
            return self.card_fill(template, card)
        text = self.game.symbols.cards[card].get("text")
        return text if isinstance(text, str) and text else None

    # ------------------------------------------------------------ decisions

    def prompt(self, decision: Decision) -> str:
        asking = self.display.asking(decision.prompt)
        return asking.ask if asking is not None and asking.ask else decision.prompt

    def labeler(self, decision: Decision, obs: dict[str, Any]) -> Callable[[Any], str]:
        """How the options of ``decision`` are named (``obs``: the chooser's observation): a
        pile number of a row table by its row and side ("card 2, left: ..."), else by the
        choice's own ``label``, a text value by its word, anything else by its name."""
        asking = self.display.asking(decision.prompt)
        row = self.display.rows.get(asking.options) if asking and asking.options else None

        def label(item: Any) -> str:
            if row is not None and isinstance(item, int) and not isinstance(item, bool):
                found = self._on_row(row, item, obs)
                if found:
                    return found
            labelled = decision.item_label(item)
            if labelled is not None:
                return labelled
            if isinstance(item, str) and item in self.display.words:
                return self.display.words[item]
            return self.game.label(item)

        return label

    def _on_row(self, row: Row, number: int, obs: dict[str, Any]) -> str | None:
        for column in row.columns:
            k = column.row_of(number)
            if k is None:
                continue
            where = f"{row.each or row.name or 'row'} {k}"
            side = column.side or column.name
            card = self._card_on(row, k, obs)
            texts = [self.card_fill(c.card, card) for c in row.columns
                     if c.card and c.side == column.side and card is not None]
            return f"{where}, {side}" + (f": {', '.join(texts)}" if texts else "")
        return None

    def _card_on(self, row: Row, k: int, obs: dict[str, Any]) -> str | None:
        cards = obs["zones"].get(zone_key(row.zone, str(k)), {}).get("cards") or []
        return cards[0] if cards and isinstance(cards[0], str) else None

    # ------------------------------------------------------------ panels

    def status(self, obs: dict[str, Any], role: str) -> list[RenderableType]:
        """The compact block: the panels marked ``status`` (no title)."""
        out: list[RenderableType] = []
        for panel in self.display.panels:
            if panel.status:
                out += self.items(panel, obs, role, brief=True)
        return out

    def panels(self, obs: dict[str, Any], role: str) -> list[RenderableType]:
        """Every panel under its title."""
        sections: list[RenderableType] = []
        for panel in self.display.panels:
            lines = self.items(panel, obs, role)
            if lines:
                sections.append(Group(Text(panel.name, style=STYLE_SECTION), *lines))
        return sections

    def items(self, panel: Panel, obs: dict[str, Any], role: str,
              brief: bool = False) -> list[RenderableType]:
        """The lines of a panel; ``brief`` (the status block) leaves out empty piles."""
        out: list[RenderableType] = []
        inline: list[Text] = []
        for item in panel.items:
            shown = self.item(item, obs, role, brief)
            if isinstance(shown, list):
                inline += shown
                continue
            if inline:
                out.append(Cells(inline))
                inline = []
            if shown is not None:
                out.append(shown)
        if inline:
            out.append(Cells(inline))
        return out

    def item(self, item: Item, obs: dict[str, Any], role: str, brief: bool = False
             ) -> list[Text] | RenderableType | None:
        """Short cells (a list), or a block of lines of its own."""
        if item.kind == "row":
            return self.row(self.display.rows[item.ref], obs)
        if item.kind == "zone":
            return self.zone(item, obs, role, brief)
        return self.variable(item, obs, role)

    def _keys(self, item: Item, role: str, per: Any) -> list[tuple[str, str]]:
        """(observation key, name shown) of an item's values."""
        name = item.name or self.name(item.ref)
        if per is None:
            return [(item.ref, name)]
        if per == "role":
            roles = [role] if item.whose == "you" else list(self.game.roles)
            return [(zone_key(item.ref, r), name if item.whose == "you"
                     else f"{self.render.name(r)}: {name}") for r in roles]
        return [(zone_key(item.ref, i), f"{name} {self.game.label(i)}")
                for i in self.game.symbols.index_domain(per)]

    def _of(self, item: Item) -> str:
        if item.of is None:
            return ""
        total = self.game.params.get(item.of, 0) if isinstance(item.of, str) else item.of
        return f" of {self.render.value(total)}"

    def variable(self, item: Item, obs: dict[str, Any], role: str
                 ) -> list[Text] | RenderableType | None:
        decl = self.game.symbols.variables[item.ref]
        values: dict[str, Any] = obs["vars"]
        cells: list[Text] = []
        blocks: list[RenderableType] = []
        for key, name in self._keys(item, role, decl.per):
            if key not in values:
                if item.belief:
                    blocks.append(self.belief(key, name, obs, role))
                else:
                    cells.append(Text(f"{name}: secret", style=STYLE_HIDDEN))
                continue
            value = values[key]
            if value is None:  # not set yet (a piece not on the table): nothing to say
                continue
            if item.routes and isinstance(value, str) and value in self.render.board.nodes:
                head = Text.assemble((f"{name}: ", STYLE_HEAD),
                                     (self.render.node_text(value), STYLE_CARD))
                routes = self.render.route_names(value, obs["zones"])
                blocks.append(Cells([Text(r) for r in routes],
                                    head + Text("; routes to ") if routes else head,
                                    separator=", "))
                continue
            cells.append(Text.assemble((f"{name} ", STYLE_HEAD),
                                       self.word(value) + self._of(item)))
        if not blocks:
            return cells
        return Group(*blocks, *([Cells(cells)] if cells else []))

    def belief(self, key: str, name: str, obs: dict[str, Any], role: str) -> RenderableType:
        """Where a variable the viewer cannot see may be, from the engine's belief."""
        weights, stale = self.beliefs.weights(role, key, obs)
        if stale:  # said so: the places once worked out may no longer all be possible
            name = f"{name} (lost track; last worked out)"
        if weights is None:
            return Cells([Text("anywhere the rules allow", style=STYLE_HIDDEN)],
                         Text(f"{name} may be: ", style=STYLE_HEAD))
        nodes = self.render.board.nodes
        order = {node: i for i, node in enumerate(nodes)}
        places: dict[str, list[Text]] = {}  # by region, in the board's order
        others: list[Text] = []
        for value in sorted(weights, key=lambda v: (order.get(v, len(order)), str(v))):
            region = nodes.get(value, {}).get("region") if isinstance(value, str) else None
            if isinstance(region, str):
                places.setdefault(region, []).append(Text(self.game.label(value)))
            else:
                others.append(Text(self.word(value)))
        cells: list[Text] = []
        separators: list[str] = []
        for region, names in places.items():  # one flow: "Europe: London, Paris; Africa: ..."
            for n, place in enumerate(names):
                cells.append(Text.assemble((f"{self.game.label(region)}: ", STYLE_HEAD), place)
                             if n == 0 else place)
                separators.append("; " if n == 0 else ", ")
        for value in others:
            cells.append(value)
            separators.append(", ")
        return Cells(cells, Text(f"{name} may be in ", style=STYLE_HEAD), separator=", ",
                     separators=separators)

    def zone(self, item: Item, obs: dict[str, Any], role: str, brief: bool = False
             ) -> list[Text] | RenderableType | None:
        decl = self.game.symbols.zones[item.ref]
        cells: list[Text] = []
        blocks: list[RenderableType] = []
        for key, name in self._keys(item, role, decl.per):
            data = obs["zones"].get(key)
            if data is None:
                continue
            count = int(data.get("count", 0))
            cards = data.get("cards")
            if item.count or cards is None:
                hidden = "" if item.count else f" {FACE_DOWN}"
                cells.append(Text.assemble((f"{name} ", STYLE_HEAD), f"{count}{hidden}"))
            elif not cards and brief:
                continue
            elif not cards:
                cells.append(Text.assemble((f"{name}: ", STYLE_HEAD), ("none", STYLE_HIDDEN)))
            else:
                blocks += self.cards(item, name, cards)
        if not blocks:
            return cells
        return Group(*blocks, *([Cells(cells)] if cells else []))

    def cards(self, item: Item, name: str, cards: list[Any]) -> list[RenderableType]:
        """A visible pile: its cards (grouped ``Name ×2``), by group and order if asked."""
        props = self.game.symbols.cards
        known = [c for c in cards if isinstance(c, str)]
        sort = item.sort
        if sort is not None:
            known.sort(key=lambda c: -_number(props.get(c, {}).get(sort)))
        groups: dict[str, list[str]] = {}
        for card in known:
            group = self.word(props.get(card, {}).get(item.group)) if item.group else ""
            groups.setdefault(group, []).append(card)
        if item.group:  # groups in the order of the pack's cards
            first: dict[str, int] = {}
            for i, card_props in enumerate(props.values()):
                first.setdefault(self.word(card_props.get(item.group)), i)
            groups = dict(sorted(groups.items(), key=lambda kv: first.get(kv[0], 0)))
        unknown = len(cards) - len(known)
        lines: list[RenderableType] = []
        for group, members in groups.items():
            counted: dict[str, int] = {}
            for card in members:
                label = self.game.label(card)
                counted[label] = counted.get(label, 0) + 1
            cells = [Text(label + (f" ×{n}" if n > 1 else ""), style=STYLE_CARD)
                     for label, n in counted.items()]
            head = f"{name} ({group}): " if group else f"{name}: "
            lines.append(Cells(cells, Text(head, style=STYLE_HEAD), separator=", "))
        if unknown:
            lines.append(Text(f"  {name}: {unknown} {FACE_DOWN}", style=STYLE_HIDDEN))
        return lines

    def row(self, row: Row, obs: dict[str, Any]) -> RenderableType:
        per = self.game.symbols.zones[row.zone].per
        count = per if isinstance(per, int) else 0
        header = [(row.each or "#").capitalize()] + [c.name for c in row.columns]
        lines = []
        for k in range(1, count + 1):
            card = self._card_on(row, k, obs)
            lines.append([Text(str(k), style=STYLE_HEAD)]
                         + [self.cell(c, k, card, obs) for c in row.columns])
        title = Text(row.name, style=STYLE_SECTION) if row.name else None
        return RowTable(title, header, lines)

    def cell(self, column: Column, k: int, card: str | None, obs: dict[str, Any]) -> Text:
        if column.card is not None:
            return Text(self.card_fill(column.card, card) if card else EMPTY)
        for zone in column.zones:
            data = obs["zones"].get(zone_key(zone, str(column.index(k))), {})
            cards = data.get("cards")
            if not data.get("count"):
                continue
            top = cards[-1] if cards else None
            if top is None:
                return Text(FACE_DOWN, style=STYLE_HIDDEN)
            return Text(self.game.label(top), style=STYLE_CARD)
        return Text(EMPTY, style=STYLE_HIDDEN)


class _Missing(dict[str, str]):
    """Template values; an unknown key stays as written."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _number(value: Any) -> float:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) \
        else 0.0


__all__ = ["Cells", "RowTable", "Table"]
