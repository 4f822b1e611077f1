"""The events of a game, each told once to each person at the screen, under its round."""

from __future__ import annotations

from collections.abc import Callable, Container

from rich.text import Text

from rulekit.engine.game import Game, State
from rulekit.engine.state import Event
from rulekit.play.render import Renderer
from rulekit.play.screen import Screen
from rulekit.play.wrapping import Hanging

MAX_RECENT = 10  # events shown at the start of a turn; the rest through 'log'
EVENT_INDENT = 2  # a log line's indent; its wrapped lines are indented twice as much


class Feed:
    """What each viewer was shown of the log; ``None`` is the hot seat's pass screen."""

    def __init__(self, game: Game, render: Renderer, screen: Screen,
                 state: Callable[[], State]) -> None:
        self.game = game
        self.render = render
        self.screen = screen
        self.state = state
        self.names = render.names  # never broken between two lines
        self.seen: dict[str | None, int] = {}  # events shown, per viewer
        self.told: set[int] = set()  # the public events the pass screens showed, by number

    def visible(self, viewer: str | None) -> list[Event]:
        """The events ``viewer`` may see but their own answers; only public ones for no one."""
        if viewer is not None:
            return [event for event in self.game.observe(self.state(), viewer)["log"]
                    if event["e"] != "choice"]
        observed = self.game.observe(self.state(), self.game.roles[0])["log"]
        return [event for event in observed if event["to"] is None]

    def unseen(self, viewer: str | None, skip: Container[int] = ()
               ) -> tuple[list[Event], int | None]:
        """The events ``viewer`` was not shown yet, now marked shown, and the round before them.

        The public events numbered in ``skip`` (0 the first public one) are left out."""
        events = self.visible(viewer)
        start = self.seen.get(viewer, 0)
        self.seen[viewer] = len(events)
        kept: list[Event] = []
        last = None
        public = -1
        for i, event in enumerate(events):
            public += event["to"] is None
            if i < start or (event["to"] is None and public in skip):
                continue
            if not kept:
                last = _round_before(events, i)
            kept.append(event)
        return kept, last

    def stream(self, viewer: str | None, pace: float) -> None:
        """Show ``viewer`` what just happened, a line at a time."""
        events, last = self.unseen(viewer)
        for line in self.render.events(events, viewer, last):
            self.screen.show(event_line(line, self.names))
            if not line.plain.startswith("  --"):
                self.screen.pause(pace)

    def recent(self, title: str | None, viewer: str | None, room: int | None = None) -> None:
        """The last events ``viewer`` was not shown, as many as fit in ``room`` lines."""
        events, last = self.unseen(viewer, self.told)  # (a pass screen tells no one twice)
        if not events:
            return
        most = min(MAX_RECENT, len(events))
        if viewer is None:
            shown = self.seen[None]
            self.told.update(range(shown - most, shown))
        while room is not None and most > 0 and self.screen.height(
                *self._lines(events, most, viewer, last)) + 2 > room:
            most -= 1
        if title and most:
            self.screen.show(Text(title, style="bold underline"))
        earlier = len(events) - most
        if earlier and (room is None or most or room > 0):
            self.screen.show(Text(f"  ({earlier} earlier event{'s' if earlier > 1 else ''}: "
                                  "type log)", style="dim"))
        for line in self._lines(events, most, viewer, last):
            self.screen.show(event_line(line, self.names))

    def _lines(self, events: list[Event], most: int, viewer: str | None, last: int | None
               ) -> list[Text]:
        """The lines of the last ``most`` of ``events``, which come after round ``last``."""
        start = len(events) - most
        before = _round_before(events, start) if start else last
        return self.render.events(events[start:], viewer, before)

    def log(self, role: str, argument: str, answers: list[str]) -> None:
        """``log [N]``: the last N events ``role`` may see, its answers as its menus named them."""
        events = self.game.observe(self.state(), role)["log"]
        start = max(len(events) - int(argument), 0) if argument else 0
        shown = events[start:]
        mine = [i - start for i, event in enumerate(events)
                if event["e"] == "choice" and event["player"] == role]
        lines = self.render.events(shown, role, _round_before(events, start),
                                   dict(zip(mine, answers, strict=False)))
        self.screen.page(Text(f"Log ({len(shown)} of {len(events)} events)",
                              style="bold underline"),
                         *(event_line(line, self.names) for line in lines))


def _round_before(events: list[Event], start: int) -> int | None:
    return events[start - 1]["round"] if start > 0 else None


def event_line(line: Text, names: tuple[str, ...]) -> Hanging:
    """A log line that wraps under itself, never inside one of the pack's ``names``."""
    head, body = line[:EVENT_INDENT], line[EVENT_INDENT:]
    return Hanging(head, body, 2 * EVENT_INDENT, names)
