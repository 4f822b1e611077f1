"""The board as text: where pieces stand, what lies on routes, the map."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.text import Text

from rulekit.engine.observe import Observation
from rulekit.play.styles import STYLE_HIDDEN, STYLE_SECTION, STYLE_TITLE, STYLE_YOU

if TYPE_CHECKING:
    from rulekit.play.render import Renderer, SeenPile, Slot


class BoardText:
    """The board of one game in words, with the pack's names."""

    def __init__(self, render: Renderer) -> None:
        self.render = render
        self.game = render.game
        self.board = render.game.symbols.board

    def node_text(self, node: str) -> str:
        """A place's name, then its region's: ``Paris (Europe)``."""
        region = self.board.nodes.get(node, {}).get("region")
        text = self.game.label(node)
        return f"{text} ({self.game.label(region)})" if isinstance(region, str) else text

    def route_names(self, node: str, zones: Mapping[str, SeenPile] | None = None) -> list[str]:
        """A place's neighbours, each marked with the piles on its route."""
        names = []
        for other, edge in self.board.adjacency.get(node, ()):
            on = self._piles_at(zones, {("edge", edge)}) if zones is not None else []
            text = self.game.label(other)
            names.append(f"{text} [{', '.join(on)}]" if on else text)
        return names

    def node_marks(self, node: str, zones: Mapping[str, SeenPile]) -> list[str]:
        """What lies on a place and on its region: ``Watchtower``."""
        region = self.board.nodes.get(node, {}).get("region")
        return self._piles_at(zones, {("node", node), ("region", region)})

    def _piles_at(self, zones: Mapping[str, SeenPile], where: set[tuple[str, object]]
                  ) -> list[str]:
        """The cards of the piles at ``where`` (kind, place), as ``Barrier x2``."""
        return [pile for slot, pile in self._piles(zones, self.render.display.hidden)
                if (slot.per, slot.index) in where]

    def _piles(self, zones: Mapping[str, SeenPile], skip: Iterable[str]
               ) -> Iterator[tuple[Slot, str]]:
        """The board's piles that hold cards, but ``skip``, each with its cards as text."""
        for slot in self.render.zone_slots:
            data = zones.get(slot.key)
            if slot.per_board and data and data.get("count") and slot.name not in skip:
                yield slot, self.render.pile(data, False).plain

    def lines(self, obs: Observation, skip: set[str]) -> list[Text]:
        """Known positions with their routes, then what lies on the board, but ``skip``."""
        if not self.board.nodes:
            return []
        lines = [self._position(slot, obs) for slot in self.render.var_slots
                 if slot.on_board and slot.name not in skip]
        marks: dict[str, list[str]] = {}
        for slot, pile in self._piles(obs["zones"], skip):
            marks.setdefault(slot.name, []).append(f"{self.game.label(slot.index)} ({pile})")
        for name, place in self._value_marks(obs, skip):
            marks.setdefault(name, []).append(place)
        table = self.render.table
        return lines + [Text(f"  {table.name(name)}: {'; '.join(places)}")
                        for name, places in marks.items()]

    def _position(self, slot: Slot, obs: Observation) -> Text:
        label = self.render.table.name(slot.name)
        if slot.key not in obs["vars"]:
            return Text.assemble(f"  {label}: ", ("secret", STYLE_HIDDEN))
        value = obs["vars"][slot.key]
        if not (isinstance(value, str) and value in self.board.nodes):
            return Text(f"  {label}: {self.render.value(value)}")
        routes = ", ".join(self.route_names(value, obs["zones"]))
        return Text.assemble(f"  {label}: ", (self.node_text(value), STYLE_YOU),
                             f"; routes to {routes}" if routes else "")

    def _value_marks(self, obs: Observation, skip: set[str]) -> Iterator[tuple[str, str]]:
        values = obs["vars"]
        for slot in self.render.var_slots:
            value = values.get(slot.key, slot.initial)  # (one not seen is left out)
            if not slot.per_board or value == slot.initial or slot.name in skip:
                continue
            where = self.game.label(slot.index)
            yield slot.name, where if value is True else f"{where} = {self.render.value(value)}"

    def map(self) -> RenderableType:
        """The whole board: each region's places with their routes."""
        board = self.board
        if not board.nodes:
            return Text(f"{self.game.pack_name} has no map.")
        lines: list[RenderableType] = [
            Text(f"{self.game.pack_name}: {len(board.nodes)} places, {len(board.edges)} routes",
                 style=STYLE_TITLE)]
        regions: dict[str | None, list[str]] = {}  # (None: of no region)
        for node, props in board.nodes.items():
            region = props.get("region")
            regions.setdefault(region if isinstance(region, str) else None, []).append(node)
        for region, nodes in regions.items():
            name = self.game.label(region) if region is not None else "Elsewhere"
            lines.append(Text(name, style=STYLE_SECTION))
            lines += [Text.assemble(("  " + self.game.label(node), STYLE_YOU),
                                    f": {', '.join(self.route_names(node))}")
                      for node in nodes]
        return Group(*lines)
