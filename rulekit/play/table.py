"""A pack's ``display:`` section, drawn for one player.

The :class:`Table` draws the status block, the other panels and the row tables. The status block is
the panel marked ``status``. It labels options and cards as the pack says. Where a piece may be
comes from the viewer's belief. Nothing here knows any particular game.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.text import Text

from rulekit.engine.observe import Observation
from rulekit.model.program import zone_key
from rulekit.pack.display import Column, Display, Item, Panel, Row
from rulekit.play.styles import STYLE_CARD, STYLE_HEAD, STYLE_HIDDEN, STYLE_SECTION
from rulekit.play.tablebeliefs import TableBeliefs
from rulekit.play.wrapping import Cells, RowTable

if TYPE_CHECKING:
    from rulekit.engine.decisions import Decision
    from rulekit.play.prompt import Label
    from rulekit.play.render import Renderer, SeenPile

EMPTY = "-"
FACE_DOWN = "face down"

Shown = list[Text] | RenderableType | None
"""What a panel's item shows: short cells (a list), a block of lines of its own, or nothing."""


@dataclass
class _Shown:
    """What an item shows: short cells, and blocks of lines."""

    cells: list[Text] = field(default_factory=list)
    blocks: list[RenderableType] = field(default_factory=list)

    def result(self) -> list[Text] | RenderableType:
        """The cells alone, or the blocks with the cells under them."""
        if not self.blocks:
            return self.cells
        return Group(*self.blocks, *([Cells(self.cells)] if self.cells else []))


class Table:
    """The pack's ``display:`` section, applied to a game's observations."""

    def __init__(self, render: Renderer, display: Display) -> None:
        self.render = render
        self.game = render.game
        self.display = display
        self.beliefs = TableBeliefs(self.game)  # where hidden pieces may be, per viewer

    # ------------------------------------------------------------ names and words

    def name(self, ref: str) -> str:
        """The pack's name of a zone or variable."""
        return self.display.names.get(ref) or ref.replace("_", " ")

    def word(self, value: object) -> str:
        """A value in the pack's words."""
        if isinstance(value, str) and value in self.display.words:
            return self.display.words[value]
        return self.render.value(value)

    def card_fill(self, template: str, card: str) -> str:
        """A template filled with a card's name, id and properties."""
        props = self.game.symbols.cards.get(card, {})
        values = {key: self.word(value) for key, value in props.items()}
        values["name"] = self.game.label(card)
        values.setdefault("id", card)
        try:
            return template.format_map(_Missing(values))
        except (ValueError, IndexError):
            return template

    def card_text(self, card: object) -> str | None:
        """A card's text: its type's template, else its ``text``."""
        if not isinstance(card, str) or card not in self.game.symbols.cards:
            return None
        props = self.game.symbols.cards[card]
        template = self.display.cards.get(str(props.get("type")))
        if template is not None:
            return self.card_fill(template, card)
        text = props.get("text")
        return text if isinstance(text, str) and text else None

    # ------------------------------------------------------------ decisions

    def prompt(self, decision: Decision) -> str:
        """The question, in the pack's words if it rewrites it."""
        asking = self.display.asking(decision.prompt)
        return asking.ask if asking is not None and asking.ask else decision.prompt

    def labeler(self, decision: Decision, obs: Observation) -> Label:
        """How the options of ``decision`` are named to the chooser.

        A row table's pile number is named by row and side. Otherwise a choice's own ``label`` names
        it. A text value goes by its word, anything else by its name. ``obs`` is what the chooser
        sees.
        """
        asking = self.display.asking(decision.prompt)
        row = self.display.rows.get(asking.options) if asking and asking.options else None

        def label(item: object) -> str:
            on_row = self._on_row(row, item, obs) if row is not None else None
            if on_row:
                return on_row
            labelled = decision.item_label(item)
            if labelled is not None:
                return labelled
            if isinstance(item, str) and item in self.display.words:
                return self.display.words[item]
            return self.game.label(item)

        return label

    def _on_row(self, row: Row, item: object, obs: Observation) -> str | None:
        """The row and side of a pile number, if it has them."""
        if not isinstance(item, int) or isinstance(item, bool):
            return None
        for column in row.columns:
            k = column.row_of(item)
            if k is not None:
                return self._row_side(row, column, k, obs)
        return None

    def _row_side(self, row: Row, column: Column, k: int, obs: Observation) -> str:
        """``card 2, left``, and the row's card texts for that side."""
        where = f"{row.each or row.name or 'row'} {k}"
        side = column.side or column.name
        card = self._card_on(row, k, obs)
        texts = [self.card_fill(c.card, card) for c in row.columns
                 if c.card and c.side == column.side and card is not None]
        return f"{where}, {side}" + (f": {', '.join(texts)}" if texts else "")

    def _card_on(self, row: Row, k: int, obs: Observation) -> str | None:
        """The card of row ``k``, if the viewer sees one."""
        cards = obs["zones"].get(zone_key(row.zone, str(k)), {}).get("cards") or []
        return cards[0] if cards and isinstance(cards[0], str) else None

    # ------------------------------------------------------------ panels

    def status(self, obs: Observation, role: str) -> list[RenderableType]:
        """The status block: the panels marked ``status``, untitled."""
        out: list[RenderableType] = []
        for panel in self.display.panels:
            if panel.status:
                out += self.items(panel, obs, role, brief=True)
        return out

    def panels(self, obs: Observation, role: str) -> list[RenderableType]:
        """Every panel under its title."""
        sections: list[RenderableType] = []
        for panel in self.display.panels:
            lines = self.items(panel, obs, role)
            if lines:
                sections.append(Group(Text(panel.name, style=STYLE_SECTION), *lines))
        return sections

    def items(self, panel: Panel, obs: Observation, role: str,
              brief: bool = False) -> list[RenderableType]:
        """The lines of a panel.

        Short cells of consecutive items share lines. The status block (``brief``) leaves out empty
        piles.
        """
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

    def item(self, item: Item, obs: Observation, role: str, brief: bool = False) -> Shown:
        """An item's short cells, or its own block of lines."""
        if item.kind == "row":
            return self.row(self.display.rows[item.ref], obs)
        if item.kind == "zone":
            return self.zone(item, obs, role, brief)
        return self.variable(item, obs, role)

    def _keys(self, item: Item, role: str, per: str | int | None) -> list[tuple[str, str]]:
        """Each value of an item: its key and the name shown."""
        name = item.name or self.name(item.ref)
        if per is None:
            return [(item.ref, name)]
        if per == "role":
            return self._role_keys(item, role, name)
        return [(zone_key(item.ref, i), f"{name} {self.game.label(i)}")
                for i in self.game.symbols.index_domain(per)]

    def _role_keys(self, item: Item, role: str, name: str) -> list[tuple[str, str]]:
        """A per-role item's keys: the viewer's, or each role's."""
        if item.whose == "you":
            return [(zone_key(item.ref, role), name)]
        return [(zone_key(item.ref, r), f"{self.render.name(r)}: {name}")
                for r in self.game.roles]

    def _of(self, item: Item) -> str:
        """`` of N``: the most a value may reach, if given."""
        if item.of is None:
            return ""
        total = self.game.params.get(item.of, 0) if isinstance(item.of, str) else item.of
        return f" of {self.render.value(total)}"

    # ------------------------------------------------------------ variables

    def variable(self, item: Item, obs: Observation, role: str) -> Shown:
        """A variable's values, as cells or positions."""
        decl = self.game.symbols.variables[item.ref]
        shown = _Shown()
        for key, name in self._keys(item, role, decl.per):
            if key not in obs["vars"]:
                self._show_secret(shown, item, key, name, obs, role)
            elif obs["vars"][key] is not None:  # None: not on the table yet
                self._show_value(shown, item, name, obs["vars"][key], obs)
        return shown.result()

    def _show_secret(self, shown: _Shown, item: Item, key: str, name: str, obs: Observation,
                     role: str) -> None:
        """A hidden value: where it may be, or ``secret``."""
        if item.belief:
            shown.blocks.append(self.belief(key, name, obs, role))
        else:
            shown.cells.append(Text(f"{name}: secret", style=STYLE_HIDDEN))

    def _show_value(self, shown: _Shown, item: Item, name: str, value: object,
                    obs: Observation) -> None:
        """A value seen: a position with its routes, or a cell."""
        if item.routes and isinstance(value, str) and value in self.render.board.nodes:
            shown.blocks.append(self._position(name, value, obs))
        else:
            shown.cells.append(Text.assemble((f"{name} ", STYLE_HEAD),
                                             self.word(value) + self._of(item)))

    def _position(self, name: str, node: str, obs: Observation) -> Cells:
        """Where a piece stands, and where its routes lead."""
        board_text = self.render.board_text
        head = Text.assemble((f"{name}: ", STYLE_HEAD), (board_text.node_text(node), STYLE_CARD))
        routes = board_text.route_names(node, obs["zones"])
        return Cells([Text(r) for r in routes], head + Text("; routes to ") if routes else head,
                     separator=", ")

    def belief(self, key: str, name: str, obs: Observation, role: str) -> RenderableType:
        """Where a hidden value may be, from the viewer's belief."""
        weights, stale = self.beliefs.weights(role, key, obs)
        if stale:  # said so: the places once worked out may no longer all be possible
            name = f"{name} (lost track; last worked out)"
        if weights is None:
            return Cells([Text("anywhere the rules allow", style=STYLE_HIDDEN)],
                         Text(f"{name} may be: ", style=STYLE_HEAD))
        cells, separators = self._places(weights)
        return Cells(cells, Text(f"{name} may be in ", style=STYLE_HEAD), separator=", ",
                     separators=separators)

    def _places(self, values: Iterable[object]) -> tuple[list[Text], list[str]]:
        """Places by region in one flow: ``Europe: London, Paris; ...``.

        Values that are not places come last. The separator before each cell comes too.
        """
        by_region, others = self._by_region(values)
        cells: list[Text] = []
        separators: list[str] = []
        for region, names in by_region.items():
            cells += [Text.assemble((f"{self.game.label(region)}: ", STYLE_HEAD), names[0]),
                      *names[1:]]
            separators += ["; "] + [", "] * (len(names) - 1)
        return cells + others, separators + [", "] * len(others)

    def _by_region(self, values: Iterable[object]) -> tuple[dict[str, list[Text]], list[Text]]:
        """Places' names by region in the board's order, and other values."""
        nodes = self.render.board.nodes
        order = {node: i for i, node in enumerate(nodes)}
        places: dict[str, list[Text]] = {}
        others: list[Text] = []
        def board_order(value: object) -> tuple[int, str]:
            at = order.get(value, len(order)) if isinstance(value, str) else len(order)
            return at, str(value)

        for value in sorted(values, key=board_order):
            region = nodes.get(value, {}).get("region") if isinstance(value, str) else None
            if isinstance(region, str):
                places.setdefault(region, []).append(Text(self.game.label(value)))
            else:
                others.append(Text(self.word(value)))
        return places, others

    # ------------------------------------------------------------ zones

    def zone(self, item: Item, obs: Observation, role: str, brief: bool = False) -> Shown:
        """A zone's piles: counts, or their cards."""
        decl = self.game.symbols.zones[item.ref]
        shown = _Shown()
        for key, name in self._keys(item, role, decl.per):
            data = obs["zones"].get(key)
            if data is not None:
                self._show_pile(shown, item, name, data, brief)
        return shown.result()

    def _show_pile(self, shown: _Shown, item: Item, name: str, data: SeenPile,
                   brief: bool) -> None:
        """A pile: its count, its cards, or ``none``.

        The status block leaves out an empty pile.
        """
        cards = data.get("cards")
        if item.count or cards is None:
            hidden = "" if item.count else f" {FACE_DOWN}"
            shown.cells.append(Text.assemble((f"{name} ", STYLE_HEAD),
                                             f"{int(data.get('count', 0))}{hidden}"))
        elif cards:
            shown.blocks += self.cards(item, name, cards)
        elif not brief:
            shown.cells.append(Text.assemble((f"{name}: ", STYLE_HEAD), ("none", STYLE_HIDDEN)))

    def cards(self, item: Item, name: str, cards: list[str | None]) -> list[RenderableType]:
        """A visible pile's cards, as ``Name ×2``, grouped if asked."""
        known = [c for c in cards if isinstance(c, str)]
        lines: list[RenderableType] = []
        for group, members in self._groups(item, known).items():
            head = f"{name} ({group}): " if group else f"{name}: "
            lines.append(Cells(self._counted(members), Text(head, style=STYLE_HEAD),
                               separator=", "))
        unknown = len(cards) - len(known)
        if unknown:
            lines.append(Text(f"  {name}: {unknown} {FACE_DOWN}", style=STYLE_HIDDEN))
        return lines

    def _groups(self, item: Item, cards: list[str]) -> dict[str, list[str]]:
        """Cards by the item's ``group`` property, in the pack's order."""
        props = self.game.symbols.cards
        sort = item.sort
        if sort is not None:
            cards = sorted(cards, key=lambda c: -_number(props.get(c, {}).get(sort)))
        if not item.group:
            return {"": cards} if cards else {}
        groups: dict[str, list[str]] = {}
        for card in cards:
            groups.setdefault(self.word(props.get(card, {}).get(item.group)), []).append(card)
        first: dict[str, int] = {}
        for i, card_props in enumerate(props.values()):
            first.setdefault(self.word(card_props.get(item.group)), i)
        return dict(sorted(groups.items(), key=lambda kv: first.get(kv[0], 0)))

    def _counted(self, cards: list[str]) -> list[Text]:
        """Card names with their counts: ``Ace ×2``."""
        counted: dict[str, int] = {}
        for card in cards:
            label = self.game.label(card)
            counted[label] = counted.get(label, 0) + 1
        return [Text(label + (f" ×{n}" if n > 1 else ""), style=STYLE_CARD)
                for label, n in counted.items()]

    # ------------------------------------------------------------ row tables

    def row(self, row: Row, obs: Observation) -> RenderableType:
        """A row table: a line per pile of a numbered zone."""
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

    def cell(self, column: Column, k: int, card: str | None, obs: Observation) -> Text:
        """A row table's cell: a text of its card, or a top card."""
        if column.card is not None:
            return Text(self.card_fill(column.card, card) if card else EMPTY)
        for zone in column.zones:
            data = obs["zones"].get(zone_key(zone, str(column.index(k))), {})
            if data.get("count"):
                return self._top_card(data.get("cards"))
        return Text(EMPTY, style=STYLE_HIDDEN)

    def _top_card(self, cards: list[str | None] | None) -> Text:
        """The top card of a pile, or ``face down``."""
        top = cards[-1] if cards else None
        if top is None:
            return Text(FACE_DOWN, style=STYLE_HIDDEN)
        return Text(self.game.label(top), style=STYLE_CARD)


class _Missing(dict[str, str]):
    """Template values; an unknown key stays as written."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _number(value: object) -> float:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) \
        else 0.0


__all__ = ["Table"]
