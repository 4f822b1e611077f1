"""What a designer's report reads from each game as it is played: cards played, positions.

A card is *played* in a phase when its owner chooses it from a hand (a pile that only it sees)
and it leaves the hand before the owner's first choice of a later round (docs/simulator.md).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, cast

from rulekit.engine.game import Game
from rulekit.engine.state import Event, State
from rulekit.engine.vm import Runtime

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

STEPS = 100  # evaluations are counted in hundredths
TENSION_GAMES = 200  # the games of a run whose positions are evaluated: the first, by index

Evaluate = Callable[[State], list[float]]


def evaluation(game: Game) -> Evaluate:
    """Each role's evaluation of a state: the pack's ``flow.evaluate``, else its share owned."""
    program = game.program
    if program.evaluate:
        scores = [program.evaluate.get(role) for role in game.roles]

        def evaluate(state: State) -> list[float]:
            runtime = Runtime(program, state)
            return [float(cast(int, score(runtime, []))) if score else 0.0 for score in scores]
        return evaluate
    piles = [(place.key, place.owner) for place in game.layout.piles if place.owner]
    values = [(place.key, place.owner) for place in game.layout.values if place.owner]

    def shares(state: State) -> list[float]:  # of the cards in piles and numbers in variables
        zones, variables = state["zones"], state["vars"]
        owned = [sum(len(zones[key]) for key, owner in piles if owner == role)
                 + sum(_number(variables[key]) for key, owner in values if owner == role)
                 for role in game.roles]
        total = sum(owned)
        return [value / total if total > 0 else 0.5 for value in owned]
    return shares


def _number(value: object) -> int:
    return value if type(value) is int and value > 0 else 0  # (not a bool, a text or a list)


def add_counts(into: DataclassInstance, other: DataclassInstance) -> None:
    """Add each count of ``other`` (a number or a Counter field) to that of ``into``."""
    for count in fields(other):
        mine = getattr(into, count.name)
        if isinstance(mine, Counter):
            mine.update(getattr(other, count.name))
        elif type(mine) is int:
            setattr(into, count.name, mine + getattr(other, count.name))


def card_name(card: str) -> str:
    """A card's entry id: the copies ``ID#1``, ``ID#2``... count as one card."""
    return card.partition("#")[0]


@dataclass
class Traces:
    """Counts over many traced games (those with a winner, for the positions)."""

    held: Counter[tuple[str, str]] = field(default_factory=Counter)  # (role, card) -> games
    held_won: Counter[tuple[str, str]] = field(default_factory=Counter)  # those the role won
    # (role, card, phase) -> games in which the role played the card in that phase
    played: Counter[tuple[str, str, str]] = field(default_factory=Counter)
    played_won: Counter[tuple[str, str, str]] = field(default_factory=Counter)
    # (round, 1 for the winner or 0 for a loser, evaluation in hundredths) -> games
    positions: Counter[tuple[int, int, int]] = field(default_factory=Counter)
    settled: Counter[int] = field(default_factory=Counter)  # round the lead became the
    # winner's for good -> games; 0: the winner did not lead at the last round's start
    changes: Counter[int] = field(default_factory=Counter)  # lead changes -> games
    early: int = 0  # games whose winner led for good from the first half of its rounds
    decided: int = 0  # games with a winner and at least one position
    sampled: int = 0  # games whose positions were evaluated, with a winner or not
    evaluation: str = ""  # "pack" (its flow.evaluate) or "owned" (see evaluation())

    def add(self, trace: GameTrace, winner: str | None) -> None:
        """Count the game of ``trace``."""
        for role, held in trace.held.items():
            cards = {card_name(card) for card in held}
            self.held.update((role, card) for card in cards)
            if winner == role:
                self.held_won.update((role, card) for card in cards)
        self.played.update(trace.played)
        self.played_won.update(played for played in trace.played if played[0] == winner)
        if trace.evaluate is None:
            return
        self.sampled += 1
        if winner is not None and trace.points:
            self._add_positions(trace, winner)

    def _add_positions(self, trace: GameTrace, winner: str) -> None:
        roles, points = trace.tracer.roles, trace.points
        leaders = []
        for round_, values in points:
            for role, value in zip(roles, values, strict=True):
                self.positions[round_, int(role == winner), round(value * STEPS)] += 1
            best = max(values)
            leaders.append(roles[values.index(best)] if values.count(best) == 1 else None)
        known = [leader for leader in leaders if leader is not None]
        self.changes[sum(1 for a, b in itertools.pairwise(known) if a != b)] += 1
        since = len(leaders)
        while since > 0 and leaders[since - 1] == winner:
            since -= 1
        settled = points[since][0] if since < len(leaders) else 0
        self.settled[settled] += 1
        last = points[-1][0]
        self.early += int(0 < settled <= (last + 1) // 2)
        self.decided += 1

    def merge(self, other: Traces) -> None:
        """Add the counts of ``other``."""
        add_counts(self, other)
        self.evaluation = self.evaluation or other.evaluation


class Tracer:
    """What tracing the games of one pack needs, worked out once; and their ``traces``."""

    def __init__(self, game: Game, traces: Traces, positions: bool = True) -> None:
        self.traces = traces
        traces.evaluation = "pack" if game.program.evaluate else "owned"
        self.roles = list(game.roles)
        self.hands: dict[str, list[str]] = {role: [] for role in self.roles}
        for place in game.layout.piles:
            if place.owner in self.hands and place.visibility == "owner":
                self.hands[place.owner].append(place.key)
        self.evaluate = evaluation(game) if positions else None


class GameTrace:
    """What a designer's report reads from one game, told each choice as it is made."""

    def __init__(self, tracer: Tracer, state: State) -> None:
        self.tracer = tracer
        self.state = state
        self.zones = state["zones"]
        self.hands = tracer.hands
        self.held: dict[str, set[str]] = {role: set() for role in tracer.roles}
        self.played: set[tuple[str, str, str]] = set()  # (role, card, phase)
        # (role, card, its hand, round, phase) of the cards chosen from a hand, not yet settled
        self.chosen: list[tuple[str, str, str, int, str]] = []
        self.round = -1
        self.evaluate = tracer.evaluate
        self.points: list[tuple[int, list[float]]] = []  # (round, evaluation of each role)

    def chose(self, role: str, value: object, round_: int) -> None:
        """Read ``role``'s answer ``value``, given in round ``round_``."""
        if round_ != self.round:
            self.round = round_
            if self.evaluate is not None:
                self.points.append((round_, self.evaluate(self.state)))
        if self.chosen:
            self.settle(role)
        zones, phase = self.zones, self.state["phase"] or "setup"
        held = self.held[role]
        cards = value if isinstance(value, list) else [value]
        for key in self.hands[role]:
            pile = zones[key]
            held.update(pile)
            self.chosen += [(role, card, key, round_, phase) for card in cards if card in pile]

    def settle(self, role: str | None = None) -> None:
        """Count as played, in their phase, the cards chosen before that have left their hand.

        A card still in its hand at its owner's first choice of a later round, or at the end
        (``role`` None), was not played.
        """
        zones = self.zones
        kept = []
        for entry in self.chosen:
            owner, card, key, round_, phase = entry
            if card not in zones[key]:
                self.played.add((owner, card_name(card), phase))
            elif role is not None and (owner != role or round_ == self.round):
                kept.append(entry)
        self.chosen = kept


class ChoiceLog(list[Event]):
    """A game's log that tells a trace each choice as it is recorded (a game played by steps)."""

    def __init__(self, trace: GameTrace) -> None:
        super().__init__()
        self.trace = trace

    def append(self, event: Event) -> None:
        """Log ``event``; tell the trace if it is a choice (an anytime action's has no value)."""
        super().append(event)
        if event["e"] == "choice" and "value" in event:
            self.trace.chose(event["player"], event["value"], event["round"])
