"""How the other players answer: as a search expects, or at random, judged by what they did."""

from __future__ import annotations

import contextlib
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rulekit.engine.game import copy_state
from rulekit.errors import GameRuntimeError, IllegalActionError

if TYPE_CHECKING:
    from rulekit.engine.decisions import Decision
    from rulekit.engine.game import Game, State
    from rulekit.engine.observe import Observation
    from rulekit.engine.state import Event

Visits = dict[str, float]  # per option id of another player: how often a search tried it


@dataclass
class Expected:
    """What a search expected of the others at a choice all players make at once."""

    states: list[State]  # drawn from the seat's belief before the answers
    role: str  # the seat
    answer: str  # its own answer
    seen: int  # the length of the seat's log then
    visits: dict[str, Visits]  # per other player deciding there


class Others:
    """The odds that the other players answer at random rather than as a search expects.

    Each time they answer together with the seat, the answers that fit the public events that
    followed are weighed by both models; the odds move by the ratio of the two likelihoods.
    """

    __slots__ = ("expected", "log_odds")

    def __init__(self) -> None:
        self.log_odds = 0.0  # log(P(at random) / P(as a search expects)); even at first
        self.expected: Expected | None = None

    def at_random(self) -> float:
        """The chance that the others answer at random, if likelier than not; else 0."""
        if self.log_odds <= 0:
            return 0.0
        return 1 / (1 + math.exp(-self.log_odds))

    def expect(self, expected: Expected | None) -> None:
        """Note what a search expected at a choice made at once, to judge at the next one."""
        self.expected = expected

    def judge(self, game: Game, observation: Observation) -> None:
        """Move the odds by the answers the others gave since :meth:`expect`."""
        expected, self.expected = self.expected, None
        if expected is None:
            return
        shown = _public(observation["log"][expected.seen:])
        if not shown:
            return
        at_random = by_search = 0.0
        for state in expected.states:
            fits = _fits(game, state, expected, shown)
            for player, visits in expected.visits.items():
                answers = fits.get(player)
                if answers is None:
                    continue
                options, fitting = answers
                at_random += len(fitting) / len(options)
                total = sum(visits.get(o, 0.0) for o in options) + len(options)
                by_search += sum(visits.get(o, 0.0) + 1 for o in fitting) / total
        if at_random > 0 and by_search > 0:
            self.log_odds += math.log(at_random / by_search)


def _fits(game: Game, state: State, expected: Expected, shown: list[Event]
          ) -> dict[str, tuple[list[str], list[str]]]:
    """Per other player choosing one option on ``state``: its options, and those that show
    what ``shown`` shows (each tried with the others' answers as the search expected most)."""
    decisions = {d.player: d for d in game.pending(state)}
    if expected.role not in decisions:
        return {}
    answers = {player: _likeliest(d, expected.visits.get(player, {}))
               for player, d in decisions.items()}
    answers[expected.role] = expected.answer
    found = {}
    for player, decision in decisions.items():
        if player not in expected.visits or decision.kind != "one":
            continue
        options = [o.id for o in decision.options()]
        fitting = [o for o in options
                   if _shows(game, state, {**answers, player: o}, expected.seen, shown)]
        found[player] = (options, fitting)
    return found


def _likeliest(decision: Decision, visits: Visits) -> str:
    """The legal option the search tried most, or the first."""
    options = [o.id for o in decision.options()]
    return max(options, key=lambda o: visits.get(o, 0.0))


def _shows(game: Game, state: State, answers: dict[str, str], seen: int,
           shown: list[Event]) -> bool:
    """Whether ``answers`` played on ``state`` log the public events ``shown`` begins with."""
    trial = copy_state(state)
    trial.pop("quiet", None)  # (a quiet state logs nothing)
    with contextlib.suppress(GameRuntimeError, IllegalActionError):
        game.apply(trial, answers, in_place=True)
        logged = _public(trial["log"][seen:])
        return bool(logged) and logged == shown[:len(logged)]
    return False


def _public(events: list[Event]) -> list[Event]:
    return [event for event in events if event["to"] is None]


__all__ = ["Expected", "Others", "Visits"]
