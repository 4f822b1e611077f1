"""``rulekit replay``: step through a saved game, one event at a time, as one or all saw it."""

from __future__ import annotations

from rich.text import Text

from rulekit.engine.game import Game
from rulekit.engine.state import Event, State
from rulekit.errors import UsageError, did_you_mean
from rulekit.pack.loader import LoadedPack
from rulekit.play.render import Renderer
from rulekit.play.restore import pack_change, rebuild, seen_at_decisions
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
    states = rebuild(game, saved, where)
    change = pack_change(saved, game, where)
    if change is not None:
        screen.note(change)
    viewer = as_role if as_role is not None else default_viewer(saved, states[-1], where)
    _Replay(screen, Renderer.of(loaded), saved, states, None if viewer == EVERYONE else viewer,
            all_at_once).run()
    return 0


def _check_viewer(game: Game, as_role: str) -> None:
    if as_role != EVERYONE and as_role not in game.role_names:
        choices = [*game.roles, EVERYONE]
        hint = did_you_mean(as_role, choices) or f"choose one of: {', '.join(choices)}"
        raise UsageError(f"unknown role '{as_role}' for --as", hint)


class _Replay:
    """A saved game as one viewer (``who``, or everyone) saw it, one event at a time."""

    def __init__(self, screen: Screen, render: Renderer, saved: SavedGame, states: list[State],
                 who: str | None, all_at_once: bool) -> None:
        self.screen = screen
        self.render = render
        self.game = render.game
        self.saved = saved
        self.states = states
        self.who = who
        self.counts = [len(self._log(state)) for state in states]  # events seen, by state
        self.events = [event for event in self._log(states[-1])
                       if event["e"] != "end"]  # shown as a banner
        self.followed: dict[str, int] = {}  # per role, the decisions its table has followed
        self.all_at_once = all_at_once
        self.last: int | None = None  # the round of the last event shown
        self.next_round: int | None = None  # after 'r': go on without asking until this round

    def _log(self, state: State) -> list[Event]:
        return list(state["log"] if self.who is None else self.game.observe(state, self.who)["log"])

    def _intro(self) -> None:
        """Whose view of which game this is, its seats, its length and the keys."""
        render, game, saved = self.render, self.game, self.saved
        seen_by = "everyone" if self.who is None else render.name(self.who)
        over = self.states[-1]["result"] is not None
        seed = f", seed {saved.seed}" if over or self.who is None else ""
        self.screen.show(Text(f"Replay of {game.pack_name} {game.version}{seed}, as seen by "
                              f"{seen_by}", style="bold"))
        self.screen.show(Text(f"{seats_text(saved.seats, render.name)}; {len(saved.decisions)} "
                              f"decisions, {len(self.events)} events"))
        if not self.all_at_once:
            self.screen.note("Enter: next event, r: to the next round, b: the table at this "
                             "point, a: all the rest, q: stop.")
        self.screen.blank()

    def run(self) -> None:
        """Show the events as the viewer asks, then the ending unless the viewer stops."""
        self._intro()
        for number, event in enumerate(self.events, start=1):
            self._show(event)
            if self._asks(number) and not self._obeyed(self._answer(number)):
                return
        self._ending()

    def _asks(self, shown: int) -> bool:
        return not (self.all_at_once or shown == len(self.events) or self._skipping(shown))

    def _obeyed(self, answer: str) -> bool:
        if answer in ("q", "quit"):
            return False
        if answer in ("a", "all"):
            self.all_at_once = True
        if answer in ("r", "round"):
            self.next_round = (self.last or 0) + 1
        return True

    def _show(self, event: Event) -> None:
        self.screen.show(*self.render.events([event], self.who, self.last))
        self.last = event["round"]

    def _skipping(self, shown: int) -> bool:
        """Whether to go on without asking to the next round, after ``r``."""
        if self.next_round is None:
            return False
        if self.last is None or self.last < self.next_round:
            return True
        self.next_round = None
        self.table_at(self._index_at(shown))
        return False

    def _answer(self, shown: int) -> str:
        """What the viewer types after ``shown`` events (``b`` shows the table); q at the end."""
        while True:
            try:
                answer = self.screen.ask(f"[{shown}/{len(self.events)}] ").strip().lower()
            except EOFError:
                self.screen.note("End of input: the replay stops here.")
                return "q"
            if answer not in ("b", "board"):
                return answer
            self.table_at(self._index_at(shown))

    def _index_at(self, shown: int) -> int:
        """The state when the viewer had seen ``shown`` events."""
        return next((index for index, count in enumerate(self.counts) if count >= shown),
                    len(self.states) - 1)

    def table_at(self, index: int) -> None:
        """The table at state ``index`` as the viewer saw it, beliefs brought up to there."""
        game = self.game
        for role in [self.who] if self.who is not None else game.roles:
            start = self.followed.get(role, 0)
            self.followed[role] = max(start, index)
            self.render.table.beliefs.follow(role, seen_at_decisions(
                game, self.states, self.saved.decisions, role, start, index))
            obs = game.observe(self.states[index], role)
            self.screen.show(self.render.header(obs, role), *self.render.view(obs, role))

    def _ending(self) -> None:
        """The result and summary of a finished game, else who it waits for."""
        screen, render = self.screen, self.render
        screen.blank()
        state = self.states[-1]
        if state["result"] is not None:
            screen.show(*game_over(render, self.states))
        else:
            waiting = ", ".join(render.name(d.player) for d in self.game.pending(state))
            screen.note(f"The game was saved before its end, waiting for {waiting or 'nobody'}.")
        if self.who is not None:
            self.table_at(len(self.states) - 1)


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
