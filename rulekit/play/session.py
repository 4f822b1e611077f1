"""``rulekit play``: a game at the terminal, people against bots or each other, saved as it goes."""

from __future__ import annotations

import contextlib
import os
import random
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

from rich.console import RenderableType
from rich.panel import Panel
from rich.text import Text

from rulekit.bots.agent import SeatBelief, View, as_option, asked, choose_function
from rulekit.bots.registry import load_agent
from rulekit.engine.decisions import Decision, Option
from rulekit.engine.draws import RandomChooser
from rulekit.engine.game import Game, State
from rulekit.engine.observe import Observation
from rulekit.engine.playout import playout, stalled
from rulekit.engine.state import copy_state
from rulekit.errors import GameRuntimeError, RulekitError
from rulekit.pack.loader import LoadedPack
from rulekit.play.asking import EXIT_OK, Leave, ask
from rulekit.play.feed import Feed
from rulekit.play.render import Renderer
from rulekit.play.restore import rebuild
from rulekit.play.savefile import HUMAN, RngState, SavedGame, restore_rng, rng_state
from rulekit.play.saves import Keeper, now_text, shell_path
from rulekit.play.screen import Screen
from rulekit.play.seats import seats_text
from rulekit.play.table import Context
from rulekit.sim.simulation import seat_rng

BOT_PACE = 0.8  # seconds after each event that follows a bot's move
# Decisions the bots take alone in a round after which random play, in a copy, looks for a
# stall ahead: a few seconds of paced moves, not 10,000.
LOOK_AHEAD = 20
EXIT_INTERRUPTED = 130
CATCH_UP_NOTED = 40  # observations of a seat a resumed game says may take a while
BROKEN = "Something went wrong; the game up to here is saved"
STALLED = "The round cannot end; the game up to here is saved"
# A closed terminal, or a kill: the signals that end a game saved, where the system has them.
STOPPING = tuple(getattr(signal, name) for name in ("SIGHUP", "SIGTERM") if hasattr(signal, name))

Stage = tuple[int | None, str | None]  # the round and phase of a game


class Stopped(BaseException):
    """A stop asked by a signal; no Exception, so no ``except Exception`` swallows it."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _raise(signum: int, frame: FrameType | None) -> None:
    """Raise :class:`Stopped`, ignoring the next signals meanwhile."""
    for number in STOPPING:  # a second signal must not cut the saving short
        signal.signal(number, signal.SIG_IGN)
    raise Stopped(signum)


@contextmanager
def stopping_signals() -> Iterator[None]:
    """Within the block, SIGHUP and SIGTERM raise :class:`Stopped` (in the main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before: dict[signal.Signals, Any] = {number: signal.signal(number, _raise)
                                         for number in STOPPING}
    try:
        yield
    finally:
        for number, handler in before.items():
            signal.signal(number, handler)


class Bot:
    """A seat played by an agent, with its own generator; its belief first follows ``past``."""

    def __init__(self, game: Game, role: str, spec: str, seed: int,
                 past: list[Observation] | None = None, tell_seed: bool = False) -> None:
        self.game = game
        self.role = role
        self.spec = spec
        self.choose = choose_function(load_agent(spec))
        self.rng: random.Random = seat_rng(seed, role)
        self.past = past or []
        self.kept = SeatBelief()
        # Where a bot fails, the seed is told only if nobody plays: it tells every secret.
        self.where = f" in the game with seed {seed}" if tell_seed else ""

    def decide(self, state: State, decision: Decision) -> Option:
        view = View.of(self.game, self.role, self.rng, state, self.past or None, self.kept)
        who = f"the bot of {self.role} ({self.spec}){self.where}"
        answer = asked(self.choose, view, decision, who)
        if self.past:  # the agent built no belief on them: the next decision may
            self.past.append(view.observation)
        return as_option(decision, answer, who)


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
    # Each role's observations at its decisions before the save, for the beliefs to follow.
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
        self.bot_run: tuple[int, int] = (-1, 0)  # bots' decisions in a row, and their round
        self.started = self.started or now_text()
        self.keeper = Keeper(self.screen, self.game.pack_id, self.started, self.save_path,
                             bool(self.humans) or self.save_path is not None, self.saved_game)
        if self.state is None:
            self.state = self.game.new_game(self.seed)
        self.feed = Feed(self.game, self.render, self.screen, self.state_now)
        self.context = Context(self.game, self.render.table)

    def _seat_bots(self) -> dict[str, Bot]:
        nobody = HUMAN not in self.seats.values()
        bots = {role: Bot(self.game, role, spec, self.seed, list(self.history.get(role, ())),
                          nobody) for role, spec in self.seats.items() if spec != HUMAN}
        for role, saved_state in self.rng.items():
            if role in bots:
                restore_rng(bots[role].rng, saved_state)
        self.rng = {role: rng_state(bot.rng) for role, bot in bots.items()}
        return bots

    def saved_game(self) -> SavedGame:
        game = self.game
        return SavedGame(pack=game.pack_id, version=game.version, pack_hash=game.pack_hash,
                         params=dict(game.params), seed=self.seed, seats=dict(self.seats),
                         decisions=list(self.decisions),
                         source=str(Path(self.loaded.folder).resolve()), rng=dict(self.rng),
                         started=self.started, finished=self.state_now()["result"] is not None)

    def state_now(self) -> State:
        assert self.state is not None
        return self.state

    def run(self) -> int:
        """Play until the game ends or the player leaves; the exit code."""
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
            except StalledRound:  # resuming would stall again: offer to replay it
                self.keeper.tell(STALLED, resumable=False)
                raise
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
        self._intro()
        while self.state_now()["result"] is None:
            self._step()
        finish(self)
        return EXIT_OK

    def _stopped(self, stop: Stopped) -> int:
        with contextlib.suppress(OSError, ValueError):  # the terminal may be gone
            self.keeper.keep()
            self.screen.blank()
            self.keeper.tell("Stopped by a signal. The game is saved")
        return 128 + stop.signum

    def _intro(self) -> None:
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
        """Where the game was resumed from, and the last events seen."""
        self.screen.note(f"Resumed from {where} after {len(self.decisions)} decisions.")
        if max(map(len, self.history.values()), default=0) >= CATCH_UP_NOTED:
            self.screen.note("What each player may know is worked out again: this may "
                             "take a few seconds.")
        if not self.hot_seat and self.holder is not None:
            self.feed.recent("Recap", self.holder)

    def _step(self) -> None:
        pending = self.game.pending(self.state_now())
        if not pending:
            raise GameRuntimeError("the game is neither over nor waiting for a decision")
        # In hot seat, of simultaneous choices the person at the keyboard answers first:
        # one hand-over fewer, and nobody learns anything from it.
        decision = next((d for d in pending if self.hot_seat and d.player == self.holder),
                        pending[0])
        role = decision.player
        bot = self.bots.get(role)
        if bot is None:
            self.bot_run = (-1, 0)
            ask(self, role, decision)
            self.stream(0)
            return
        self._count_bot_decision()
        self.apply(role, bot.decide(self.state_now(), decision), bot)
        self.stream(BOT_PACE)

    def _count_bot_decision(self) -> None:
        """Stop a round in which bots alone decide, again and again, and never end it."""
        state = self.state_now()
        round_, count = self.bot_run
        count = count + 1 if round_ == state["round"] else 0
        self.bot_run = (state["round"], count)
        reason = stalled(state, count)
        hint = "does a loop of the pack ask again and again with no way out?"
        if reason is None and count == LOOK_AHEAD:
            reason = _stall_ahead(self.game, state, self.seed)
            hint = (f"the bots alone took {LOOK_AHEAD} decisions in this round, and random "
                    f"play from here did not end it either: {hint}")
        if reason is not None:
            raise StalledRound(reason, hint)

    def apply(self, role: str, option: Option, bot: Bot | None = None) -> None:
        """Apply ``role``'s answer, and record it."""
        state = self.game.apply(self.state_now(), {role: option})
        self.decisions.append((role, option.id))
        self.last_decider = role
        if bot is not None:
            self.rng[role] = rng_state(bot.rng)
        self.state = state

    def stream(self, pace: float) -> None:
        """Show what just happened. In hot seat, each person sees it at their next turn."""
        if not self.hot_seat:
            self.feed.stream(self.holder, pace)


class StalledRound(RulekitError):
    """Bots alone keep deciding in a round that never ends: a defect of the pack."""


def _stall_ahead(game: Game, state: State, seed: int) -> str | None:
    """Why the round stalls, if random play from ``state`` never ends it (in a copy)."""
    ahead = copy_state(state)
    try:
        _, reason = playout(game, ahead, {role: RandomChooser(random.Random(seed))
                                          for role in game.roles},
                            max_rounds=state["round"], record=False)
    except GameRuntimeError:  # random play met an error this game may never meet: no verdict
        return None
    stuck = reason is not None and ahead["result"] is None and ahead["round"] == state["round"]
    return reason if stuck else None


def finish(session: Session) -> None:
    """Show the last events, the result, what each held, and the seed."""
    screen = session.screen
    _last_events(session)
    states = rebuild(session.game, session.saved_game(), "this game")
    screen.show(*game_over(session.render, states))
    sections = reveal_sections(session)
    if sections:
        screen.show(Text("What was hidden", style="bold underline"))
        screen.show(*sections)
    screen.note(f"The seed of this game was {session.seed}.")
    keep_finished(session)


def _last_events(session: Session) -> None:
    if not session.hot_seat:
        session.stream(0)
        return
    session.screen.clear()
    obs = session.game.observe(session.state_now(), session.game.roles[0])
    session.screen.show(session.render.header(obs, None))
    session.feed.recent(None, None)


def game_over(render: Renderer, states: list[State]) -> list[RenderableType]:
    """The banner of a finished game's result, then its summary."""
    result = states[-1]["result"]
    assert result is not None
    return [Panel(Text(render.result(result), style="bold"), expand=False),
            *render.table.ending(states)]


def keep_finished(session: Session) -> None:
    """Keep a finished game where the player chose (``--save``, resumed file), or if they ask."""
    keeper = session.keeper
    if not keeper.automatic:
        keeper.tell("The finished game is saved")
        return
    keeper.keep()  # finished: never listed as a game still on, even if killed now
    try:
        text = session.screen.ask("Press Enter to leave, or type save [FILE] to keep the game "
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


def reveal_sections(session: Session) -> list[RenderableType]:
    """What each player held that the person here could not see. In hot seat, all."""
    if not session.humans:
        return []
    game, state = session.game, session.state_now()
    others = [r for r in game.roles if session.hot_seat or r != session.holder]
    return [section for role in others
            for section in session.render.view(game.observe(state, role), role, only_own=True)]
