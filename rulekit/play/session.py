"""``rulekit play``: a game at the terminal, people against bots or each other.

This module holds the loop. It takes the first pending decision again and again, until the game
ends.

A bot's decision is asked of its agent, and applied at once. The agent's
:class:`~rulekit.bots.agent.View` is seeded from the game's seed and its role, as in simulations.
The person at the screen sees what they may of it, paced to follow (``fast`` skips the pauses).

A person is asked every decision, even one with a single legal option (Enter takes it). Whether
someone is asked must not depend on what only they may see. They see their view and a numbered menu
(:mod:`~rulekit.play.asking`). Answers are read until one is legal.

With several people at one terminal (hot seat), the screen is wiped between their turns. A turn is a
run of decisions by one person. A "pass to ..." screen waits for Enter, under the public events. So
nobody sees another's secrets. Each then sees what happened since their last turn; each event is
told once. Simultaneous decisions are asked one after the other. The engine reveals nothing until
all have answered.

The seed of a game is a secret while it is on: it tells every hidden card. It is drawn from the
operating system, and shown when the game is over. The bots' generators are derived from it.

A game is saved as its seed, seats and decisions, before every question to a person. The same seed,
seats and typed lines play the same game.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass, field
from pathlib import Path

from rich.text import Text

from rulekit.engine.decisions import Option
from rulekit.engine.game import Game, State
from rulekit.engine.observe import Observation
from rulekit.errors import GameRuntimeError, RulekitError
from rulekit.pack.loader import LoadedPack
from rulekit.play.asking import EXIT_OK, Leave, ask
from rulekit.play.bot import Bot
from rulekit.play.context import Context
from rulekit.play.ending import finish
from rulekit.play.feed import Feed
from rulekit.play.keeper import Keeper, shell_path
from rulekit.play.render import Renderer
from rulekit.play.savefile import HUMAN, RngState, SavedGame, restore_rng, rng_state
from rulekit.play.saves import now_text
from rulekit.play.screen import Screen
from rulekit.play.seats import seats_text
from rulekit.play.signals import Stopped, stopping_signals

BOT_PACE = 0.8  # seconds after each event that follows a bot's move
EXIT_INTERRUPTED = 130
CATCH_UP_NOTED = 40
"""A resumed game whose beliefs follow this many observations of a seat says it may take a
while (``benchmarks/bench_resume.py`` measures it)."""
BROKEN = "Something went wrong; the game up to here is saved"

Stage = tuple[int | None, str | None]
"""The round and phase of a game."""


@dataclass
class Session:
    """One game at the terminal, new or resumed."""

    loaded: LoadedPack
    seed: int
    seats: dict[str, str]
    screen: Screen
    decisions: list[tuple[str, str]] = field(default_factory=list)
    state: State | None = None  # the state after ``decisions`` (a resumed game)
    rng: dict[str, RngState] = field(default_factory=dict)  # bots' generators (resumed)
    # Each role's observations at its decisions before the save (resumed): the beliefs of
    # the bots and of the table follow them, as they followed the game before it was saved.
    history: dict[str, list[Observation]] = field(default_factory=dict)
    save_path: Path | None = None  # --save, or the file a game was resumed from
    resumed_from: Path | None = None
    started: str | None = None  # when the game began (UTC); now, for a new game

    def __post_init__(self) -> None:
        self.game: Game = self.loaded.game
        self.render = Renderer.of(self.loaded)
        self.bots = self._seat_bots()
        for role, seen in self.history.items():  # (follow keeps a list of its own)
            self.render.table.beliefs.follow(role, seen)
        self.humans = [role for role in self.game.roles if self.seats.get(role) == HUMAN]
        self.hot_seat = len(self.humans) > 1
        # the person at the screen (in hot seat, the one whose turn it is)
        self.holder: str | None = self.humans[0] if len(self.humans) == 1 else None
        self.last_decider: str | None = None  # who took the last decision
        self.bad_answers = 0  # answers not understood in a row
        self.stage: Stage = (None, None)  # round and phase of the last question
        self.started = self.started or now_text()
        self.keeper = self._keeper(self.started)
        if self.state is None:
            self.state = self.game.new_game(self.seed)
        self.feed = Feed(self.game, self.render, self.screen, self.state_now)
        self.context = Context(self.game, self.render.table)

    def _keeper(self, started: str) -> Keeper:
        """The keeper of the save file, active with a person or ``--save``."""
        return Keeper(screen=self.screen, pack_id=self.game.pack_id, started=started,
                      path=self.save_path, active=bool(self.humans) or self.save_path is not None,
                      snapshot=self.saved_game)

    def _seat_bots(self) -> dict[str, Bot]:
        """The bots of the seats no person takes, their generators restored."""
        bots = {role: Bot(self.game, role, spec, self.seed, list(self.history.get(role, ())))
                for role, spec in self.seats.items() if spec != HUMAN}
        for role, saved_state in self.rng.items():
            if role in bots:
                restore_rng(bots[role].rng, saved_state)
        self.rng = {role: rng_state(bot.rng) for role, bot in bots.items()}
        return bots

    # ------------------------------------------------------------ saving

    def saved_game(self) -> SavedGame:
        """The game as its save file holds it."""
        game = self.game
        return SavedGame(pack=game.pack_id, version=game.version, pack_hash=game.pack_hash,
                         params=dict(game.params), seed=self.seed, seats=dict(self.seats),
                         decisions=list(self.decisions),
                         source=str(Path(self.loaded.folder).resolve()), rng=dict(self.rng),
                         started=self.started, finished=self.state_now()["result"] is not None)

    def state_now(self) -> State:
        """The state of the game now."""
        assert self.state is not None
        return self.state

    def stage_now(self) -> Stage:
        """The round and phase the game is in."""
        return self.state_now().get("round"), self.state_now().get("phase")

    # ------------------------------------------------------------ the loop

    def run(self) -> int:
        """Play until the game ends or the player leaves; the exit code.

        The game is saved before every question to a person. Closing the terminal, a signal, Ctrl-C
        or a failure lose at most the answer being typed.
        """
        with stopping_signals():
            try:
                return self._play()
            except Leave as leave:
                return leave.code
            except KeyboardInterrupt:
                self.screen.blank()
                self.keeper.tell("Interrupted. The game is saved")
                return EXIT_INTERRUPTED
            except Stopped as stop:
                return self._stopped(stop)
            except RulekitError:  # a broken bot or pack: keep the game up to here, then report
                self.keeper.tell(BROKEN)
                raise
            except Exception as exc:
                if os.environ.get("RULEKIT_DEBUG"):
                    raise
                self.keeper.tell(BROKEN)
                raise RulekitError(f"internal error: {type(exc).__name__}: {exc}",
                                   "please report it, with the save file; RULEKIT_DEBUG=1 "
                                   "shows the details") from None

    def _play(self) -> int:
        """The game from its start to its end."""
        self._intro()
        while self.state_now()["result"] is None:
            self._step()
        finish(self)
        return EXIT_OK

    def _stopped(self, stop: Stopped) -> int:
        """Save the game on a signal, if the terminal is still there."""
        with contextlib.suppress(OSError, ValueError):  # the terminal may be gone
            self.keeper.keep()
            self.screen.blank()
            self.keeper.tell("Stopped by a signal. The game is saved")
        return stop.exit_code

    def _intro(self) -> None:
        """The pack, the seats, and where the game is saved."""
        game = self.game
        self.screen.show(Text(f"{game.pack_name} {game.version}", style="bold"))
        self.screen.show(Text(seats_text(self.seats, self.render.name)))
        if self.resumed_from is not None:
            self._resumed(self.resumed_from)
        elif self.keeper.active:
            self.screen.note(f"The game is saved as it goes, to {shell_path(self.keeper.path)}.")
        if self.humans:
            self.screen.note("Type help at any prompt for the commands.")
        self.screen.blank()

    def _resumed(self, where: Path) -> None:
        """Where the game was resumed from, and the last events seen.

        In hot seat, each person gets theirs after their pass screen.
        """
        self.screen.note(f"Resumed from {where} after {len(self.decisions)} decisions.")
        if max(map(len, self.history.values()), default=0) >= CATCH_UP_NOTED:
            self.screen.note("What each player may know is worked out again: this may "
                             "take a few seconds.")
        if not self.hot_seat and self.holder is not None:
            self.feed.recent("Recap", self.holder)

    def _step(self) -> None:
        """Ask the first pending decision, and show what happened."""
        pending = self.game.pending(self.state_now())
        if not pending:
            raise GameRuntimeError("the game is neither over nor waiting for a decision")
        decision = pending[0]
        role = decision.player
        bot = self.bots.get(role)
        if bot is None:
            ask(self, role, decision)
            self.stream(0)
            return
        self.apply(role, bot.decide(self.state_now(), decision), bot)
        self.stream(BOT_PACE)

    def apply(self, role: str, option: Option, bot: Bot | None = None) -> None:
        """Apply ``role``'s answer, and record it."""
        state = self.game.apply(self.state_now(), {role: option})
        self.decisions.append((role, option.id))
        self.last_decider = role
        if bot is not None:
            self.rng[role] = rng_state(bot.rng)
        self.state = state

    def stream(self, pace: float) -> None:
        """Show the person at the screen what just happened.

        In hot seat, each person sees it at their next turn instead.
        """
        if not self.hot_seat:
            self.feed.stream(self.holder, pace)


__all__ = ["BOT_PACE", "Bot", "Session"]
