"""A pack's ``display:`` section for one player: status block, panels, row tables, contexts."""

from __future__ import annotations

import contextlib
import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.text import Text

from rulekit.bots.belief import Belief, BeliefLost, follow_past
from rulekit.engine.game import Game, State
from rulekit.engine.observe import Observation
from rulekit.engine.state import Frame
from rulekit.model.program import zone_key
from rulekit.pack.display import Column, Display, Item, Panel, Row
from rulekit.play.styles import STYLE_CARD, STYLE_HEAD, STYLE_HIDDEN, STYLE_SECTION
from rulekit.play.wrapping import Cells, RowTable

if TYPE_CHECKING:
    from rulekit.engine.decisions import Decision
    from rulekit.play.prompt import Label
    from rulekit.play.render import Renderer, SeenPile

EMPTY = "-"
SHORT_PLACES = 40  # places that share a line with other short values
LINE_PLACES = 64  # places the status block lists on a line of their own; more are counted
FACE_DOWN = "face down"
BELIEF_CAPS = {"particles": 64, "frontier": 128, "keep": 12}  # room for many hidden moves

Shown = list[Text] | RenderableType | None  # short cells, a block of lines, or nothing
Weights = dict[object, float]  # how likely each value of a hidden variable is


@dataclass
class _Shown:
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

    def name(self, ref: str) -> str:
        return self.display.names.get(ref) or ref.replace("_", " ")

    def word(self, value: object) -> str:
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

    def prompt(self, decision: Decision) -> str:
        """The question, in the pack's words if it rewrites it."""
        asking = self.display.asking(decision.prompt)
        return asking.ask if asking is not None and asking.ask else decision.prompt

    def labeler(self, decision: Decision, obs: Observation) -> Label:
        """How the options of ``decision`` are named to the chooser, who sees ``obs``."""
        row = self._options_row(decision)
        board = self.render.board_text

        def label(item: object) -> str:
            on_row = self._on_row(row, item, obs) if row is not None else None
            if on_row:
                return on_row
            text = decision.item_label(item)
            if text is None and isinstance(item, str) and item in self.display.words:
                text = self.display.words[item]
            text = self.game.label(item) if text is None else text
            marks = board.node_marks(item, obs["zones"]) \
                if isinstance(item, str) and item in board.board.nodes else []
            return text + (f" [{', '.join(marks)}]" if marks else "")

        return label

    def _options_row(self, decision: Decision) -> Row | None:
        """The row table that names the options of ``decision``, if the pack gives one."""
        asking = self.display.asking(decision.prompt)
        return self.display.rows.get(asking.options) if asking and asking.options else None

    def _on_row(self, row: Row, item: object, obs: Observation) -> str | None:
        place = _row_place(row, item) if type(item) is int else None
        if place is None:
            return None
        column, k = place
        card = self._card_on(row, k, obs)
        texts = [self.card_fill(c.card, card) for c in row.columns
                 if c.card and c.side == column.side and card is not None]
        where = f"{row.each or row.name or 'row'} {k}, {column.side or column.name}"
        return where + (f": {', '.join(texts)}" if texts else "")

    def _card_on(self, row: Row, k: int, obs: Observation) -> str | None:
        cards = obs["zones"].get(zone_key(row.zone, str(k)), {}).get("cards") or []
        return cards[0] if cards and isinstance(cards[0], str) else None

    def keys(self, decision: Decision, obs: Observation, role: str,
             items: list[object] | None = None) -> list[str] | None:
        """The keys of ``items`` (the decision's by default), if they are known by one."""
        items = decision.items if items is None else items
        if not items:
            return None
        if all(type(item) is int for item in items):
            row = self._options_row(decision)
            return self._row_keys(row, items) if row is not None else list(map(str, items))
        if not all(isinstance(item, str) for item in items):
            return None
        names = [str(item) for item in items]
        return self._spot_keys(names) or self._card_keys(decision, names, obs, role)

    def _spot_keys(self, items: list[str]) -> list[str] | None:
        """The numbers of regions or edges, in the map's order."""
        board = self.render.board
        regions, edges = list(board.regions), list(board.edges)
        for spots in (regions, edges, regions + edges):  # (a move's steps differ)
            if all(item in spots for item in items):
                return [str(spots.index(item) + 1) for item in items]
        return None

    def _card_keys(self, decision: Decision, items: list[str], obs: Observation, role: str
                   ) -> list[str] | None:
        """The cards' numbers by the asking's ``key``, else their places in a shown pile."""
        cards = self.game.symbols.cards
        if not all(item in cards for item in items):
            return None
        asking = self.display.asking(decision.prompt)
        if asking is not None and asking.key is not None:
            values = [cards[item].get(asking.key) for item in items]
            return [str(v) for v in values] if all(type(v) is int for v in values) else None
        places = self._places_in_pile(items, obs, role)
        return None if places is None else list(map(str, places))

    def _row_keys(self, row: Row, items: list[object]) -> list[str] | None:
        """``2l``: the row of each pile number and its column's side, told apart by initial."""
        keys = []
        for item in items:
            place = _row_place(row, int(str(item)))
            if place is None:
                return None
            column, k = place
            keys.append(f"{k}{(column.side or column.name)[:1].lower()}")
        return keys

    def _places_in_pile(self, items: list[str], obs: Observation, role: str
                        ) -> list[int] | None:
        """Each card's place (1, 2...) in the first shown pile that holds them all."""
        for panel in self.display.panels:
            for item in panel.items:
                if item.kind != "zone" or item.count:  # (a count lists no cards)
                    continue
                for key, _ in self._keys(item, role):
                    known = [c for c in obs["zones"].get(key, {}).get("cards") or []
                             if isinstance(c, str)]
                    places = _places(items, self.shown_order(item, known))
                    if places is not None:
                        return places
        return None

    def shown_order(self, item: Item, cards: list[str]) -> list[str]:
        """A pile's cards in the order the table lists them, copies side by side."""
        order: list[str] = []
        for members in self._groups(item, cards).values():
            labels = list(dict.fromkeys(self.game.label(card) for card in members))
            order += sorted(members, key=lambda card: labels.index(self.game.label(card)))
        return order

    def ending(self, states: list[State]) -> list[RenderableType]:
        """A finished game's summary: its rounds, public counts, and where hidden pieces went."""
        last = states[-1]
        obs = self.game.observe(last, self.game.roles[0])
        public = tuple(item for panel in self.display.panels if panel.status
                       for item in panel.items if item.whose != "you" and item.kind != "row"
                       and not item.belief and not item.routes)
        rounds = last.get("round") or 0
        lines: list[RenderableType] = [Text(
            f"{rounds} {self.display.round}{'s' if rounds != 1 else ''} played", style=STYLE_HEAD)]
        lines += self.items(Panel("", public), obs, self.game.roles[0], brief=True)
        for panel in self.display.panels:
            lines += [self._trail(item, states) for item in panel.items
                      if item.belief and item.kind == "var"]
        return lines

    def _trail(self, item: Item, states: list[State]) -> RenderableType:
        """Each place a variable held, by round: ``setup: Lima; round 1: Bogotá, Miami``."""
        by_round: dict[int, list[str]] = {}
        before: object = None
        for state in states:
            value = state["vars"].get(item.ref)
            if value is not None and value != before:
                by_round.setdefault(int(state.get("round") or 0), []).append(
                    self.game.label(value) if isinstance(value, str) else self.word(value))
            before = value
        cells, separators = _in_groups(
            [(f"{self.display.round} {number}" if number else "setup", list(map(Text, places)))
             for number, places in by_round.items()])
        name = item.name or self.name(item.ref)
        return Cells(cells, Text(f"Where {name} went: ", style=STYLE_SECTION), separator=", ",
                     separators=separators)

    def status(self, obs: Observation, role: str) -> list[RenderableType]:
        """The status block: the panels marked ``status``, untitled."""
        return [line for panel in self.display.panels if panel.status
                for line in self.items(panel, obs, role, brief=True)]

    def panels(self, obs: Observation, role: str) -> list[RenderableType]:
        return [Group(Text(panel.name, style=STYLE_SECTION), *lines)
                for panel in self.display.panels if (lines := self.items(panel, obs, role))]

    def items(self, panel: Panel, obs: Observation, role: str,
              brief: bool = False) -> list[RenderableType]:
        """The lines of a panel. Short cells share lines. ``brief`` leaves out empty piles."""
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

    def _keys(self, item: Item, role: str) -> list[tuple[str, str]]:
        """The key and name of each pile or value an item shows."""
        symbols = self.game.symbols
        per = (symbols.zones if item.kind == "zone" else symbols.variables)[item.ref].per
        name = item.name or self.name(item.ref)
        if per is None:
            return [(item.ref, name)]
        if per == "role" and item.whose == "you":
            return [(zone_key(item.ref, role), name)]
        if per == "role":
            return [(zone_key(item.ref, r), f"{self.render.name(r)}: {name}")
                    for r in self.game.roles]
        return [(zone_key(item.ref, i), f"{name} {self.game.label(i)}")
                for i in symbols.index_domain(per)]

    def _of(self, item: Item) -> str:
        if item.of is None:
            return ""
        total = self.game.params.get(item.of, 0) if isinstance(item.of, str) else item.of
        return f" of {self.render.value(total)}"

    def variable(self, item: Item, obs: Observation, role: str) -> Shown:
        """A variable's values, as cells or positions."""
        shown = _Shown()
        for key, name in self._keys(item, role):
            value = obs["vars"].get(key)
            if key not in obs["vars"] and item.belief:
                shown.blocks.append(self.belief(key, name, obs, role))
            elif key not in obs["vars"]:
                shown.cells.append(Text(f"{name}: secret", style=STYLE_HIDDEN))
            elif value is None:  # not on the table yet
                continue
            elif item.routes and isinstance(value, str) and value in self.render.board.nodes:
                shown.blocks.append(self._position(name, value, obs))
            else:
                shown.cells.append(Text.assemble((f"{name} ", STYLE_HEAD),
                                                 self.word(value) + self._of(item)))
        return shown.result()

    def _position(self, name: str, node: str, obs: Observation) -> Cells:
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
        cells, separators = self._by_region(weights)
        return Cells(cells, Text(f"{name} may be in ", style=STYLE_HEAD), separator=", ",
                     separators=separators)

    def _by_region(self, values: Iterable[object]) -> tuple[list[Text], list[str]]:
        """Places by region in one flow (``Europe: London, Paris; ...``), and the separators."""
        nodes = self.render.board.nodes
        order: dict[object, int] = {node: i for i, node in enumerate(nodes)}
        places: dict[str, list[Text]] = {}
        others: list[Text] = []
        for value in sorted(values, key=lambda value: (order.get(value, len(order)), str(value))):
            region = nodes.get(value, {}).get("region") if isinstance(value, str) else None
            if isinstance(region, str):
                places.setdefault(region, []).append(Text(self.game.label(value)))
            else:
                others.append(Text(self.word(value)))
        cells, separators = _in_groups([(self.game.label(region), names)
                                        for region, names in places.items()])
        return cells + others, separators + [", "] * len(others)

    def zone(self, item: Item, obs: Observation, role: str, brief: bool = False) -> Shown:
        """A zone's piles: counts, or their cards; with ``places``, where they lie."""
        if item.places:
            return self._places_held(item, obs, brief)
        shown = _Shown()
        for key, name in self._keys(item, role):
            data = obs["zones"].get(key)
            if data is not None:
                self._show_pile(shown, item, name, data, brief)
        return shown.result()

    def _places_held(self, item: Item, obs: Observation, brief: bool) -> Shown:
        """The places whose pile holds a card, with their ``mark`` words; ``brief`` counts many."""
        per = self.game.symbols.zones[item.ref].per
        places = []
        for place in self.game.symbols.index_domain(per) if per is not None else ():
            if obs["zones"].get(zone_key(item.ref, place), {}).get("count"):
                words = [word for var, word in item.mark.items()
                         if obs["vars"].get(zone_key(var, place))]
                places.append(self.game.label(place) + (f" ({', '.join(words)})" if words
                                                        else ""))
        name = item.name or self.name(item.ref)
        if not places:
            return None
        if len(", ".join(places)) <= SHORT_PLACES:
            return [Text.assemble((f"{name}: ", STYLE_HEAD), ", ".join(places))]
        if brief and len(", ".join(places)) > LINE_PLACES:  # counted; a route's are marked
            return [Text.assemble((f"{name} ", STYLE_HEAD), str(len(places)),
                                  (" (board lists them)", STYLE_HIDDEN))]
        return Cells([Text(place) for place in places], Text(f"{name}: ", style=STYLE_HEAD),
                     separator=", ")

    def _show_pile(self, shown: _Shown, item: Item, name: str, data: SeenPile,
                   brief: bool) -> None:
        """A pile's count, cards, or ``none``; the status block leaves out an empty one."""
        cards = data.get("cards")
        short = self._short_cards(item, cards) if brief and cards else None
        if item.count or cards is None:
            hidden = "" if item.count else f" {FACE_DOWN}"
            shown.cells.append(Text.assemble((f"{name} ", STYLE_HEAD),
                                             f"{int(data.get('count', 0))}{hidden}"))
        elif short is not None:
            shown.cells.append(Text.assemble((f"{name}: ", STYLE_HEAD), (short, STYLE_CARD)))
        elif cards:
            shown.blocks += self.cards(item, name, cards)
        elif not brief:
            shown.cells.append(Text.assemble((f"{name}: ", STYLE_HEAD), ("none", STYLE_HIDDEN)))

    def _short_cards(self, item: Item, cards: list[str | None]) -> str | None:
        """A pile's cards as one short text, if none is face down and they are not grouped."""
        known = [c for c in cards if c is not None]
        if item.group or len(known) < len(cards):
            return None
        text = ", ".join(c.plain for c in self._counted(known))
        return text if len(text) <= SHORT_PLACES else None

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
        counted = Counter(self.game.label(card) for card in cards)
        return [Text(label + (f" ×{n}" if n > 1 else ""), style=STYLE_CARD)
                for label, n in counted.items()]

    def row(self, row: Row, obs: Observation) -> RenderableType | None:
        """A row table: a line per pile of a numbered zone; None while every cell is empty."""
        per = self.game.symbols.zones[row.zone].per
        count = per if isinstance(per, int) else 0
        header = [(row.each or "#").capitalize()] + [c.name for c in row.columns]
        lines = [[Text(str(k), style=STYLE_HEAD)] + [self.cell(row, c, k, obs) for c in row.columns]
                 for k in range(1, count + 1)]
        if all(cell.plain == EMPTY for line in lines for cell in line[1:]):
            return None
        title = Text(row.name, style=STYLE_SECTION) if row.name else None
        return RowTable(title, header, lines)

    def cell(self, row: Row, column: Column, k: int, obs: Observation) -> Text:
        """A row table's cell: a text of the card on row ``k``, or a top card."""
        if column.card is not None:
            card = self._card_on(row, k, obs)
            return Text(self.card_fill(column.card, card) if card else EMPTY)
        for zone in column.zones:
            data = obs["zones"].get(zone_key(zone, str(column.index(k))), {})
            if data.get("count"):
                top = (data.get("cards") or [None])[-1]
                if top is None:
                    return Text(FACE_DOWN, style=STYLE_HIDDEN)
                return Text(self.game.label(top), style=STYLE_CARD)
        return Text(EMPTY, style=STYLE_HIDDEN)


def _row_place(row: Row, number: int) -> tuple[Column, int] | None:
    """The column and row of a row table that show pile ``number``, if any."""
    return next(((column, k) for column in row.columns
                 if (k := column.row_of(number)) is not None), None)


def _in_groups(groups: list[tuple[str, list[Text]]]) -> tuple[list[Text], list[str]]:
    """Named groups in one flow (``Europe: London, Paris; Asia: ...``), and the separators."""
    cells: list[Text] = []
    separators: list[str] = []
    for head, members in groups:
        cells += [Text.assemble((f"{head}: ", STYLE_HEAD), members[0]), *members[1:]]
        separators += ["; "] + [", "] * (len(members) - 1)
    return cells, separators


def _places(items: list[str], order: list[str]) -> list[int] | None:
    """The place in ``order`` of each item (a copy's next place for each copy), if all are."""
    free: dict[str, list[int]] = {}
    for at, card in enumerate(order, 1):
        free.setdefault(card, []).append(at)
    places: list[int] = []
    for item in items:
        if not free.get(item):
            return None
        places.append(free[item].pop(0))
    return places


class TableBeliefs:
    """The beliefs of the viewers of one game's table."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.beliefs: dict[str, Belief] = {}
        # Per role, observations its belief has yet to follow: its past hands are in no log.
        self.past: dict[str, list[Observation]] = {}
        # Per (viewer, key), the values last shown: log length, values, whether stale.
        self.shown: dict[tuple[str, str], tuple[int, Weights, bool]] = {}

    def follow(self, role: str, observations: list[Observation]) -> None:
        """Have ``role``'s belief follow these earlier observations first."""
        self.past.setdefault(role, []).extend(observations)

    def weights(self, role: str, key: str, obs: Observation) -> tuple[Weights | None, bool]:
        """The values ``key`` may have for ``role`` at ``obs``, and whether they are stale."""
        where, length = (role, key), len(obs.get("log", ()))
        found = self.shown.get(where)
        if found is not None and found[0] == length:
            return found[1], found[2]
        try:
            weights, stale = self._belief(role, obs).distribution(key), False
        except BeliefLost:  # not worked out afresh from the whole game: too slow at a table
            if found is None:
                return None, False
            weights, stale = found[1], True
        self.shown[where] = (length, weights, stale)
        return weights, stale

    def _belief(self, role: str, obs: Observation) -> Belief:
        past = self.past.pop(role, None)
        belief = self.beliefs.get(role)
        if belief is not None:
            with contextlib.suppress(ValueError):  # another game, or an earlier point (a replay)
                follow_past(belief, past)
                return belief.update(obs)
        belief = Belief(self.game, role, random.Random(f"{self.game.pack_id}:{role}"),
                        **BELIEF_CAPS)
        self.beliefs[role] = belief
        follow_past(belief, past)
        return belief.update(obs)


class _Card:
    """A card in a template: its name, and its properties as attributes."""

    def __init__(self, card: str, table: Table) -> None:
        self.card = card
        self.table = table

    def __format__(self, spec: str) -> str:
        return self.table.game.label(self.card)

    def __getattr__(self, prop: str) -> str:
        props = self.table.game.symbols.cards.get(self.card, {})
        return self.table.word(props.get(prop))


class Context:
    """What each question is about, from the ``context:`` templates of the procedures asking."""

    def __init__(self, game: Game, table: Table) -> None:
        self.game = game
        self.table = table
        self.templates = table.display.context
        self.call: list[object] = []  # the call asking the last question (its name, args, pc)
        self.steps: list[object] = []  # the locals it had at each of its questions in a row

    def text(self, state: State, decider: str) -> str | None:
        """The context of the question ``state`` waits on, if any, as ``decider`` reads it."""
        if not self.templates:
            return None
        stack = state["stack"]
        step = self._step(stack)
        seen = self.game.observe(state, decider)["vars"]
        parts = [self._part(frame, step, depth == len(stack) - 1, decider, seen)
                 for depth, frame in enumerate(stack)]
        return ", ".join(part for part in parts if part is not None) or None

    def _part(self, frame: Frame, step: int, innermost: bool, decider: str,
              seen: dict[str, object]) -> str | None:
        template = self.templates.get(frame["proc"])
        if template is None or ("{step" in template and not innermost):
            return None
        decl = self.game.symbols.procedures[frame["proc"]]
        values = _Values(seen)
        values["step"] = step
        for (param, kind), value in zip(decl.params, frame["locals"], strict=False):
            if kind == "role" and isinstance(value, str):
                values[param] = _Role(value, self.table.render.name(value), decider)
            elif kind == "card" and isinstance(value, str):
                values[param] = _Card(value, self.table)
            else:
                values[param] = self.table.word(value)
        try:
            return template.format_map(values)
        except (KeyError, AttributeError, ValueError, IndexError):
            return None

    def _step(self, stack: list[Frame]) -> int:
        """The number of the question the innermost call asks, in a row (``{step}``)."""
        calls: list[object] = []
        for depth, frame in enumerate(stack, 1):
            decl = self.game.symbols.procedures.get(frame["proc"])
            arity = len(decl.params) if decl is not None else 0
            where = frame["pc"] if depth < len(stack) else None  # (two questions of one call)
            calls.append([frame["proc"], where, frame["locals"][:arity]])
        now = stack[-1]["locals"]
        if calls != self.call:
            self.call, self.steps = calls, []
        if now not in self.steps:  # a question asked again (after an action) is one step
            self.steps.append(now)
        return self.steps.index(now) + 1


class _Role:
    """A role in a context: its name; ``{p:your}`` reads "your" to that role, else "Name's"."""

    def __init__(self, role: str, name: str, decider: str) -> None:
        self.role = role
        self.name = name
        self.decider = decider

    def __format__(self, spec: str) -> str:
        if spec == "your":
            return "your" if self.role == self.decider else f"{self.name}'s"
        return self.name


class _Values(dict[str, object]):
    """A context's values: a call's parameters, the decider's variables; ``a+b`` a sum."""

    def __init__(self, seen: dict[str, object]) -> None:
        super().__init__()
        self.seen = seen

    def __missing__(self, key: str) -> object:
        if key in self.seen:
            return self.seen[key]
        if "+" not in key:
            raise KeyError(key)
        parts = [str(self[part.strip()]) for part in key.split("+")]
        if not all(part.isdigit() for part in parts):
            raise KeyError(key)
        return sum(map(int, parts))


class _Missing(dict[str, str]):
    """Template values; an unknown key stays as written."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _number(value: object) -> float:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0.0
