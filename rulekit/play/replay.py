"""``rulekit replay``: step through a saved (or finished) game, one event at a time.

The game is rebuilt from its save file (seed and decisions, with the very pack version it was
played with) and its log is shown as one player saw it (``--as ROLE``: the public events and
that player's private ones) or as everyone saw it (``--as all``: every event, each private one
marked with whom it was for). Without ``--as``, a finished game is shown as everyone saw it; a
game still on only as its one person saw it (with several people at the table, ``--as`` must
say whose view), and its seed is not shown. Enter shows the next event, ``r`` goes on to the
next round and shows the table there, ``b`` the table at the current event, ``a`` all the
rest, ``q`` stops.
"""

from __future__ import annotations

from typing import Any

from rich.panel import Panel
from rich.text import Text

from rulekit.engine.state import State
from rulekit.errors import UsageError, did_you_mean
from rulekit.play.render import Renderer, phase_names, round_count
from rulekit.play.savefile import HUMAN, SavedGame, pack_change, rebuild
from rulekit.play.screen import Screen

EVERYONE = "all"


def run_replay(loaded: Any, saved: SavedGame, where: str, screen: Screen,
               as_role: str | None = None, all_at_once: bool = False) -> int:
    """Show the saved game ``saved`` (of ``loaded``, a LoadedPack); the exit code."""
    game = loaded.game
    if as_role is not None and as_role != EVERYONE and as_role not in game.role_names:
        choices = [*game.roles, EVERYONE]
        hint = did_you_mean(as_role, choices) or f"choose one of: {', '.join(choices)}"
        raise UsageError(f"unknown role '{as_role}' for --as", hint)
    state = rebuild(game, saved, where)
    change = pack_change(saved, game, where)
    if change is not None:
        screen.note(change)
    viewer = as_role if as_role is not None else default_viewer(saved, state, where)
    render = Renderer(game, phase_names(loaded.documents),
                      round_count(loaded.documents, dict(game.params)), loaded.display)
    if viewer == EVERYONE:
        events: list[Any] = list(state["log"])
        seen_by = "everyone"
        who: str | None = None
    else:
        events = list(game.observe(state, viewer)["log"])
        seen_by = render.name(viewer)
        who = viewer
    events = [event for event in events if event.get("e") != "end"]  # the final banner
    seats = ", ".join(f"{render.name(role)}: {'person' if spec == HUMAN else spec + ' bot'}"
                      for role, spec in saved.seats.items())
    seed = f", seed {saved.seed}" if state["result"] is not None or who is None else ""
    screen.show(Text(f"Replay of {game.pack_name} {game.version}{seed}, as seen by {seen_by}",
                     style="bold"))
    screen.show(Text(f"{seats}; {len(saved.decisions)} decisions, {len(events)} events"))
    if not all_at_once:
        screen.note("Enter: next event, r: to the next round, b: the table at this point, "
                    "a: all the rest, q: stop.")
    screen.blank()
    history = _History(game, saved, who)
    last: int | None = None
    next_round: int | None = None  # after 'r': go on without asking until this round
    number = 0
    while number < len(events):
        event = events[number]
        number += 1
        for line in render.events([event], who, last):
            screen.show(line)
        round_number = event.get("round")
        last = round_number if isinstance(round_number, int) else last
        if all_at_once or number == len(events):
            continue
        if next_round is not None:
            if last is None or last < next_round:
                continue
            next_round = None
            _show_table(screen, render, history, history.index_at(number), who)
        while True:
            try:
                answer = screen.ask(f"[{number}/{len(events)}] ").strip().lower()
            except EOFError:
                screen.note("End of input: the replay stops here.")
                return 0
            if answer not in ("b", "board"):
                break
            _show_table(screen, render, history, history.index_at(number), who)
        if answer in ("q", "quit"):
            return 0
        if answer in ("a", "all"):
            all_at_once = True
        if answer in ("r", "round"):
            next_round = (last or 0) + 1
    screen.blank()
    result = state["result"]
    if result is not None:
        winner = result.get("winner")
        banner = f"{render.name(winner)} wins." if winner else "Nobody wins."
        screen.show(Panel(Text(f"Game over: {banner} {result.get('reason') or ''}".strip(),
                               style="bold"), expand=False))
    else:
        waiting = ", ".join(render.name(d.player) for d in game.pending(state))
        screen.note(f"The game was saved before its end, waiting for {waiting or 'nobody'}.")
    if who is not None:
        _show_table(screen, render, history, len(history.states) - 1, who)
    return 0


class _History:
    """The states of a saved game after each decision, to show the table at any event."""

    def __init__(self, game: Any, saved: SavedGame, who: str | None) -> None:
        self.game = game
        self.who = who
        self.deciders = [role for role, _ in saved.decisions]
        self.states: list[State] = [game.new_game(saved.seed)]
        for role, option in saved.decisions:
            self.states.append(game.apply(self.states[-1], {role: option}))
        self.counts = [len(self._events(state)) for state in self.states]
        self.followed: dict[str, int] = {}  # per role, the decisions its table has followed

    def seen_until(self, index: int, role: str) -> list[dict[str, Any]]:
        """``role``'s observations at its decisions before state ``index`` not given yet
        (what the table's belief of ``role`` follows before it is shown there)."""
        start = self.followed.get(role, 0)
        self.followed[role] = max(start, index)
        return [self.game.observe(self.states[number], role)
                for number in range(start, index) if self.deciders[number] == role]

    def _events(self, state: State) -> list[Any]:
        if self.who is None:
            return list(state["log"])
        return list(self.game.observe(state, self.who)["log"])

    def index_at(self, shown: int) -> int:
        """The number of the state when the viewer had seen ``shown`` events."""
        for index, count in enumerate(self.counts):
            if count >= shown:
                return index
        return len(self.states) - 1


def _show_table(screen: Screen, render: Renderer, history: _History, index: int,
                who: str | None) -> None:
    """The table at state ``index`` of the game, as ``who`` saw it (everyone: each player's
    view); each belief shown follows the player's observations at its decisions up to there
    first."""
    game = history.game
    state = history.states[index]
    for role in [who] if who is not None else game.roles:
        render.table.beliefs.follow(role, history.seen_until(index, role))
        obs = game.observe(state, role)
        screen.show(render.header(obs, role))
        for section in render.view(obs, role):
            screen.show(section)


def default_viewer(saved: SavedGame, state: State, where: str) -> str:
    """Whose view a replay shows when ``--as`` is not given: everyone's once the game is over;
    while it is on, that of the only person at the table (with several, one must say)."""
    if state["result"] is not None:
        return EVERYONE
    people = [role for role, spec in saved.seats.items() if spec == HUMAN]
    if len(people) == 1:
        return people[0]
    raise UsageError(f"{where}: this game is not over, and a replay shows only what one "
                     f"player may see", f"say whose view: --as ROLE (roles: "
                     f"{', '.join(saved.seats)}), or --as all to see every secret")


__all__ = ["EVERYONE", "default_viewer", "run_replay"]
