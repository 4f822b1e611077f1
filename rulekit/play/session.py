"""``rulekit play``: a game at the terminal, people against bots or against each other.

The loop takes the first pending decision of the game, again and again, until the game ends:

- a bot's decision is asked of its agent with its own :class:`~rulekit.agents.View` (seeded from
  the game's seed and its role, as in simulations) and applied at once; what the person at the
  screen may see of it is shown, paced so that they can follow (``fast`` skips the pauses);
- a decision with a single legal option is taken without asking;
- a person's decision shows their view (from ``game.observe``) and a numbered menu, and reads
  answers until one is legal; ``help``, ``log``, ``map``, ``save`` and ``quit`` are answered in
  between.

With several people at one terminal (hot seat) the screen is wiped between two people's turns
and a "pass to ..." screen waits for Enter, so that nobody sees another's secrets; each then
sees what happened since their last turn. Simultaneous decisions are asked one after the other
(the engine takes partial commits and reveals nothing until all have answered).

A game is saved as its seed, seats and decisions (see :mod:`rulekit.play.savefile`): with
``save``, after Ctrl-C if the player wants it, and to the default save file when the input
ends at a prompt. Given the same seed, seats and typed lines a game is played the same way.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.panel import Panel
from rich.text import Text

from rulekit.agents import (
    AssignmentWords,
    View,
    as_option,
    choose_function,
    load_agent,
    parse_assignments,
)
from rulekit.engine.decisions import Decision, Option
from rulekit.engine.game import Game, State
from rulekit.errors import (
    GameRuntimeError,
    IllegalActionError,
    RulekitError,
    SaveFileError,
)
from rulekit.play.prompt import Choice, Command, Menu, Problem, forced_option, parse_answer
from rulekit.play.render import STYLE_ERROR, Renderer, help_text, phase_names
from rulekit.play.savefile import (
    HUMAN,
    SavedGame,
    autosave_path,
    restore_rng,
    rng_state,
    write_save,
)
from rulekit.play.screen import Screen
from rulekit.simulate import seat_rng

BOT_PACE = 0.8  # seconds after each event that follows a bot's move
MAX_RECENT = 20  # events shown at the top of a turn; the rest through 'log'

SEAT_WORDS = AssignmentWords("--seat", "ROLE=human or ROLE=AGENT", "--seat", "seats")

EXIT_OK = 0
EXIT_INTERRUPTED = 130


def parse_seats(pairs: list[str], roles: list[str]) -> dict[str, str]:
    """``["hunter=human", "runner=random,..."]`` -> ``{role: "human" | agent spec}`` for every
    role: by default the first role is played by a person and the others by random bots."""
    given = parse_assignments(pairs, roles, SEAT_WORDS, f"--seat {roles[0]}=human")
    seats = {role: HUMAN if spec.lower() == HUMAN else spec for role, spec in given.items()}
    if not seats:
        seats[roles[0]] = HUMAN
    for role in roles:
        seats.setdefault(role, "random")
    return {role: seats[role] for role in roles}


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
    save_always: bool = False  # write the finished game to save_path without asking
    resumed_from: Path | None = None

    def __post_init__(self) -> None:
        self.game: Game = self.loaded.game
        game = self.game
        self.render = Renderer(game, phase_names(self.loaded.documents))
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
        self.shown: dict[str, Any] = {}  # the view last shown, per player
        self.saved_once = False
        if self.state is None:
            self.state = game.new_game(self.seed)

    # ------------------------------------------------------------ saving

    @property
    def default_save(self) -> Path:
        return self.save_path or autosave_path(self.game.pack_id)

    def saved_game(self) -> SavedGame:
        game = self.game
        return SavedGame(pack=game.pack_id, version=game.version, pack_hash=game.pack_hash,
                         params=dict(game.params), seed=self.seed, seats=dict(self.seats),
                         decisions=list(self.decisions),
                         source=str(Path(self.loaded.folder).resolve()), rng=dict(self.rng))

    def save(self, path: Path | None = None, why: str = "The game is saved") -> Path | None:
        """Write the game; say where (or what went wrong: the game goes on either way)."""
        target = path or self.default_save
        try:
            written = write_save(target, self.saved_game())
        except SaveFileError as exc:
            self.screen.error(f"Not saved: {exc.message}")
            return None
        self.saved_once = True
        command = "replay" if self._state["result"] is not None else "play --resume"
        self.screen.note(f"{why} to {written}")
        self.screen.note(f"(rulekit {command} {_shell_path(written)})")
        return written

    @property
    def _state(self) -> State:
        assert self.state is not None
        return self.state

    # ------------------------------------------------------------ the loop

    def run(self) -> int:
        """Play until the game ends or the player leaves; the exit code."""
        try:
            self._intro()
            while self._state["result"] is None:
                self._step()
            self._finish()
            return EXIT_OK
        except _Leave as leave:
            return leave.code
        except KeyboardInterrupt:
            return self._interrupted()
        except RulekitError:  # a broken bot or pack: keep the game up to here, then report
            if self.decisions and self._state["result"] is None:
                self.save(why="Something went wrong; the game up to here is saved")
            raise

    def _intro(self) -> None:
        game = self.game
        seats = ", ".join(
            f"{self.render.name(role)}: {'person' if spec == HUMAN else spec + ' bot'}"
            for role, spec in self.seats.items())
        self.screen.show(Text(f"{game.pack_name} {game.version}, seed {self.seed}",
                              style="bold"))
        self.screen.show(Text(seats))
        if self.resumed_from is not None:
            self.screen.note(f"Resumed from {self.resumed_from} after "
                             f"{len(self.decisions)} decisions.")
        if self.humans:
            self.screen.note("Type help at any prompt for the commands.")
        self.screen.blank()

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
        forced = forced_option(decision)
        if forced is not None:
            self._apply(role, forced)
            self._stream(0)
            return
        self._ask(role, decision)
        self._stream(0)

    def _apply(self, role: str, option: Option, bot: Bot | None = None) -> None:
        state = self.game.apply(self._state, {role: option})
        self.decisions.append((role, option.id))
        if bot is not None:
            self.rng[role] = rng_state(bot.rng)
        self.state = state

    # ------------------------------------------------------------ what is shown

    def _visible(self, viewer: str | None) -> list[dict[str, Any]]:
        """The events ``viewer`` may see (public ones only for no one in particular)."""
        if viewer is not None:
            return list(self.game.observe(self._state, viewer)["log"])
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
            self.screen.show(line)
            if not line.plain.startswith("  --"):
                self.screen.pause(pace)

    def _pass_to(self, role: str) -> None:
        """Wipe the screen and wait for ``role``'s player."""
        self.shown.clear()
        self.screen.clear()
        name = self.render.name(role)
        self.screen.show(Panel(Text(f"Pass to {name}, press Enter", style="bold"),
                               expand=False))
        try:
            self.screen.ask(f"{name}, press Enter when ready: ")
        except EOFError:
            self._end_of_input()
        self.screen.clear()

    def _show_turn(self, role: str, menu: Menu) -> None:
        obs = self.game.observe(self._state, role)
        screen = self.screen
        screen.blank()
        seen = (obs["round"], obs["phase"], obs["zones"], obs["vars"])
        if self.shown.get(role) != seen:  # nothing new: the view above still holds
            self.shown[role] = seen
            screen.show(self.render.header(obs, role))
            for section in self.render.view(obs, role):
                screen.show(section)
        events, last = self._unseen(role)
        if events:
            title = "Since your last turn" if self.hot_seat else "Events"
            screen.show(Text(title, style="bold underline"))
            if len(events) > MAX_RECENT:
                screen.show(Text(f"  ({len(events) - MAX_RECENT} earlier events: type log)",
                                 style="dim"))
                last = events[-MAX_RECENT - 1].get("round")
                events = events[-MAX_RECENT:]
            for line in self.render.events(events, role, last if isinstance(last, int)
                                           else None):
                screen.show(line)
        screen.show(self.render.decision(menu, role))

    # ------------------------------------------------------------ a person's decision

    def _ask(self, role: str, decision: Decision) -> None:
        if self.hot_seat and self.holder != role:
            self._pass_to(role)
        self.holder = role
        menu = Menu(decision, self.game.label)
        self._show_turn(role, menu)
        prompt = f"{self.render.name(role)}> "
        while True:
            try:
                text = self.screen.ask(prompt)
            except EOFError:
                self._end_of_input()
            answer = parse_answer(menu, text)
            if isinstance(answer, Problem):
                self.screen.show(Text(answer.message, style=STYLE_ERROR))
                continue
            if isinstance(answer, Command):
                self._command(answer, role, menu)
                continue
            assert isinstance(answer, Choice)
            try:
                self._apply(role, answer.option)
            except IllegalActionError as exc:
                self.screen.show(Text(exc.message, style=STYLE_ERROR))
                continue
            return

    def _command(self, command: Command, role: str, menu: Menu) -> None:
        screen = self.screen
        if command.name == "help":
            screen.show(help_text(str(self.default_save)))
        elif command.name == "log":
            events = self.game.observe(self._state, role)["log"]
            screen.show(Text(f"Log ({len(events)} events)", style="bold underline"))
            for line in self.render.events(events, role):
                screen.show(line)
        elif command.name == "map":
            screen.show(self.render.map())
        elif command.name == "save":
            self.save(Path(command.argument) if command.argument else None)
        elif command.name == "quit":
            if self._yes("Save the game before leaving? [y/N] "):
                self.save()
            screen.note("Goodbye.")
            raise _Leave(EXIT_OK)
        screen.show(Text(f"Back to: {menu.decision.prompt}", style="dim"))

    def _yes(self, question: str) -> bool:
        """A yes/no question; the end of the input counts as yes (nothing gets lost)."""
        try:
            answer = self.screen.ask(question)
        except EOFError:
            return True
        return answer.strip().lower() in ("y", "yes")

    def _end_of_input(self) -> None:
        self.save(why="End of input: the game is saved")
        raise _Leave(EXIT_OK)

    def _interrupted(self) -> int:
        self.screen.blank()
        try:
            if self._yes("Interrupted. Save the game before leaving? [y/N] "):
                self.save()
        except KeyboardInterrupt:
            self.screen.blank()
        return EXIT_INTERRUPTED

    # ------------------------------------------------------------ the end

    def _finish(self) -> None:
        state = self._state
        if self.hot_seat:
            self.screen.clear()
            obs = self.game.observe(state, self.game.roles[0])
            self.screen.show(self.render.header(obs, None))
            events, _ = self._unseen(None)
            for line in self.render.events(events[-MAX_RECENT:], None):
                self.screen.show(line)
        else:
            self._stream(0)
        result = state["result"]
        winner = self.render.name(result.get("winner")) if result.get("winner") else None
        banner = f"{winner} wins." if winner else "Nobody wins."
        reason = str(result.get("reason") or "")
        self.screen.show(Panel(Text(f"Game over: {banner} {reason}".strip(), style="bold"),
                               expand=False))
        if self.save_always or self.saved_once:
            self.save(why="The finished game is saved")
            return
        if not self.humans:
            return
        try:
            text = self.screen.ask("Press Enter to leave, or type save [FILE] to keep the game "
                                   "for rulekit replay: ")
        except EOFError:
            return
        word, _, rest = text.strip().partition(" ")
        if word.lower() == "save":
            self.save(Path(rest.strip()) if rest.strip() else None,
                      why="The finished game is saved")


def _shell_path(path: Path) -> str:
    """A path as a person would type it: relative to the working folder when inside it."""
    try:
        text = str(path.relative_to(Path.cwd()))
    except ValueError:
        text = str(path)
    return f"'{text}'" if any(c in text for c in " '\"$&;|<>()") else text


__all__ = ["BOT_PACE", "Bot", "Session", "parse_seats"]
