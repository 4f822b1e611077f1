"""The events of a game as each person at the screen is told them: each event once, in order,
under the round it belongs to, each log line wrapped under itself and never inside a name."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.text import Text

from rulekit.engine.game import Game, State
from rulekit.play.render import Hanging, Renderer
from rulekit.play.screen import Screen

MAX_RECENT = 10  # events shown at the start of a turn; the rest through 'log'
EVENT_INDENT = 2  # a log line's indent; its wrapped lines are indented twice as much


class Feed:
    """What each viewer has been shown of the log (``None``: the public events, as the hot
    seat's pass screen shows them), and the showing of the rest."""

    def __init__(self, game: Game, render: Renderer, screen: Screen,
                 state: Callable[[], State]) -> None:
        self.game = game
        self.render = render
        self.screen = screen
        self.state = state
        self.names = render.names  # never broken between two lines
        self.seen: dict[str | None, int] = {}  # events shown, per viewer
        self.told: list[dict[str, Any]] = []  # the public events of the last pass screen

    def visible(self, viewer: str | None) -> list[dict[str, Any]]:
        """The events ``viewer`` may see (public ones only for no one in particular), but for
        the records of their own answers: what an answer did is told by the pack's log lines,
        and an answer is never restated after it was typed."""
        if viewer is not None:
            return [event for event in self.game.observe(self.state(), viewer)["log"]
                    if event.get("e") != "choice"]
        observed = self.game.observe(self.state(), self.game.roles[0])["log"]
        return [event for event in observed if event.get("to") is None]

    def all_seen(self, viewer: str | None) -> None:
        """Mark every event ``viewer`` may see as shown."""
        self.seen[viewer] = len(self.visible(viewer))

    def unseen(self, viewer: str | None) -> tuple[list[dict[str, Any]], int | None]:
        """The events ``viewer`` has not been shown yet (marked as shown), and the round of the
        last event shown before them."""
        events = self.visible(viewer)
        start = self.seen.get(viewer, 0)
        self.seen[viewer] = len(events)
        last = events[start - 1].get("round") if start > 0 else None
        return events[start:], last if isinstance(last, int) else None

    def stream(self, viewer: str | None, pace: float) -> None:
        """Show ``viewer`` what just happened, one line after another, ``pace`` apart."""
        events, last = self.unseen(viewer)
        for line in self.render.events(events, viewer, last):
            self.screen.show(event_line(line, self.names))
            if not line.plain.startswith("  --"):
                self.screen.pause(pace)

    def recent(self, title: str | None, viewer: str | None, room: int | None = None) -> None:
        """The last :data:`MAX_RECENT` of the events ``viewer`` has not been shown, under
        ``title``, saying how many earlier ones ``log`` shows; no more than fit in ``room``
        lines, if given."""
        events, last = self.unseen(viewer)
        if viewer is not None and self.told:  # read on the pass screen just before: once
            told, self.told = self.told, []
            kept = [event for event in events if event not in told]
            if kept != events and kept:
                before = events[events.index(kept[0]) - 1].get("round") \
                    if events.index(kept[0]) > 0 else last
                last = before if isinstance(before, int) else last
            events = kept
        if not events:
            return
        most = min(MAX_RECENT, len(events))
        if viewer is None:
            self.told = events[-most:]
        while room is not None and most > 0 and self.screen.height(
                *self._lines(events[-most:], events, viewer, last)) + 2 > room:
            most -= 1
        if title and most:
            self.screen.show(Text(title, style="bold underline"))
        if len(events) > most and (room is None or most or room > 0):
            earlier = len(events) - most
            self.screen.show(Text(f"  ({earlier} earlier event{'s' if earlier > 1 else ''}: "
                                  f"type log)", style="dim"))
        for line in self._lines(events[-most:] if most else [], events, viewer, last):
            self.screen.show(event_line(line, self.names))

    def _lines(self, shown: list[dict[str, Any]], events: list[dict[str, Any]],
               viewer: str | None, last: int | None) -> list[Text]:
        """The lines of the last events ``shown`` of ``events``, under the right round."""
        if len(shown) < len(events):
            before = events[-len(shown) - 1].get("round")
            last = before if isinstance(before, int) else None
        return self.render.events(shown, viewer, last)

    def log(self, role: str, argument: str) -> None:
        """``log [N]``: the last N events ``role`` may see (all without N), their own answers
        too."""
        events = self.game.observe(self.state(), role)["log"]
        count = int(argument) if argument else len(events)
        shown = events[-count:] if count > 0 else []
        self.screen.show(Text(f"Log ({len(shown)} of {len(events)} events)",
                              style="bold underline"))
        first = len(events) - len(shown)
        before = events[first - 1].get("round") if first > 0 else None
        for line in self.render.events(shown, role, before if isinstance(before, int)
                                       else None):
            self.screen.show(event_line(line, self.names))


def event_line(line: Text, names: tuple[str, ...]) -> Hanging:
    """A log line that wraps under itself, further in than the next line's start, never
    inside one of the pack's ``names``."""
    head, body = line[:EVENT_INDENT], line[EVENT_INDENT:]
    return Hanging(head, body, 2 * EVENT_INDENT, names)


__all__ = ["MAX_RECENT", "Feed", "event_line"]
