"""What a seat's page is sent, as JSON: drawn from ``game.observe`` for that seat alone."""

from __future__ import annotations

import io
from typing import NotRequired, TypedDict

from rich.console import Console, RenderableType

from rulekit.engine.decisions import Decision
from rulekit.engine.game import Game
from rulekit.engine.observe import Observation
from rulekit.play.prompt import Entry
from rulekit.play.render import Renderer, SeenPile
from rulekit.play.svgmap import node_places, render_svg

TEXT_WIDTH = 64  # the columns of the panels' text
NARROW_WIDTH = 46  # on a phone-sized screen
HEADING_WIDTH = 120


class OptionView(TypedDict):
    """One answer, or one item of a subset, as a button."""

    id: str
    label: str
    text: NotRequired[str]  # the card's text, if the pack gives it one
    node: NotRequired[str]  # the place on the map it stands for


class ClosedView(TypedDict):
    """An item the rules refuse now, with the pack's reason if it gives one."""

    label: str
    why: str | None


class QuestionView(TypedDict):
    """The seat's own pending question; ``ask`` numbers it among the seat's questions."""

    ask: int
    context: str | None  # what the question is about, from the pack's ``context:``
    prompt: str
    kind: str  # "one" or "subset"
    options: list[OptionView]  # every legal answer ("one"), or anytime actions ("subset")
    items: list[OptionView]  # the items to pick from ("subset")
    closed: list[ClosedView]  # what the rules refuse now
    min: int
    max: int


class Piece(TypedDict):
    node: str
    name: str


class SeatView(TypedDict):
    """Everything a page is sent after a change of the game."""

    type: str  # "view"
    role: str | None  # None: a spectator
    heading: str
    panels: str
    log: list[str]
    pieces: list[Piece]
    maybe: list[str]  # places where a hidden piece may be, from the seat's belief
    question: QuestionView | None
    waiting_for: list[str]
    result: str | None


class BoardView(TypedDict):
    """The pack's map: the SVG and where each place is on it (sent once per page)."""

    type: str  # "board"
    pack: str
    svg: str | None
    places: dict[str, tuple[float, float]]
    names: dict[str, str]


def board_view(game: Game) -> BoardView:
    """The map of ``game`` for a page, or none."""
    nodes = game.symbols.board.nodes
    return {"type": "board", "pack": game.pack_name, "svg": render_svg(game) if nodes else None,
            "places": node_places(game.symbols.board),
            "names": {ident: str(props.get("name", ident)) for ident, props in nodes.items()}}


class Views:
    """Draws the views of one game's seats, with the table of the terminal."""

    def __init__(self, game: Game, render: Renderer) -> None:
        self.game = game
        self.render = render
        self.table = render.table
        self.belief_vars = {item.ref for panel in render.display.panels
                            for item in panel.items if item.belief}
        self.node_vars = [slot.key for slot in render.var_slots if slot.on_board
                          and slot.type == "node"]

    def seat(self, obs: Observation, role: str, decision: Decision | None, ask: int,
             context: str | None = None, width: int = TEXT_WIDTH) -> SeatView:
        """``role``'s view of ``obs``, with its pending ``decision`` numbered ``ask``."""
        question = None if decision is None else self.question(decision, obs, ask, context)
        return self._view(obs, role, _text(self.render.status(obs, role), width),
                          self._maybe(obs, role), question)

    def spectator(self, obs: Observation) -> SeatView:
        """The view of someone who plays no seat, from the public observation."""
        return self._view(obs, None, self._public_panels(obs), [], None)

    def _view(self, obs: Observation, role: str | None, panels: str, maybe: list[str],
              question: QuestionView | None) -> SeatView:
        render = self.render
        result = obs["result"]
        return {"type": "view", "role": role, "heading": _heading(render, obs, role),
                "panels": panels,
                "log": [render.event_text(event, role).plain for event in obs["log"]],
                "pieces": self._pieces(obs), "maybe": maybe, "question": question,
                "waiting_for": [render.name(r) for r in obs["waiting_for"]],
                "result": None if result is None else render.result(result)}

    def _public_panels(self, obs: Observation) -> str:
        lines = []
        for slot in self.render.var_slots:
            if slot.key in obs["vars"] and slot.name not in self.render.display.hidden \
                    and obs["vars"][slot.key] is not None:
                lines.append(f"{self.table.name(slot.name)}: "
                             f"{self.table.word(obs['vars'][slot.key])}")
        for slot in self.render.zone_slots:
            data = obs["zones"][slot.key]
            if slot.name not in self.render.display.hidden and data["count"]:
                owner = f"{self.render.name(slot.owner)}'s " if slot.owner else ""
                # (what every player sees: the cards of a pile seen whole, else how many)
                known: SeenPile = data if None not in data.get("cards", [None]) \
                    else {"count": data["count"]}
                lines.append(f"{owner}{self.table.name(slot.name)}: "
                             f"{self.render.pile(known, False)}")
        return "\n".join(lines)

    def _pieces(self, obs: Observation) -> list[Piece]:
        return [{"node": value, "name": self.table.name(key)} for key in self.node_vars
                if isinstance(value := obs["vars"].get(key), str)]

    def _maybe(self, obs: Observation, role: str) -> list[str]:
        return sorted(str(node) for key in self.node_vars
                      if key not in obs["vars"] and key in self.belief_vars
                      for node in self.table.beliefs.weights(role, key, obs)[0] or {})

    def question(self, decision: Decision, obs: Observation, ask: int,
                 context: str | None = None) -> QuestionView:
        """A decision as buttons, from the terminal's menu: the same lines, in its order."""
        menu = self.render.menu(decision, obs)
        nodes = self.game.symbols.board.nodes

        def button(option_id: str, entry: Entry) -> OptionView:
            shown: OptionView = {"id": option_id, "label": entry.label}
            item = None if entry.index is None else decision.items[entry.index]
            card = self.table.card_text(item)
            if card:
                shown["text"] = card
            if isinstance(item, str) and item in nodes:
                shown["node"] = item
            return shown

        subset = menu.subset
        options = [button(e.option.id, e) for e in menu.entries
                   if e.option is not None and (e.anytime or not subset)]
        items = [button(menu.item_ids[e.index], e) for e in menu.entries
                 if subset and e.index is not None]
        closed: list[ClosedView] = [{"label": label, "why": decision.refusal(item_id)}
                                    for label, item_id in menu.refused]
        return {"ask": ask, "context": context, "prompt": self.table.prompt(decision),
                "kind": decision.kind, "options": options, "items": items, "closed": closed,
                "min": decision.min, "max": min(decision.max, len(items)) if subset else 1}


def _heading(render: Renderer, obs: Observation, role: str | None) -> str:
    """The terminal's heading line, without its rule: ``Car Chase - turn 1 of 7 - ...``."""
    return _text([render.header(obs, role)], HEADING_WIDTH).strip("=─ \n")


def _text(items: list[RenderableType], width: int = TEXT_WIDTH) -> str:
    """Renderables as plain text, as a terminal of ``width`` columns shows them."""
    out = io.StringIO()
    console = Console(file=out, width=width, color_system=None, no_color=True,
                      highlight=False, emoji=False, markup=False)
    for item in items:
        console.print(item)
    return out.getvalue().rstrip()
