"""``rulekit replay``: step through a saved game, one event at a time, as one or all saw it."""

from __future__ import annotations

from rich.text import Text

from rulekit.engine.game import Game
from rulekit.engine.observe import Observation
from rulekit.engine.state import Event, State
from rulekit.errors import UsageError, did_you_mean
from rulekit.pack.loader import LoadedPack
from rulekit.play.render import Renderer
from rulekit.play.restore import pack_change, rebuild, states_of
from rulekit.play.savefile import HUMAN, SavedGame
from rulekit.play.screen import Screen
from rulekit.play.seats import seats_text
from rulekit.play.session import game_over

EVERYONE = "all"


def run_replay(loaded: LoadedPack, saved: SavedGame, where: str, screen: Screen,
               as_role: str | None = None, all_at_once: bool = False) -> int:
    """Show the saved game ``saved`` of ``loaded``; the exit code."""
    game = loaded.game
    if as_role is not None:
        _check_viewer(game, as_role)
    state = rebuild(game, saved, where)
    change = pack_change(saved, game, where)
    if change is not None:
        screen.note(change)
    viewer = as_role if as_role is not None else default_viewer(saved, state, where)
    who = None if viewer == EVERYONE else viewer
    events: list[Event] = [event for event in _log(game, state, who)
                           if event["e"] != "end"]  # shown as a banner
    render = Renderer.of(loaded)
    _title(screen, render, saved, state, who, len(events))
    if not all_at_once:
        screen.note("Enter: next event, r: to the next round, b: the table at this point, "
                    "a: all the rest, q: stop.")
    screen.blank()
    steps = _Steps(screen, render, _History(game, saved, who), events, all_at_once)
    if steps.run():
        _ending(steps, state)
    return 0


def _check_viewer(game: Game, as_role: str) -> None:
    if as_role != EVERYONE and as_role not in game.role_names:
        choices = [*game.roles, EVERYONE]
        hint = did_you_mean(as_role, choices) or f"choose one of: {', '.join(choices)}"
        raise UsageError(f"unknown role '{as_role}' for --as", hint)


def _log(game: Game, state: State, who: str | None) -> list[Event]:
    return list(state["log"] if who is None else game.observe(state, who)["log"])


def _title(screen: Screen, render: Renderer, saved: SavedGame, state: State, who: str | None,
           count: int) -> None:
    game = render.game
    seen_by = "everyone" if who is None else render.name(who)
    seed = f", seed {saved.seed}" if state["result"] is not None or who is None else ""
    screen.show(Text(f"Replay of {game.pack_name} {game.version}{seed}, as seen by {seen_by}",
                     style="bold"))
    screen.show(Text(f"{seats_text(saved.seats, render.name)}; {len(saved.decisions)} "
                     f"decisions, {count} events"))


def _ending(steps: _Steps, state: State) -> None:
    screen, render = steps.screen, steps.render
    screen.blank()
    result = state["result"]
    if result is not None:
        screen.show(game_over(render, result), *render.table.ending(steps.history.states))
    else:
        waiting = ", ".join(render.name(d.player) for d in render.game.pending(state))
        screen.note(f"The game was saved before its end, waiting for {waiting or 'nobody'}.")
    if steps.history.who is not None:
        steps.table_at(len(steps.history.states) - 1)


class _Steps:
    """The events of a replay, shown one at a time as the viewer asks."""

    def __init__(self, screen: Screen, render: Renderer, history: _History,
                 events: list[Event], all_at_once: bool) -> None:
        self.screen = screen
        self.render = render
        self.history = history
        self.events = events
        self.all_at_once = all_at_once
        self.last: int | None = None  # the round of the last event shown
        self.next_round: int | None = None  # after 'r': go on without asking until this round

    def run(self) -> bool:
        """Show the events; False if the viewer stopped before the end."""
        for number, event in enumerate(self.events, start=1):
            self._show(event)
            if self._asks(number) and not self._obeyed(self._answer(number)):
                return False
        return True

    def _asks(self, shown: int) -> bool:
        return not (self.all_at_once or shown == len(self.events) or self._skipping(shown))

    def _obeyed(self, answer: str | None) -> bool:
        if answer is None or answer in ("q", "quit"):
            return False
        if answer in ("a", "all"):
            self.all_at_once = True
        if answer in ("r", "round"):
            self.next_round = (self.last or 0) + 1
        return True

    def _show(self, event: Event) -> None:
        for line in self.render.events([event], self.history.who, self.last):
            self.screen.show(line)
        number = event.get("round")
        if isinstance(number, int):
            self.last = number

    def _skipping(self, shown: int) -> bool:
        """Whether to go on without asking to the next round, after ``r``."""
        if self.next_round is None:
            return False
        if self.last is None or self.last < self.next_round:
            return True
        self.next_round = None
        self.table_at(self.history.index_at(shown))
        return False

    def _answer(self, shown: int) -> str | None:
        """What the viewer types after ``shown`` events (``b`` shows the table); None at the end."""
        while True:
            try:
                answer = self.screen.ask(f"[{shown}/{len(self.events)}] ").strip().lower()
            except EOFError:
                self.screen.note("End of input: the replay stops here.")
                return None
            if answer not in ("b", "board"):
                return answer
            self.table_at(self.history.index_at(shown))

    def table_at(self, index: int) -> None:
        """The table at state ``index`` as the viewer saw it, beliefs brought up to there."""
        history = self.history
        game = history.game
        state = history.states[index]
        for role in [history.who] if history.who is not None else game.roles:
            self.render.table.beliefs.follow(role, history.seen_until(index, role))
            obs = game.observe(state, role)
            self.screen.show(self.render.header(obs, role))
            for section in self.render.view(obs, role):
                self.screen.show(section)


class _History:
    """The states of a saved game, to show the table at any event."""

    def __init__(self, game: Game, saved: SavedGame, who: str | None) -> None:
        self.game = game
        self.who = who
        self.deciders = [role for role, _ in saved.decisions]
        self.states = states_of(game, saved.seed, saved.decisions)
        self.counts = [len(_log(game, state, who)) for state in self.states]
        self.followed: dict[str, int] = {}  # per role, the decisions its table has followed

    def seen_until(self, index: int, role: str) -> list[Observation]:
        """``role``'s observations at its decisions before state ``index``, not given yet."""
        start = self.followed.get(role, 0)
        self.followed[role] = max(start, index)
        return [self.game.observe(self.states[number], role)
                for number in range(start, index) if self.deciders[number] == role]

    def index_at(self, shown: int) -> int:
        """The state when the viewer had seen ``shown`` events."""
        return next((index for index, count in enumerate(self.counts) if count >= shown),
                    len(self.states) - 1)


def default_viewer(saved: SavedGame, state: State, where: str) -> str:
    """Whose view a replay shows without ``--as``: everyone's once over, else its only person's."""
    if state["result"] is not None:
        return EVERYONE
    people = [role for role, spec in saved.seats.items() if spec == HUMAN]
    if len(people) == 1:
        return people[0]
    raise UsageError(f"{where}: this game is not over, and a replay shows only what one "
                     f"player may see", f"say whose view: --as ROLE (roles: "
                     f"{', '.join(saved.seats)}), or --as all to see every secret")
