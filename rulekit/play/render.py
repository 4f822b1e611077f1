"""What a player sees, as rich renderables: their view of the game, the events, a decision's
menu, the whole map, and the help.

Everything shown comes from ``game.observe(state, role)`` (never the raw state) and from the
names a pack gives (``game.label``). Piles: the player's own with every card, public ones with
their cards (or a count and the top card when long), hidden ones as a count; piles per edge,
region, node or number only when not empty. Variables: those the player may see; values naming
a card, node, region or role by their names. A map shows the known positions with their routes,
and the tokens on routes and regions. Nothing here knows any particular game.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.rule import Rule
from rich.text import Text

from rulekit.engine.decisions import NONE_ID, Decision
from rulekit.engine.game import Game
from rulekit.engine.state import Event
from rulekit.model.program import zone_key
from rulekit.pack.display import Display
from rulekit.play.prompt import Menu
from rulekit.play.table import Table

if TYPE_CHECKING:
    from rulekit.play.menuview import MenuBlock

LONG_PILE = 8  # a public pile with more different cards than this is shown as a count
BOARD_KINDS = ("node", "edge", "region")

STYLE_TITLE = "bold"
STYLE_SECTION = "bold underline"
STYLE_YOU = "bold green"
STYLE_ROLE = "bold magenta"
STYLE_CARD = "cyan"
STYLE_HIDDEN = "dim"
STYLE_PRIVATE = "yellow"
STYLE_KEY = "bold cyan"
STYLE_ERROR = "bold red"
STYLE_END = "bold reverse"


def humanize(name: str) -> str:
    """A zone or variable id as text: ``action_discard`` -> ``action discard``."""
    return name.replace("_", " ")


@dataclass(frozen=True)
class Slot:
    """One pile of a zone, or one value of a variable, as the observation keys it."""

    key: str
    name: str
    index: str | None
    per: str | int | None
    owner: str | None  # the role it belongs to, if any
    initial: Any = None
    type: str | None = None
    visibility: str = "public"

    @property
    def per_board(self) -> bool:
        return self.per in BOARD_KINDS

    @property
    def per_number(self) -> bool:
        return isinstance(self.per, int)


def phase_names(documents: Iterable[Any]) -> dict[str, str]:
    """Phase id -> display name, read from a loaded pack's ``flow`` section."""
    names: dict[str, str] = {}
    for doc in documents:
        data = getattr(doc, "data", None)
        flow = data.get("flow") if isinstance(data, dict) else None
        phases = flow.get("phases") if isinstance(flow, dict) else None
        for phase in phases if isinstance(phases, list) else []:
            if isinstance(phase, dict) and isinstance(phase.get("id"), str):
                names[phase["id"]] = str(phase.get("name") or humanize(phase["id"]))
    return names


SHORT = 28  # a line whose name and value are this long or shorter shares a row
ROW = 76  # the width of such a row


class Hanging:
    """A menu line: its key, then a text that wraps under itself (not under the key), so
    that at any width a key stands alone at the left. Unwrapped where the console does not
    wrap (a piped transcript)."""

    def __init__(self, head: Text, body: Text, indent: int | None = None,
                 keep: Iterable[str] = ()) -> None:
        self.head = head
        self.body = body
        self.indent = indent  # of the wrapped lines (by default, the head's width)
        self.keep = keep  # names never broken between two lines

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        indent = len(self.head.plain) if self.indent is None else self.indent
        if console.soft_wrap or options.max_width <= indent + 10:
            yield self.head + self.body
            return
        for number, part in enumerate(wrap_keeping(self.body, options.max_width - indent,
                                                   self.keep)):
            part.rstrip()
            yield (self.head if number == 0 else Text(" " * indent)) + part


SHOWN_CLOSED = 3  # options not open now named under a menu; the rest counted


def closed_text(menu: Menu) -> Hanging | None:
    """The options the rules refuse now (a few by name), which typed get the pack's reason."""
    names = list(dict.fromkeys(text for text, _ in menu.refused))
    if not names:
        return None
    shown = "; ".join(names[:SHOWN_CLOSED])
    if len(names) > SHOWN_CLOSED:
        shown += f" and {len(names) - SHOWN_CLOSED} more"
    return Hanging(Text("  "), Text(f"Not open now: {shown} (type one to see why).",
                                    style=STYLE_HIDDEN), 4, names)


class Header:
    """The title line of a screen: its parts joined in a rule of ``=``; where they do not fit,
    the first part (the pack's name) is left out, so that no name is cut."""

    def __init__(self, parts: list[str]) -> None:
        self.parts = parts

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        parts = self.parts
        if len(" - ".join(parts)) + 4 > options.max_width and len(parts) > 1:
            parts = parts[1:]
        yield Rule(Text(" - ".join(parts), style=STYLE_TITLE), characters="=")


_COUNT = re.compile(r" [x×]\d+\b")  # the count after a name: " x2", " ×2"


def wrap_keeping(body: Text, width: int, keep: Iterable[str]) -> list[Text]:
    """``body`` cut into lines of at most ``width`` cells at spaces, never at a space inside
    one of the names ``keep`` (a word or name longer than a line stands alone on it)."""
    plain = body.plain
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
    lines: list[Text] = []
    start, fits = 0, -1  # the line's start; the last break that keeps it within width
    for at, char in enumerate(plain):
        if char != " " or inside[at]:
            continue
        if cell_len(plain[start:at]) <= width:
            fits = at
            continue
        cut = fits if fits > start else at
        lines.append(body[start:cut])
        start, fits = cut + 1, -1
        if cut != at and cell_len(plain[start:at]) <= width:
            fits = at
    if cell_len(plain[start:]) > width and fits > start:
        lines.append(body[start:fits])
        start = fits + 1
    lines.append(body[start:])
    return lines


@dataclass
class Line:
    """A line of a section of the table, and its short form if it may share a row."""

    text: Text
    short: Text | None = None


def _rows(lines: list[Line], keep: tuple[str, ...] = ()) -> list[RenderableType]:
    """Lines of a section, with the runs of short ones (sizes of hidden piles, small
    counters) put side by side in rows, so that the table fits a terminal: a line that stands
    alone keeps its long form, wrapped under itself, never inside one of the names ``keep``."""
    out: list[RenderableType] = []
    row: list[Text] = []
    alone: Text | None = None

    def flush() -> None:
        if len(row) == 1 and alone is not None:
            out.append(alone)
        elif row:
            joined = Text("  ")
            for i, item in enumerate(row):
                if i:
                    joined.append(" · ")
                joined.append_text(item)
            out.append(joined)
        row.clear()

    for line in lines:
        if line.short is None:
            flush()
            out.append(Hanging(line.text[:2], line.text[2:], 4, keep))
            continue
        if row and sum(len(t.plain) + 3 for t in row) + len(line.short.plain) > ROW:
            flush()
        if not row:
            alone = line.text
        row.append(line.short)
    flush()
    return out


def spaced_names(game: Game) -> tuple[str, ...]:
    """The names of a game's components and roles that have a space in them, longest first."""
    symbols = game.symbols
    ids = [*symbols.cards, *symbols.board.nodes, *symbols.board.regions]
    names = {game.label(i) for i in ids} | set(game.role_names.values())
    return tuple(sorted((n for n in names if " " in n), key=len, reverse=True))


def round_count(documents: Iterable[Any], params: dict[str, int]) -> int | None:
    """How many rounds a game has, when the pack's ``flow: rounds`` is a number or the name
    of a parameter (else None: the count is not known before the game ends)."""
    for doc in documents:
        data = getattr(doc, "data", None)
        flow = data.get("flow") if isinstance(data, dict) else None
        rounds = flow.get("rounds") if isinstance(flow, dict) else None
        if isinstance(rounds, int) and not isinstance(rounds, bool):
            return rounds
        if isinstance(rounds, str):
            text = rounds.strip()
            if text.isdigit() and len(text) < 7:
                return int(text)
            return params.get(text)
    return None


class Renderer:
    """Turns observations, events and decisions of one game into renderables."""

    def __init__(self, game: Game, phases: dict[str, str] | None = None,
                 rounds: int | None = None, display: Display | None = None) -> None:
        self.game = game
        self.display = display or Display()
        self.table = Table(self, self.display)
        self.names = spaced_names(game)  # never broken between two lines
        self.phases = phases or {}
        self.rounds = rounds
        symbols = game.symbols
        self.board = symbols.board
        self.zone_slots: list[Slot] = []
        for zone in symbols.zones.values():
            for key, index, owner in self._keys(zone.name, zone.per, zone.owner):
                self.zone_slots.append(Slot(key, zone.name, index, zone.per, owner,
                                            visibility=zone.visibility))
        self.var_slots: list[Slot] = []
        for var in symbols.variables.values():
            for key, index, owner in self._keys(var.name, var.per, var.owner):
                self.var_slots.append(Slot(key, var.name, index, var.per, owner, var.initial,
                                           var.type, var.visibility))
        self.anytime_labels = {"!" + decl.id: decl.label for decl in symbols.anytime}

    def _keys(self, name: str, per: str | int | None,
              owner: str | None) -> list[tuple[str, str | None, str | None]]:
        if per is None:
            return [(name, None, owner)]
        if per == "role":
            return [(zone_key(name, role), role, role) for role in self.game.roles]
        return [(zone_key(name, index), index, owner)
                for index in self.game.symbols.index_domain(per)]

    # ------------------------------------------------------------ values

    def name(self, role: str | None) -> str:
        if role is None:
            return "nobody"
        return self.game.role_names.get(role, role)

    def value(self, value: Any) -> str:
        """A variable's value as text: names for ids, yes/no, a dash for nothing."""
        if value is None:
            return "-"
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, int):
            return f"{value:,}" if abs(value) >= 10_000 else str(value)
        if isinstance(value, list):
            return ", ".join(self.value(v) for v in value) if value else "none"
        return self.game.label(value)

    def node_text(self, node: str) -> str:
        props = self.board.nodes.get(node, {})
        text = self.game.label(node)
        region = props.get("region")
        if isinstance(region, str):
            text += f" ({self.game.label(region)})"
        return text

    def piles(self, obs: dict[str, Any], name: str) -> RenderableType:
        """``pile NAME``: every pile whose name starts with ``name`` (any case), with all its
        cards as far as the player may see them, however long."""
        wanted = humanize(name.strip().lower())
        lines: list[RenderableType] = []
        for slot in self.zone_slots:
            data = obs["zones"].get(slot.key)
            label = self.table.name(slot.name)
            if data is None or slot.name in self.display.hidden or not (
                    label.lower().startswith(wanted)
                    or humanize(slot.name).lower().startswith(wanted)):
                continue
            if slot.per_number or slot.per_board:
                label += f" {self.game.label(slot.index)}"
            if slot.per_board and not data.get("count"):
                continue
            owner = f"{self.name(slot.owner)}'s " if slot.owner else ""
            lines.append(Text.assemble((f"  {owner}{label}: ", ""), self.pile(data, True)))
        if not lines:
            names = sorted({self.table.name(slot.name) for slot in self.zone_slots
                            if slot.name not in self.display.hidden})
            return Text(f"No pile is named '{name.strip()}'; piles: {', '.join(names)}.")
        return Group(*lines)

    def pile(self, data: dict[str, Any], own: bool) -> Text:
        """A pile: its cards (grouped: ``Name x5``), a count and top card, or a hidden count."""
        count = int(data.get("count", 0))
        cards = data.get("cards")
        noun = "card" if count == 1 else "cards"
        if cards is None:
            return Text(f"{count} {noun}, face down", style=STYLE_HIDDEN)
        if count == 0:
            return Text("empty", style=STYLE_HIDDEN)
        groups: dict[str, int] = {}
        for card in cards:
            label = "(face down)" if card is None else self.game.label(card)
            groups[label] = groups.get(label, 0) + 1
        if not own and len(groups) > LONG_PILE:
            top = cards[-1]
            top_text = "face down" if top is None else self.game.label(top)
            return Text.assemble((f"{count} {noun}; top: ", ""), (top_text, STYLE_CARD))
        text = Text()
        for i, (label, times) in enumerate(groups.items()):
            if i:
                text.append(", ")
            style = STYLE_HIDDEN if label == "(face down)" else STYLE_CARD
            text.append(label, style=style)
            if times > 1:
                text.append(f" x{times}")
        return text

    # ------------------------------------------------------------ a player's view

    def header(self, obs: dict[str, Any], role: str | None) -> RenderableType:
        parts = [self.game.pack_name]
        if obs.get("round"):
            number = obs["round"]
            word = self.display.round
            if self.rounds is None:
                parts.append(f"{word} {number}")
            else:
                last = ", the last" if number == self.rounds else ""
                parts.append(f"{word} {number} of {self.rounds}{last}")
        elif obs.get("result") is None:
            parts.append("setup")
        phase = obs.get("phase")
        if phase:
            parts.append(self.phases.get(phase, humanize(phase)))
        if role is not None:
            parts.append(self.name(role))
        return Header(parts)

    def status(self, obs: dict[str, Any], role: str) -> list[RenderableType]:
        """The compact status block of a pack that declares one (else the whole view)."""
        if not any(panel.status for panel in self.display.panels):
            return self.view(obs, role)
        return self.table.status(obs, role)

    def view(self, obs: dict[str, Any], role: str, only_own: bool = False
             ) -> list[RenderableType]:
        """The sections of ``role``'s screen: the pack's panels if it declares them, then
        their piles, the other players', the table, the counters and the board, as far as
        no panel shows them and the pack does not hide them (with ``only_own``, their own
        section alone, under their name: what they held, shown to others at the end of a
        game)."""
        skip = set(self.display.hidden)
        panels: list[RenderableType] = []
        if self.display.declared and not only_own:
            panels = self.table.panels(obs, role)
            skip |= self.display.listed()
        return panels + self._view(obs, role, only_own, skip)

    def _view(self, obs: dict[str, Any], role: str, only_own: bool, skip: set[str]
              ) -> list[RenderableType]:
        zones: dict[str, Any] = obs["zones"]
        variables: dict[str, Any] = obs["vars"]
        by_role: dict[str, list[Line]] = {r: [] for r in self.game.roles}
        table: list[Line] = []
        counters: list[Line] = []
        for slot in self.zone_slots:
            data = zones.get(slot.key)
            if data is None or slot.per_board:
                continue
            count = int(data.get("count", 0))
            own = slot.owner == role
            if (count == 0 and not own) or slot.name in skip:
                continue
            label = self.table.name(slot.name) + (f" {slot.index}" if slot.per_number else "")
            pile = self.pile(data, own)
            line = Line(Text.assemble(("  " + label + ": ", ""), pile))
            if data.get("cards") is None:  # a hidden pile: only its size, which fits a row
                line.short = Text(f"{label}: {count} face down", style=STYLE_HIDDEN)
            elif len(label) + len(pile.plain) <= SHORT and ", " not in pile.plain:
                line.short = Text.assemble(f"{label}: ", pile)
            (by_role.get(slot.owner, table) if slot.owner else table).append(line)
        for slot in self.var_slots:
            if slot.key not in variables or slot.per_board or self._on_board(slot) \
                    or slot.name in skip:
                continue
            value = variables[slot.key]
            if slot.per_number and value == slot.initial:
                continue
            label = self.table.name(slot.name) + (f" {slot.index}" if slot.per_number else "")
            shown = self.value(value)
            line = Line(Text(f"  {label}: {shown}"))
            if len(label) + len(shown) <= SHORT and ", " not in shown:
                line.short = Text(f"{label}: {shown}")
            (by_role.get(slot.owner, counters) if slot.owner else counters).append(line)
        rows = {r: _rows(lines, self.names) for r, lines in by_role.items()}
        sections: list[RenderableType] = []
        if only_own:
            mine = rows[role]
            title = Text(self.name(role), style=STYLE_ROLE)
            return [Group(title, *mine)] if mine else []
        order = [role] + [r for r in self.game.roles if r != role]
        for r in order:
            lines = rows[r]
            if not lines:
                continue
            title = (Text.assemble((self.name(r), STYLE_YOU), (" (you)", STYLE_SECTION))
                     if r == role else Text(self.name(r), style=STYLE_ROLE))
            title.stylize("underline")
            sections.append(Group(title, *lines))
        if table:
            sections.append(Group(Text("Table", style=STYLE_SECTION), *_rows(table, self.names)))
        if counters:
            sections.append(Group(Text("Counters", style=STYLE_SECTION),
                                  *_rows(counters, self.names)))
        board = self.board_lines(obs, role, skip)
        if board:
            sections.append(Group(Text("Board", style=STYLE_SECTION), *board))
        return sections

    def _on_board(self, slot: Slot) -> bool:
        """A variable shown on the board: a position (a node) or a region."""
        return slot.per is None and slot.type in ("node", "region", "edge")

    def board_lines(self, obs: dict[str, Any], role: str | None,
                    skip: set[str] | None = None) -> list[Text]:
        """Known positions with their routes, then tokens on routes, regions and nodes
        (those not in ``skip``)."""
        skip = skip or set()
        if not self.board.nodes:
            return []
        zones: dict[str, Any] = obs["zones"]
        variables: dict[str, Any] = obs["vars"]
        lines: list[Text] = []
        for slot in self.var_slots:
            if not self._on_board(slot) or slot.name in skip:
                continue
            label = self.table.name(slot.name)
            if slot.key not in variables:
                lines.append(Text.assemble(f"  {label}: ", ("secret", STYLE_HIDDEN)))
                continue
            value = variables[slot.key]
            if isinstance(value, str) and value in self.board.nodes:
                line = Text.assemble(f"  {label}: ", (self.node_text(value), STYLE_YOU))
                routes = self.routes_text(value, zones)
                if routes:
                    line.append(f"; routes to {routes}")
                lines.append(line)
            else:
                lines.append(Text(f"  {label}: {self.value(value)}"))
        marks: dict[str, list[str]] = {}
        for slot in self.zone_slots:
            data = zones.get(slot.key)
            if not slot.per_board or data is None or not data.get("count") \
                    or slot.name in skip:
                continue
            where = self.game.label(slot.index)
            marks.setdefault(slot.name, []).append(f"{where} ({self.pile(data, False).plain})")
        for slot in self.var_slots:
            if not slot.per_board or slot.key not in variables or slot.name in skip:
                continue
            value = variables[slot.key]
            if value == slot.initial:
                continue
            where = self.game.label(slot.index)
            marks.setdefault(slot.name, []).append(
                where if value is True else f"{where} = {self.value(value)}")
        for name, places in marks.items():
            lines.append(Text(f"  {self.table.name(name)}: {'; '.join(places)}"))
        return lines

    def routes_text(self, node: str, zones: dict[str, Any] | None = None) -> str:
        """The neighbours of a node, each marked with what lies on its route."""
        return ", ".join(self.route_names(node, zones))

    def route_names(self, node: str, zones: dict[str, Any] | None = None) -> list[str]:
        """The names of a node's neighbours, each marked with what lies on its route."""
        parts = []
        for other, edge in self.board.adjacency.get(node, ()):
            text = self.game.label(other)
            if zones is not None:
                on = [self.table.name(s.name) for s in self.zone_slots
                      if s.per == "edge" and s.index == edge
                      and zones.get(s.key, {}).get("count")]
                if on:
                    text += f" [{', '.join(on)}]"
            parts.append(text)
        return parts

    # ------------------------------------------------------------ events

    def event_text(self, event: Mapping[str, Any], viewer: str | None = None) -> Text:
        """One log event; a private one is marked as such."""
        if event.get("e") == "choice" and str(event.get("option", "")).startswith("!"):
            text = Text(f"{self.name(event.get('player'))}: "
                        f"{self.anytime_labels.get(event['option'], event['option'])}")
        elif self.game.stands_out(cast(Event, event)):
            text = Text(f"*** {self.game.format_event(cast(Event, event))} ***",
                        style=STYLE_END)
        else:
            text = Text(self.game.format_event(cast(Event, event)))
        if event.get("e") == "end":
            text.stylize(STYLE_END)
        to = event.get("to")
        if to is not None:
            text.stylize(STYLE_PRIVATE)
            text.append(" (only you)" if to == viewer else f" (only {self.name(to)})",
                        style=STYLE_HIDDEN)
        return text

    def events(self, events: list[dict[str, Any]], viewer: str | None,
               last_round: int | None = None) -> list[Text]:
        """Event lines, with a round heading wherever the round changes (the end of the game
        is left out: it is shown as a banner of its own)."""
        lines: list[Text] = []
        current = last_round
        for event in events:
            if event.get("e") == "end":
                continue
            number = event.get("round")
            if isinstance(number, int) and number != current:
                current = number
                heading = "Setup" if number == 0 else \
                    f"{self.display.round.capitalize()} {number}"
                lines.append(Text(f"  -- {heading} --", style=STYLE_HIDDEN))
            lines.append(Text("  ") + self.event_text(event, viewer))
        return lines

    # ------------------------------------------------------------ decisions

    def decision(self, menu: Menu, role: str) -> MenuBlock:
        decision = menu.decision
        about = f"{menu.context}: " if menu.context else ""
        title = Text.assemble((self.name(role), STYLE_YOU),
                              (": " + about + self.table.prompt(decision), STYLE_TITLE))
        if menu.subset and decision.items:
            n = len(decision.items)
            lo, hi = max(decision.min, 0), min(decision.max, n)
            if lo == hi:
                rule = f"choose {lo}"
            elif lo == 0:
                rule = f"choose up to {hi}" if hi < n else "choose any of them"
            else:
                rule = f"choose {lo} to {hi}"
            title.append(f"  ({rule})", style=STYLE_HIDDEN)
        width = max((len(e.key) for e in menu.entries), default=1)
        entries: list[tuple[Text, Text]] = []
        for entry in menu.entries:
            line = Text(style="")
            line.append(entry.label, style=STYLE_HIDDEN if entry.anytime else "")
            items = menu.decision.items
            text = self.table.card_text(items[entry.index]) if entry.index is not None \
                and entry.index < len(items) else None
            if text:
                line.append(": " + text, style=STYLE_HIDDEN)
            if entry.anytime:
                line.append("  (any time)", style=STYLE_HIDDEN)
            entries.append((Text("  " + entry.key.rjust(width), style=STYLE_KEY) + Text("  "),
                            line))
        if menu.default is not None:
            only = next((e.label for e in menu.entries if e.option is menu.default),
                        menu.default.label) if menu.default.id != NONE_ID \
                else "nothing to choose"
            actions = any(entry.anytime for entry in menu.entries)
            hint = f"Press Enter ({only})" + (", or a letter for an action." if actions
                                               else ".")
        elif menu.subset:
            hint = "Type numbers (1 3, 1-4), all or none."
        else:
            hint = "Type a number or a name."
        from rulekit.play.menuview import MenuBlock

        return MenuBlock(title, entries, Text(hint + " Also: board, log, help, quit.",
                                              style=STYLE_HIDDEN), closed=closed_text(menu))

    def labeler(self, decision: Decision, obs: dict[str, Any]) -> Any:
        """How the options of ``decision`` are named to the chooser (see :class:`Table`)."""
        return self.table.labeler(decision, obs)

    # ------------------------------------------------------------ the map

    def map(self) -> RenderableType:
        """The whole board: each region's nodes with their routes."""
        board = self.board
        if not board.nodes:
            return Text(f"{self.game.pack_name} has no map.")
        lines: list[RenderableType] = [
            Text(f"{self.game.pack_name}: {len(board.nodes)} places, {len(board.edges)} routes",
                 style=STYLE_TITLE)]
        regions: dict[str | None, list[str]] = {}
        for node, props in board.nodes.items():
            region = props.get("region")
            regions.setdefault(region if isinstance(region, str) else None, []).append(node)
        for region, nodes in regions.items():
            name = self.game.label(region) if region is not None else "Elsewhere"
            lines.append(Text(name, style=STYLE_SECTION))
            for node in nodes:
                lines.append(Text.assemble(("  " + self.game.label(node), STYLE_YOU),
                                           f": {self.routes_text(node)}"))
        return Group(*lines)


HELP_COMMANDS = (
    ("help", "this help"),
    ("board", "the whole table as you see it"),
    ("cards [NAME]", "the pack's cards with their text (those whose name has NAME)"),
    ("pile NAME", "every card of a pile you may see (a discard pile, say)"),
    ("log [N]", "every event you have seen (or the last N), your private ones too"),
    ("map", "the whole board (packs with a map)"),
    ("more", "every line of a menu too long for the screen"),
    ("save [FILE]", "say where the game is saved (or save a copy to FILE)"),
    ("quit", "leave the game (it stays saved: go on later with rulekit play --resume)"),
)


def help_text(default_save: str) -> RenderableType:
    lines: list[RenderableType] = [
        Text("How to answer", style=STYLE_SECTION),
        Text("  One choice: type its line's number, or the start of its name. Enter takes "
             "the only answer of a question that has one."),
        Text("  Several: numbers separated by spaces or commas (1 3 4), a range (1-3), all "
             "or none."),
        Text("  An action you may take at any time has a letter (a, b...): type it."),
        Text("Commands", style=STYLE_SECTION),
    ]
    for name, text in HELP_COMMANDS:
        lines.append(Text.assemble(("  " + name.ljust(12), STYLE_KEY), text))
    lines.append(Text(f"  The game is saved to {default_save} before every question, so "
                      f"closing the terminal or Ctrl-C loses nothing; rulekit play --list "
                      f"shows the games still on."))
    return Group(*lines)


__all__ = ["Renderer", "Slot", "help_text", "humanize", "phase_names", "round_count"]
