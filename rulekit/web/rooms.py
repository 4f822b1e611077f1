"""The games a server holds: each a terminal ``Session`` driven by the pages of its seats."""

from __future__ import annotations

import io
import json
import secrets
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path

from rulekit.engine.decisions import Decision
from rulekit.engine.observe import public_part
from rulekit.errors import IllegalActionError, RulekitError, UsageError
from rulekit.pack.loader import load_pack, parse_params
from rulekit.play import Session, new_seed, open_session
from rulekit.play.savefile import HUMAN
from rulekit.play.screen import Screen
from rulekit.play.seats import named_seats
from rulekit.web.views import (
    NARROW_WIDTH,
    TEXT_WIDTH,
    BoardView,
    SeatView,
    Views,
    board_view,
)

TOKEN_BYTES = 18  # 144 random bits per link
MAX_ANSWER = 2000  # characters of an option id: far more than any pack's subset needs
SPECTATOR = None  # the role of a spectator's page


class Refused(Exception):
    """An answer a page may not give now; its message is shown on that page only."""


@dataclass
class Room:
    """One game on the server: its session, its links, and who may answer what."""

    session: Session
    tokens: dict[str, str | None] = field(default_factory=dict)  # token -> role (None: watch)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        self.game = self.session.game
        self.views = Views(self.game, self.session.render)
        self.board: BoardView = board_view(self.game)
        for role in self.session.humans:
            self.tokens[secrets.token_urlsafe(TOKEN_BYTES)] = role
        self.tokens[secrets.token_urlsafe(TOKEN_BYTES)] = SPECTATOR
        self._shown: dict[tuple[str | None, bool], tuple[int, SeatView]] = {}
        self.stopped: str | None = None  # why a bot stopped the game, which every page shows
        self.session.keeper.keep()

    @property
    def over(self) -> bool:
        return self.session.state_now()["result"] is not None

    def links(self) -> list[tuple[str | None, str]]:
        """(role, token) of each link: the seats in order, then the spectator's."""
        order = [*self.game.roles, SPECTATOR]
        return sorted(((role, token) for token, role in self.tokens.items()),
                      key=lambda pair: order.index(pair[0]))

    def _asked(self, role: str) -> Decision | None:
        return self.game.decision_for(self.session.state_now(), role)

    def _ask_number(self, role: str) -> int:
        """The number of ``role``'s next answer among its own: 1, 2..."""
        return 1 + sum(1 for who, _ in self.session.decisions if who == role)

    def view(self, role: str | None, narrow: bool = False) -> SeatView:
        """What ``role``'s page shows now (a spectator's if None), on a ``narrow`` screen?"""
        with self.lock:
            done = len(self.session.decisions)
            shown = self._shown.get((role, narrow))
            if shown is not None and shown[0] == done:
                return shown[1]
            state = self.session.state_now()
            if role is None:
                seen = self.views.spectator(public_part(
                    self.game.layout, self.game.observe(state, self.game.roles[0])))
            else:
                decision = self._asked(role)
                context = None if decision is None else self.session.context.text(state, role)
                seen = self.views.seat(self.game.observe(state, role), role, decision,
                                       self._ask_number(role), context,
                                       NARROW_WIDTH if narrow else TEXT_WIDTH)
            self._shown[role, narrow] = (done, seen)
            if self.stopped is None:
                return seen
            told = seen.copy()
            told["result"], told["question"] = self.stopped, None
            return told

    def answer(self, role: str, text: str) -> None:
        """Apply the answer of ``role``'s page, a JSON ``{"ask": N, "answer": ID}``."""
        ask, option_id = _parsed_answer(text)
        with self.lock:
            if self.stopped is not None:
                raise Refused(self.stopped)
            decision = self._asked(role)
            if decision is None:
                raise Refused("Nothing is asked of you now: wait for your turn.")
            now = self._ask_number(role)
            if ask != now:
                raise Refused(f"That answer was to your question {ask}, and the question now "
                              f"is number {now}: answer the question shown.")
            try:
                option = decision.option(option_id)
            except IllegalActionError as exc:
                raise Refused(f"Not an answer to this question: {exc.message}") from None
            self.session.apply(role, option)
            self.session.keeper.keep()

    def play_bots(self) -> bool:
        """Let the bots answer what is asked of them, one decision; whether one did."""
        with self.lock:
            session = self.session
            for decision in self.game.pending(session.state_now()):
                bot = session.bots.get(decision.player)
                if bot is not None and self.stopped is None:
                    try:
                        session.apply(decision.player,
                                      bot.decide(session.state_now(), decision), bot)
                    except RulekitError as exc:  # a broken bot: the game up to here is kept
                        # Its message may quote its question or its own error, which can tell
                        # the bot's secrets: the pages get the role, the server's terminal all.
                        print(f"rulekit serve: the game stopped: {exc.message}",
                              file=sys.stderr)
                        self.stopped = (f"The game stopped: the bot of "
                                        f"{self.session.render.name(decision.player)} failed. "
                                        "It is saved; the server's output says why.")
                        return False
                    session.keeper.keep()
                    return True
            return False


def _parsed_answer(text: str) -> tuple[int, str]:
    """The question number and option id of a page's message; Refused if it is not one."""
    usage = 'send {"ask": N, "answer": "option id"}'
    if len(text) > MAX_ANSWER + 100:
        raise Refused(f"That message is too long ({len(text)} characters): {usage}.")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise Refused(f"That message is not JSON: {usage}.") from None
    if not isinstance(data, dict) or set(data) != {"ask", "answer"}:
        raise Refused(f"That message is not an answer: {usage}.")
    ask, answer = data["ask"], data["answer"]
    if not isinstance(ask, int) or isinstance(ask, bool) or not isinstance(answer, str):
        raise Refused(f"That message is not an answer: {usage}.")
    return ask, answer


def new_room(pack: str, seats: list[str], params: list[str], seed: int | None = None) -> Room:
    """A new game of ``pack``: the roles not given to a bot are people's, one link each."""
    loaded = load_pack(pack, parse_params(params))
    roles = loaded.game.roles
    chosen = {role: HUMAN for role in roles} | named_seats(seats, roles)
    if HUMAN not in chosen.values():
        raise UsageError("every seat is a bot's: give at least one to a person",
                         f"--seat {roles[0]}=human")
    return Room(Session(loaded, new_seed() if seed is None else seed, chosen, _quiet_screen()))


def resumed_room(path: Path, seats: list[str]) -> Room:
    """The game saved in ``path``, seated as it was, or as ``seats`` say."""
    session = open_session(_quiet_screen(), None, seats=seats, resume=path)
    if not session.humans:
        raise UsageError(f"{path}: no seat of this game is a person's",
                         "give one to a person with --seat ROLE=human --take-seat")
    return Room(session)


def _quiet_screen() -> Screen:
    """The session's terminal, which no one reads: a page shows the game instead."""
    return Screen(output=io.StringIO(), input=io.StringIO(), no_color=True, fast=True)
