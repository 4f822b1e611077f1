"""``rulekit play``: a game at the terminal, people against bots or against each other.

The loop takes the first pending decision of the game, again and again, until the game ends:

- a bot's decision is asked of its agent with its own :class:`~rulekit.agents.View` (seeded from
  the game's seed and its role, as in simulations) and applied at once; what the person at the
  screen may see of it is shown, paced so that they can follow (``fast`` skips the pauses);
- a person is asked every decision the engine poses, even one with a single legal option
  (Enter takes it), since whether and how often someone is asked must not depend on what only
  they may see; a person's decision shows their view (from ``game.observe``) and a numbered
  menu, and reads answers until one is legal; ``help``, ``log``, ``map``, ``save`` and
  ``quit`` are answered in between.

With several people at one terminal (hot seat) the screen is wiped between two people's turns
(a turn is a run of decisions by one person, however many steps it has) and a "pass to ..."
screen, under the public events both may read, waits for Enter, so that nobody sees another's
secrets; each then sees what happened
since their last turn. Simultaneous decisions are asked one after the other
(the engine takes partial commits and reveals nothing until all have answered).

The seed of a game is a secret while it is on (whoever knows it knows every hidden card): it is
drawn from the operating system, shown only when the game is over, and the bots' generators
are derived from it.

A game is saved as its seed, seats and decisions (see :mod:`rulekit.play.savefile`): with
``save``, after Ctrl-C if the player wants it, and to the default save file when the input
ends at a prompt. Given the same seed, seats and typed lines a game is played the same way.
"""

from __future__ import annotations

import contextlib
import os
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.panel import Panel
from rich.text import Text

from rulekit.agents import (
    View,
    as_option,
    choose_function,
    load_agent,
)
from rulekit.engine.decisions import NONE_ID, Decision, Option
from rulekit.engine.game import Game, State
from rulekit.errors import (
    GameRuntimeError,
    IllegalActionError,
    RulekitError,
)
from rulekit.play.cards import card_list, card_named
from rulekit.play.keeper import Keeper, shell_path
from rulekit.play.prompt import Choice, Command, Menu, Problem, parse_answer
from rulekit.play.render import (
    STYLE_ERROR,
    Hanging,
    Renderer,
    help_text,
    phase_names,
    round_count,
)
from rulekit.play.savefile import HUMAN, SavedGame, restore_rng, rng_state
from rulekit.play.saves import now_text
from rulekit.play.screen import Screen
from rulekit.play.signals import Stopped, stopping_signals
from rulekit.simulate import seat_rng

BOT_PACE = 0.8  # seconds after each event that follows a bot's move
MAX_RECENT = 10  # events shown at the start of a turn; the rest through 'log'

EXIT_OK = 0
EXIT_BAD_INPUT = 1
EXIT_INTERRUPTED = 130
MAX_BAD_ANSWERS = 5  # refused answers in a row before piped play stops


class Bot:
    """A seat played by an agent, with the seat's own random generator."""

    def __init__(self, game: Game, role: str, spec: str, seed: int) -> None:
        self.game = game
        self.role = role
        self.spec = spec
        self.choose = choose_function(load_agent(spec))
        self.rng: random.Random = seat_rng(seed, role)

    def decide(self, state: State, decision: Decision) -> Option:
        answer = self.choose(View.of(self.game, self.role, self.rng, state), decision)
        return as_option(decision, answer, f"the bot of {self.role} ({self.spec})")


class _Leave(Exception):
    """Leave the game loop with an exit code."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


@dataclass
class Session:
    """One game at the terminal (new or resumed)."""

    loaded: Any  # rulekit.pack.loader.LoadedPack
    seed: int
    seats: dict[str, str]
    screen: Screen
    decisions: list[tuple[str, str]] = field(default_factory=list)
    state: State | None = None  # the state after ``decisions`` (a resumed game)
    rng: dict[str, Any] = field(default_factory=dict)  # bots' generator states (resumed)
    save_path: Path | None = None  # --save, or the file a game was resumed from
    resumed_from: Path | None = None
    started: str | None = None  # when the game began (UTC); now, for a new game

    def __post_init__(self) -> None:
        self.game: Game = self.loaded.game
        game = self.game
        self.render = Renderer(game, phase_names(self.loaded.documents),
                               round_count(self.loaded.documents, dict(game.params)),
                               self.loaded.display)
        self.names = spaced_names(game)  # never broken between two lines
        self.bots = {role: Bot(game, role, spec, self.seed)
                     for role, spec in self.seats.items() if spec != HUMAN}
        for role, saved_state in self.rng.items():
            if role in self.bots:
                restore_rng(self.bots[role].rng, saved_state)
        self.rng = {role: rng_state(bot.rng) for role, bot in self.bots.items()}
        self.humans = [role for role in game.roles if self.seats.get(role) == HUMAN]
        self.hot_seat = len(self.humans) > 1
        self.holder: str | None = None if self.hot_seat or not self.humans else self.humans[0]
        self.seen: dict[str | None, int] = {}  # events shown, per viewer
        self.last_decider: str | None = None  # who took the last decision
        self.turn_seen: dict[str, int] = {}  # events a person had seen at their last decision
        self.bad_answers = 0  # answers not understood in a row
        self.stage: tuple[Any, Any] = (None, None)  # round and phase of the last question
        self.started = self.started or now_text()
        self.keeper = Keeper(screen=self.screen, pack_id=game.pack_id, started=self.started,
                             path=self.save_path, active=bool(self.humans) or
                             self.save_path is not None, snapshot=self.saved_game)
        if self.state is None:
            self.state = game.new_game(self.seed)

    # ------------------------------------------------------------ saving

    def saved_game(self) -> SavedGame:
        game = self.game
        return SavedGame(pack=game.pack_id, version=game.version, pack_hash=game.pack_hash,
                         params=dict(game.params), seed=self.seed, seats=dict(self.seats),
                         decisions=list(self.decisions),
                         source=str(Path(self.loaded.folder).resolve()), rng=dict(self.rng),
                         started=self.started, finished=self._state["result"] is not None)

    @property
    def _state(self) -> State:
        assert self.state is not None
        return self.state

    # ------------------------------------------------------------ the loop

    def run(self) -> int:
        """Play until the game ends or the player leaves; the exit code. The game is written
        to its save file before every question to a person, so that closing the terminal, a
        signal, Ctrl-C or a failure loses at most the answer being typed."""
        with stopping_signals():
            try:
                self._intro()
                while self._state["result"] is None:
                    self._step()
                self._finish()
                return EXIT_OK
            except _Leave as leave:
                return leave.code
            except KeyboardInterrupt:
                self.screen.blank()
                self.keeper.tell("Interrupted. The game is saved")
                return EXIT_INTERRUPTED
            except Stopped as stop:
                with contextlib.suppress(OSError, ValueError):  # the terminal may be gone
                    self.keeper.keep()
                    self.screen.blank()
                    self.keeper.tell("Stopped by a signal. The game is saved")
                return stop.exit_code
            except RulekitError:  # a broken bot or pack: keep the game up to here, then report
                self.keeper.tell("Something went wrong; the game up to here is saved")
                raise
            except Exception as exc:
                if os.environ.get("RULEKIT_DEBUG"):
                    raise
                self.keeper.tell("Something went wrong; the game up to here is saved")
                raise RulekitError(f"internal error: {type(exc).__name__}: {exc}",
                                   "please report it, with the save file; RULEKIT_DEBUG=1 "
                                   "shows the details") from None

    def _intro(self) -> None:
        game = self.game
        seats = ", ".join(
            f"{self.render.name(role)}: {'person' if spec == HUMAN else spec + ' bot'}"
            for role, spec in self.seats.items())
        self.screen.show(Text(f"{game.pack_name} {game.version}", style="bold"))
        self.screen.show(Text(seats))
        if self.resumed_from is not None:
            self.screen.note(f"Resumed from {self.resumed_from} after "
                             f"{len(self.decisions)} decisions.")
            self._recap()
        elif self.keeper.active:
            self.screen.note(f"The game is saved as it goes, to {shell_path(self.keeper.path)}.")
        if self.humans:
            self.screen.note("Type help at any prompt for the commands.")
        self.screen.blank()

    def _recap(self) -> None:
        """After a resume, the last events the person at the screen saw, before the board
        (in hot seat each person gets theirs after their pass screen)."""
        if self.hot_seat or self.holder is None:
            return
        events = self._visible(self.holder)
        self.seen[self.holder] = self.turn_seen[self.holder] = len(events)
        self._recent("Recap", events, self.holder, None)

    def _step(self) -> None:
        pending = self.game.pending(self._state)
        if not pending:
            raise GameRuntimeError("the game is neither over nor waiting for a decision")
        decision = pending[0]
        role = decision.player
        bot = self.bots.get(role)
        if bot is not None:
            option = bot.decide(self._state, decision)
            self._apply(role, option, bot)
            self._stream(BOT_PACE)
            return
        self._ask(role, decision)
        self._stream(0)

    def _apply(self, role: str, option: Option, bot: Bot | None = None) -> None:
        state = self.game.apply(self._state, {role: option})
        self.decisions.append((role, option.id))
        self.last_decider = role
        if bot is not None:
            self.rng[role] = rng_state(bot.rng)
        self.state = state

    # ------------------------------------------------------------ what is shown

    def _visible(self, viewer: str | None) -> list[dict[str, Any]]:
        """The events ``viewer`` may see (public ones only for no one in particular), but for
        the records of their own answers: what an answer did is told by the pack's log lines,
        and an answer is never restated after it was typed."""
        if viewer is not None:
            return [event for event in self.game.observe(self._state, viewer)["log"]
                    if event.get("e") != "choice"]
        observed = self.game.observe(self._state, self.game.roles[0])["log"]
        return [event for event in observed if event.get("to") is None]

    def _unseen(self, viewer: str | None) -> tuple[list[dict[str, Any]], int | None]:
        """The events ``viewer`` has not been shown yet (marked as shown), and the round of the
        last event shown before them."""
        events = self._visible(viewer)
        start = self.seen.get(viewer, 0)
        self.seen[viewer] = len(events)
        last = events[start - 1].get("round") if start > 0 else None
        return events[start:], last if isinstance(last, int) else None

    def _stream(self, pace: float) -> None:
        """Show the person at the screen what just happened (not in hot seat, where each
        person sees it at their next turn)."""
        if self.hot_seat:
            return
        events, last = self._unseen(self.holder)
        for line in self.render.events(events, self.holder, last):
            self.screen.show(_event_line(line, self.names))
            if not line.plain.startswith("  --"):
                self.screen.pause(pace)

    def _recent(self, title: str | None, events: list[dict[str, Any]], viewer: str | None,
                last: int | None, room: int | None = None) -> None:
        """The last :data:`MAX_RECENT` of ``events`` (``last``: the round of the event shown
        before them) under ``title``, saying how many earlier ones ``log`` shows; no more
        than fit in ``room`` lines, if given."""
        if not events:
            return
        most = min(MAX_RECENT, len(events))
        while room is not None and most > 0 and self.screen.height(
                *self._event_lines(events[-most:], events, viewer, last)) + 2 > room:
            most -= 1
        if title and most:
            self.screen.show(Text(title, style="bold underline"))
        if len(events) > most and (room is None or most or room > 0):
            self.screen.show(Text(f"  ({len(events) - most} earlier events: type log)",
                                  style="dim"))
        for line in self._event_lines(events[-most:] if most else [], events, viewer, last):
            self.screen.show(_event_line(line, self.names))

    def _event_lines(self, shown: list[dict[str, Any]], events: list[dict[str, Any]],
                     viewer: str | None, last: int | None) -> list[Text]:
        """The lines of the last events ``shown`` of ``events``, under the right round."""
        if len(shown) < len(events):
            before = events[-len(shown) - 1].get("round")
            last = before if isinstance(before, int) else None
        return self.render.events(shown, viewer, last)

    def _pass_to(self, role: str) -> None:
        """Wipe the screen, show what both may see of what happened since the last pass (the
        public events), and wait for ``role``'s player."""
        self.screen.clear()
        events, last = self._unseen(None)
        self._recent("For everyone", events, None, last)
        name = self.render.name(role)
        self.screen.show(Panel(Text(f"Pass to {name}, press Enter", style="bold"),
                               expand=False))
        try:
            self.screen.ask(f"{name}, press Enter when ready: ")
        except EOFError:
            self._end_of_input()
        self.screen.clear()

    def _show_board(self, role: str) -> None:
        obs = self.game.observe(self._state, role)
        self.screen.show(self.render.header(obs, role))
        for section in self.render.view(obs, role):
            self.screen.show(section)

    def _show_turn(self, role: str, menu: Menu, passed: bool = False) -> None:
        """The question: at the start of the person's turn after the whole view and what
        happened since their last decision (shown again under the view, so that it stays in
        sight); later in the same run of decisions only what changed, the new events."""
        screen = self.screen
        screen.blank()
        start = passed or self.last_decider != role
        question = self.render.decision(menu, role)
        room = None
        if start:
            obs = self.game.observe(self._state, role)
            status = [self.render.header(obs, role), *self.render.status(obs, role)]
            screen.show(*status)
            self.seen[role] = min(self.seen.get(role, 0), self.turn_seen.get(role, 0))
            room = screen.room(*status, question)  # lines left for the events, on a terminal
        events, last = self._unseen(role)
        self._recent("Since your last turn" if start else None, events, role, last, room)
        screen.show(question)

    # ------------------------------------------------------------ a person's decision

    def _stage(self) -> tuple[Any, Any]:
        return self._state.get("round"), self._state.get("phase")

    def _ask(self, role: str, decision: Decision) -> None:
        passed = self.hot_seat and (self.holder != role or self.stage != self._stage())
        if passed:
            self._pass_to(role)  # a new phase is shown to both at once, even to go on
        self.holder = role
        self.stage = self._stage()
        self.keeper.keep()
        menu = Menu(decision, self.render.labeler(decision, self.game.observe(self._state, role)))
        self._show_turn(role, menu, passed)
        prompt = f"{self.render.name(role)}> "
        while True:
            try:
                text = self.screen.ask(prompt)
            except EOFError:
                self._end_of_input()
            answer = parse_answer(menu, text)
            if isinstance(answer, Problem):
                name = card_named(self.game, text) if answer.message.startswith(
                    "Nothing matches") else None
                self._refuse(f"{name} cannot be chosen here: {decision.prompt}." if name
                             else answer.message)
                continue
            self.bad_answers = 0
            if isinstance(answer, Command):
                self._command(answer, role, menu)
                continue
            assert isinstance(answer, Choice)
            if not self._confirmed(menu, answer.option, prompt):
                continue
            try:
                self._apply(role, answer.option)
            except IllegalActionError as exc:
                self._refuse(exc.message)
                continue
            self.keeper.keep()  # on disk at once: a kill now loses nothing typed
            self.turn_seen[role] = len(self._visible(role))
            return

    def _confirmed(self, menu: Menu, option: Option, prompt: str) -> bool:
        """Whether a subset answer that leaves out items the rules let the player add is
        meant: asked once of a person at a terminal (yes goes on; the same answer typed again
        too; anything else asks the question again). Piped answers are taken as meant, so
        that a script has one line per decision."""
        names = left_out(menu, option) if self.screen.input_is_terminal else []
        if not names:
            return True
        size = 0 if option.id == NONE_ID else len(option.id.split("+"))
        what = {0: "none of them", 1: "this one"}.get(size, f"these {size}")
        shown = ", ".join(names[:4]) + (f" and {len(names) - 4} more" if len(names) > 4 else "")
        self.screen.show(Text(f"You leave out {shown}, which you may choose now.",
                              style=STYLE_ERROR))
        try:
            text = self.screen.ask(f"Choose {what}? [y/N] ")
        except EOFError:
            self._end_of_input()
        typed = text.strip().lower()
        if typed in ("y", "yes"):
            return True
        again = parse_answer(menu, text) if typed not in ("", "n", "no") else None
        if isinstance(again, Choice) and again.option.id == option.id:
            return True
        self.screen.show(Text(f"Back to: {menu.decision.prompt}", style="dim"))
        self.screen.show(self.render.decision(menu, menu.decision.player))
        return False

    def _refuse(self, message: str) -> None:
        """Say why an answer is refused; stop after a few in a row when no person types them
        (piped input would otherwise be refused forever)."""
        self.screen.show(Text(message, style=STYLE_ERROR))
        self.bad_answers += 1
        if self.bad_answers >= MAX_BAD_ANSWERS and not self.screen.input_is_terminal:
            self.screen.error(f"Stopping: {self.bad_answers} answers in a row were not "
                              f"understood, and the input is not a terminal.")
            self.keeper.tell()
            raise _Leave(EXIT_BAD_INPUT)

    def _command(self, command: Command, role: str, menu: Menu) -> None:
        screen = self.screen
        if command.name == "help":
            screen.show(help_text(shell_path(self.keeper.path)))
        elif command.name == "log":
            events = self.game.observe(self._state, role)["log"]  # with one's own answers
            count = int(command.argument) if command.argument else len(events)
            shown = events[-count:] if count > 0 else []
            screen.show(Text(f"Log ({len(shown)} of {len(events)} events)",
                             style="bold underline"))
            first = len(events) - len(shown)
            before = events[first - 1].get("round") if first > 0 else None
            for line in self.render.events(shown, role, before if isinstance(before, int)
                                           else None):
                screen.show(_event_line(line, self.names))
        elif command.name == "board":
            self._show_board(role)
        elif command.name == "cards":
            screen.show(card_list(self.game, command.argument))
        elif command.name == "pile":
            screen.show(self.render.piles(self.game.observe(self._state, role),
                                          command.argument))
        elif command.name == "map":
            screen.show(self.render.map())
        elif command.name == "save":
            if command.argument:
                self.keeper.copy(Path(command.argument))
            else:
                self.keeper.tell()
        elif command.name == "quit":
            self.keeper.tell()
            screen.note("Goodbye.")
            raise _Leave(EXIT_OK)
        screen.show(Text(f"Back to: {menu.decision.prompt}", style="dim"))

    def _end_of_input(self) -> None:
        self.keeper.tell("End of input: the game is saved")
        raise _Leave(EXIT_OK)

    # ------------------------------------------------------------ the end

    def _reveal(self) -> None:
        sections = _reveal_sections(self)
        if sections:
            self.screen.show(Text("What was hidden", style="bold underline"))
            self.screen.show(*sections)

    def _finish(self) -> None:
        state = self._state
        if self.hot_seat:
            self.screen.clear()
            obs = self.game.observe(state, self.game.roles[0])
            self.screen.show(self.render.header(obs, None))
            events, last = self._unseen(None)
            self._recent(None, events, None, last)
        else:
            self._stream(0)
        result = state["result"]
        winner = self.render.name(result.get("winner")) if result.get("winner") else None
        banner = f"{winner} wins." if winner else "Nobody wins."
        reason = str(result.get("reason") or "")
        self.screen.show(Panel(Text(f"Game over: {banner} {reason}".strip(), style="bold"),
                               expand=False))
        self._reveal()
        self.screen.note(f"The seed of this game was {self.seed}.")
        self._keep_finished()

    def _keep_finished(self) -> None:
        """A finished game is kept where the player chose (``--save``, a resumed file); its
        automatic save file only if they ask, for ``rulekit replay``."""
        keeper = self.keeper
        if not keeper.automatic:
            keeper.tell("The finished game is saved")
            return
        keeper.keep()  # finished: never listed as a game still on, even if killed now
        try:
            text = self.screen.ask("Press Enter to leave, or type save [FILE] to keep the game "
                                   "for rulekit replay: ")
        except EOFError:
            text = ""
        word, _, rest = text.strip().partition(" ")
        if word.lower() != "save":
            keeper.discard()
        elif rest.strip():
            keeper.copy(Path(rest.strip()))
            keeper.discard()
        else:
            keeper.tell("The finished game is saved")


EVENT_INDENT = 2  # a log line's indent; its wrapped lines are indented twice as much


def _event_line(line: Text, names: tuple[str, ...]) -> Hanging:
    """A log line that wraps under itself, further in than the next line's start, never
    inside one of the pack's ``names``."""
    head, body = line[:EVENT_INDENT], line[EVENT_INDENT:]
    return Hanging(head, body, 2 * EVENT_INDENT, names)


def spaced_names(game: Game) -> tuple[str, ...]:
    """The names of a game's components and roles that have a space in them, longest first."""
    symbols = game.symbols
    ids = [*symbols.cards, *symbols.board.nodes, *symbols.board.regions]
    names = {game.label(i) for i in ids} | set(game.role_names.values())
    return tuple(sorted((n for n in names if " " in n), key=len, reverse=True))


def left_out(menu: Menu, option: Option) -> list[str]:
    """The labels of the items a subset answer leaves out that could be added to it, when
    the rules bound the choice by nothing but its items (no largest count below their number):
    leaving out what may be taken then is more likely a slip than a plan."""
    decision = menu.decision
    if not menu.subset or option.id.startswith("!") or decision.max < len(decision.items):
        return []
    chosen = set() if option.id == NONE_ID else set(option.id.split("+"))
    names: list[str] = []
    for index, item_id in enumerate(menu.item_ids):
        if item_id in chosen:
            continue
        ids = [i for i in menu.item_ids if i in chosen or i == item_id]
        try:
            decision.option("+".join(ids))
        except IllegalActionError:
            continue
        names.append(menu.item_labels[index])
    return list(dict.fromkeys(names))


def _reveal_sections(session: Session) -> list[Any]:
    """What each player held that the person at the screen could not see (every player's,
    in hot seat), now that the game is over."""
    if not session.humans:
        return []
    game, state = session.game, session._state
    others = [r for r in game.roles if session.hot_seat or r != session.holder]
    return [section for role in others
            for section in session.render.view(game.observe(state, role), role, only_own=True)]


__all__ = ["BOT_PACE", "Bot", "Session", "left_out"]
