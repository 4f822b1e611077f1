"""What a player sees, drawn from ``game.observe`` only, as rich renderables."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NotRequired, TypedDict

from rich.console import Group, RenderableType
from rich.text import Text

from rulekit.engine.decisions import NONE_ID, Decision, Option
from rulekit.engine.game import Game
from rulekit.engine.observe import Observation
from rulekit.engine.state import Event, Result
from rulekit.model.program import zone_key
from rulekit.pack.display import Display
from rulekit.play.boardtext import BoardText
from rulekit.play.prompt import Menu
from rulekit.play.styles import (
    STYLE_CARD,
    STYLE_END,
    STYLE_HIDDEN,
    STYLE_PRIVATE,
    STYLE_ROLE,
    STYLE_SECTION,
    STYLE_YOU,
)
from rulekit.play.table import Table
from rulekit.play.wrapping import Hanging, Header, Line, side_by_side

if TYPE_CHECKING:
    from rulekit.pack.loader import LoadedPack
    from rulekit.source.document import YamlDocument

LONG_PILE = 8  # a public pile with more different cards than this is shown as a count
BOARD_KINDS = ("node", "edge", "region")
SHORT = 28  # a line whose name and value are this long or shorter shares a row
FACE_DOWN_CARD = "(face down)"


def humanize(name: str) -> str:
    """A zone or variable id as text: ``action_discard`` -> ``action discard``."""
    return name.replace("_", " ")


class SeenPile(TypedDict):
    """A pile as an observation shows it. A card the viewer may not see is None."""

    count: int
    cards: NotRequired[list[str | None]]


@dataclass(frozen=True)
class Slot:
    """A pile of a zone, or a value of a variable."""

    key: str
    name: str
    index: str | None
    per: str | int | None
    owner: str | None  # the role it belongs to, if any
    initial: object = None
    type: str | None = None

    @property
    def per_board(self) -> bool:
        return self.per in BOARD_KINDS

    @property
    def per_number(self) -> bool:
        return isinstance(self.per, int)

    @property
    def on_board(self) -> bool:
        """Whether a variable is shown on the board: a position or region."""
        return self.per is None and self.type in BOARD_KINDS


def _flows(documents: Iterable[YamlDocument]) -> Iterator[Mapping[str, Any]]:
    for doc in documents:
        flow = doc.data.get("flow") if isinstance(doc.data, dict) else None
        if isinstance(flow, dict):
            yield flow


def phase_names(documents: Iterable[YamlDocument]) -> dict[str, str]:
    """Phase id -> display name, from a pack's ``flow`` section (checked by its schema)."""
    return {phase["id"]: phase.get("name") or humanize(phase["id"])
            for flow in _flows(documents) for phase in flow.get("phases") or []}


def round_count(documents: Iterable[YamlDocument], params: Mapping[str, int]) -> int | None:
    """How many rounds a game has, if its ``flow: rounds`` says (a number or a parameter)."""
    for flow in _flows(documents):
        rounds = flow.get("rounds")
        if isinstance(rounds, int) and not isinstance(rounds, bool):
            return rounds
        if isinstance(rounds, str):
            text = rounds.strip()
            return int(text) if text.isdigit() and len(text) < 7 else params.get(text)
    return None


def spaced_names(game: Game) -> tuple[str, ...]:
    """A game's names that have a space, longest first."""
    symbols = game.symbols
    ids = [*symbols.cards, *symbols.board.nodes, *symbols.board.regions]
    names = {game.label(i) for i in ids} | set(game.role_names.values())
    return tuple(sorted((n for n in names if " " in n), key=len, reverse=True))


def _short(label: str, shown: str) -> bool:
    return len(label) + len(shown) <= SHORT and ", " not in shown


class Renderer:
    """Turns the observations, events and decisions of a game into renderables."""

    def __init__(self, game: Game, phases: dict[str, str] | None = None,
                 rounds: int | None = None, display: Display | None = None) -> None:
        self.game = game
        self.display = display or Display()
        self.names = spaced_names(game)  # never broken between two lines
        self.phases = phases or {}
        self.rounds = rounds
        symbols = game.symbols
        self.board = symbols.board
        self.zone_slots = [Slot(key, zone.name, index, zone.per, owner)
                           for zone in symbols.zones.values()
                           for key, index, owner in self._keys(zone.name, zone.per, zone.owner)]
        self.var_slots = [Slot(key, var.name, index, var.per, owner, var.initial, var.type)
                          for var in symbols.variables.values()
                          for key, index, owner in self._keys(var.name, var.per, var.owner)]
        self.anytime_labels = {"!" + decl.id: decl.label for decl in symbols.anytime}
        self.table = Table(self, self.display)
        self.board_text = BoardText(self)

    @classmethod
    def of(cls, loaded: LoadedPack) -> Renderer:
        """The renderer of a loaded pack, with its phases, rounds and display."""
        game = loaded.game
        return cls(game, phase_names(loaded.documents),
                   round_count(loaded.documents, game.params), loaded.display)

    def _keys(self, name: str, per: str | int | None,
              owner: str | None) -> list[tuple[str, str | None, str | None]]:
        if per is None:
            return [(name, None, owner)]
        if per == "role":
            return [(zone_key(name, role), role, role) for role in self.game.roles]
        return [(zone_key(name, index), index, owner)
                for index in self.game.symbols.index_domain(per)]

    def name(self, role: str | None) -> str:
        return "nobody" if role is None else self.game.role_names.get(role, role)

    def value(self, value: object) -> str:
        """A value as text: names for ids, yes or no, a dash for nothing."""
        if value is None:
            return "-"
        if type(value) is int and abs(value) >= 10_000:
            return f"{value:,}"
        if isinstance(value, list):
            return ", ".join(self.value(v) for v in value) if value else "none"
        return self.game.label(value)

    def result(self, result: Result) -> str:
        """``Game over: Name wins. Why``, from a game's result."""
        winner = result.get("winner")
        banner = f"{self.name(winner)} wins." if winner else "Nobody wins."
        return f"Game over: {banner} {result.get('reason') or ''}".strip()

    def piles(self, obs: Observation, name: str) -> RenderableType:
        """``pile NAME``: every pile whose name starts with ``name``, with its cards."""
        wanted = humanize(name.strip().lower())
        lines = [self._pile_line(slot, data) for slot in self.zone_slots
                 if (data := obs["zones"].get(slot.key)) is not None
                 and self._pile_named(slot, wanted) and (data.get("count") or not slot.per_board)]
        if lines:
            return Group(*lines)
        names = sorted({self.table.name(slot.name) for slot in self.zone_slots
                        if slot.name not in self.display.hidden})
        return Text(f"No pile is named '{name.strip()}'; piles: {', '.join(names)}.")

    def _pile_named(self, slot: Slot, wanted: str) -> bool:
        names = (self.table.name(slot.name), humanize(slot.name))
        return slot.name not in self.display.hidden \
            and any(name.lower().startswith(wanted) for name in names)

    def _pile_line(self, slot: Slot, data: SeenPile) -> Hanging:
        """A pile's cards, wrapped under them and never inside a card's name."""
        label = self.table.name(slot.name)
        if slot.per_number or slot.per_board:
            label += f" {self.game.label(slot.index)}"
        owner = f"{self.name(slot.owner)}'s " if slot.owner else ""
        return Hanging(Text(f"  {owner}{label}: "), self.pile(data, True), 4, self.names)

    def pile(self, data: SeenPile, own: bool) -> Text:
        """A pile as ``Name x5, ...``. A long pile of another's shows its size and top card."""
        count = int(data.get("count", 0))
        cards = data.get("cards")
        noun = "card" if count == 1 else "cards"
        if cards is None:
            return Text(f"{count} {noun}, face down", style=STYLE_HIDDEN)
        if count == 0:
            return Text("empty", style=STYLE_HIDDEN)
        groups = Counter(FACE_DOWN_CARD if card is None else self.game.label(card)
                         for card in cards)
        if own or len(groups) <= LONG_PILE:
            return _grouped(groups)
        top = cards[-1]
        top_text = "face down" if top is None else self.game.label(top)
        return Text.assemble((f"{count} {noun}; top: ", ""), (top_text, STYLE_CARD))

    def header(self, obs: Observation, role: str | None) -> RenderableType:
        """A screen's title: the pack, round, phase and player."""
        phase = obs.get("phase")
        parts = [self.game.pack_name, self._round_text(obs),
                 self.phases.get(phase, humanize(phase)) if phase else None,
                 self.name(role) if role is not None else None]
        return Header([part for part in parts if part])

    def _round_text(self, obs: Observation) -> str | None:
        """``turn 3 of 7``, ``setup`` before the first round, None once over."""
        number = obs.get("round")
        if not number:
            return "setup" if obs.get("result") is None else None
        word = self.display.round
        if self.rounds is None:
            return f"{word} {number}"
        last = ", the last" if number == self.rounds else ""
        return f"{word} {number} of {self.rounds}{last}"

    def status(self, obs: Observation, role: str) -> list[RenderableType]:
        """The pack's status block, or else the whole view."""
        if not any(panel.status for panel in self.display.panels):
            return self.view(obs, role)
        return self.table.status(obs, role)

    def view(self, obs: Observation, role: str, only_own: bool = False
             ) -> list[RenderableType]:
        """The sections of ``role``'s screen: the pack's panels, then what none shows."""
        skip = set(self.display.hidden)
        if only_own or not self.display.declared:
            return self._view(obs, role, only_own, skip)
        skip |= self.display.listed()
        return self.table.panels(obs, role) + self._view(obs, role, only_own, skip)

    def _view(self, obs: Observation, role: str, only_own: bool, skip: set[str]
              ) -> list[RenderableType]:
        by_role, table, counters = self._sorted(obs, role, skip)
        if only_own:
            mine = side_by_side(by_role[role], self.names)
            return [Group(Text(self.name(role), style=STYLE_ROLE), *mine)] if mine else []
        order = [role] + [r for r in self.game.roles if r != role]
        sections: list[RenderableType] = [
            self._player_section(r, role, by_role[r]) for r in order if by_role[r]]
        if self.display.declared:
            sections += self._section("More on the table",
                                      side_by_side(table + counters, self.names))
        else:
            sections += self._section("Table", side_by_side(table, self.names))
            sections += self._section("Counters", side_by_side(counters, self.names))
        return sections + self._section("Board", self.board_text.lines(obs, skip))

    def _sorted(self, obs: Observation, role: str, skip: set[str]
                ) -> tuple[dict[str, list[Line]], list[Line], list[Line]]:
        """The lines of each role's piles and values, then the table's piles, then its values."""
        by_role: dict[str, list[Line]] = {r: [] for r in self.game.roles}
        table: list[Line] = []
        counters: list[Line] = []
        for slot in self.zone_slots:
            line = self._zone_line(slot, obs["zones"].get(slot.key), role, skip)
            if line is not None:
                by_role.get(slot.owner or "", table).append(line)
        for slot in self.var_slots:
            line = self._var_line(slot, obs["vars"], skip)
            if line is not None:
                by_role.get(slot.owner or "", counters).append(line)
        return by_role, table, counters

    def _label(self, slot: Slot) -> str:
        label = self.table.name(slot.name)
        return f"{label} {slot.index}" if slot.per_number else label

    def _zone_line(self, slot: Slot, data: SeenPile | None, role: str, skip: set[str]
                   ) -> Line | None:
        """A pile's line; None if not shown here, or empty and not the viewer's."""
        if data is None or slot.per_board or slot.name in skip:
            return None
        count = int(data.get("count", 0))
        own = slot.owner == role
        if count == 0 and not own:
            return None
        label = self._label(slot)
        pile = self.pile(data, own)
        line = Line(Text.assemble(("  " + label + ": ", ""), pile))
        if data.get("cards") is None:  # a hidden pile: only its size, which fits a row
            line.short = Text(f"{label}: {count} face down", style=STYLE_HIDDEN)
        elif _short(label, pile.plain):
            line.short = Text.assemble(f"{label}: ", pile)
        return line

    def _var_line(self, slot: Slot, values: Mapping[str, object], skip: set[str]
                  ) -> Line | None:
        """A value's line; None if not shown here, or shown on the board."""
        if slot.key not in values or slot.per_board or slot.on_board or slot.name in skip:
            return None
        value = values[slot.key]
        if (slot.per_number or self.display.declared) and value == slot.initial:
            return None  # (a pack's display shows what its panels show, and what changed)
        label = self._label(slot)
        shown = self.value(value)
        short = Text(f"{label}: {shown}") if _short(label, shown) else None
        return Line(Text(f"  {label}: {shown}"), short)

    def _player_section(self, owner: str, role: str, lines: list[Line]) -> Group:
        if owner == role:
            title = Text.assemble((self.name(owner), STYLE_YOU), (" (you)", STYLE_SECTION))
        else:
            title = Text(self.name(owner), style=STYLE_ROLE)
        title.stylize("underline")
        return Group(title, *side_by_side(lines, self.names))

    def _section(self, title: str, lines: Sequence[RenderableType]) -> list[RenderableType]:
        return [Group(Text(title, style=STYLE_SECTION), *lines)] if lines else []

    def event_text(self, event: Event, viewer: str | None = None,
                   said: str | None = None) -> Text:
        """One log event, a private one marked; a choice ``said`` as its menu named it."""
        text = Text(said) if said is not None and event["e"] == "choice" else \
            self._event_words(event)
        if event["e"] == "end":
            text.stylize(STYLE_END)
        to = event["to"]
        if to is not None:
            text.stylize(STYLE_PRIVATE)
            text.append(" (only you)" if to == viewer else f" (only {self.name(to)})",
                        style=STYLE_HIDDEN)
        return text

    def _event_words(self, event: Event) -> Text:
        if event["e"] == "choice" and event["option"].startswith("!"):
            action = self.anytime_labels.get(event["option"], event["option"])
            return Text(f"{self.name(event['player'])}: {action}")
        if self.game.stands_out(event):
            return Text(f"*** {self.game.format_event(event)} ***", style=STYLE_END)
        if event["e"] == "log":  # a value the display names in its words: in those words
            words = self.display.words
            event = {**event, "args": [words.get(arg, arg) if isinstance(arg, str) else arg
                                       for arg in event["args"]]}
        return Text(self.game.format_event(event))

    def answer(self, menu: Menu, option: Option) -> str:
        """``Name chose ...``: an answer as its menu named it, or ``Name declined: ...``."""
        name = self.name(menu.decision.player)
        if option.id == NONE_ID:
            return f"{name} declined: {self.table.prompt(menu.decision)}"
        if menu.subset and not option.id.startswith("!"):
            chosen = option.id.split("+")
            names = [label for item_id, label in zip(menu.item_ids, menu.item_labels,
                                                      strict=True) if item_id in chosen]
            return f"{name} chose {', '.join(names)}"
        return f"{name} chose {menu.label_of(option)}"

    def events(self, events: Sequence[Event], viewer: str | None,
               last_round: int | None = None, said: Mapping[int, str] | None = None
               ) -> list[Text]:
        """Event lines under a heading per round; ``said``: answers by their events' places."""
        lines: list[Text] = []
        current = last_round
        for at, event in enumerate(events):
            if event["e"] == "end":
                continue
            number = event["round"]
            if number != current:
                current = number
                heading = f"{self.display.round.capitalize()} {number}" if number else "Setup"
                lines.append(Text(f"  -- {heading} --", style=STYLE_HIDDEN))
            lines.append(Text("  ") + self.event_text(event, viewer, (said or {}).get(at)))
        return lines

    def menu(self, decision: Decision, obs: Observation) -> Menu:
        """The menu of ``decision`` as its chooser, who sees ``obs``, reads it."""
        table = self.table
        menu = Menu(decision, table.labeler(decision, obs),
                    table.keys(decision, obs, decision.player))
        refused = [item for item, _ in decision.refused()]
        keys = table.keys(decision, obs, decision.player, refused)
        if keys is not None:  # typed, the key of an option not open now gets the reason
            menu.refused_keys = {key.lower(): item_id for key, (_, item_id)
                                 in zip(keys, menu.refused, strict=True)}
        return menu

    def map(self) -> RenderableType:
        return self.board_text.map()


def _grouped(groups: Mapping[str, int]) -> Text:
    return Text(", ").join(
        Text.assemble((label, STYLE_HIDDEN if label == FACE_DOWN_CARD else STYLE_CARD),
                      f" x{times}" if times > 1 else "") for label, times in groups.items())
