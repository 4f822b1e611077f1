"""What a designer's report reads from each game as it is played: cards played, positions.

A :class:`GameTrace` is a game's log that reads each choice as it is added (a quiet game still
records choices). A card is *played* when its owner chooses it from a hand (a pile of that
role that only it sees) and it leaves that pile before the owner's first choice of a later
round (or the end).
:class:`Traces` holds the counts of many games; traces merge exactly in any order.
"""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar, cast

from rulekit.engine.game import Game
from rulekit.engine.state import Event, State
from rulekit.engine.vm import Runtime

STEPS = 100  # evaluations are counted in hundredths

Evaluate = Callable[[State], list[float]]
Key = TypeVar("Key")


def evaluation(game: Game) -> Evaluate:
    """Each role's evaluation of a state, in the order of ``game.roles``.

    It is the pack's ``flow.evaluate`` where declared. Else it is a role's share of the cards
    in its own piles and of the positive numbers in its own variables.
    """
    program = game.program
    if program.evaluate:
        scores = [program.evaluate.get(role) for role in game.roles]

        def evaluate(state: State) -> list[float]:
            runtime = Runtime(program, state)
            return [float(cast(int, score(runtime, []))) if score else 0.0 for score in scores]
        return evaluate
    piles = [(place.key, place.owner) for place in game.layout.piles if place.owner]
    values = [(place.key, place.owner) for place in game.layout.values if place.owner]

    def shares(state: State) -> list[float]:
        zones, variables = state["zones"], state["vars"]
        owned = [sum(len(zones[key]) for key, owner in piles if owner == role)
                 + sum(_number(variables[key]) for key, owner in values if owner == role)
                 for role in game.roles]
        total = sum(owned)
        return [value / total if total > 0 else 0.5 for value in owned]
    return shares


def _number(value: object) -> float:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) \
        and value > 0 else 0.0


def card_name(card: str) -> str:
    """A card's entry id: the copies ``ID#1``, ``ID#2``... count as one card."""
    return card.partition("#")[0]


Counts = dict[str, Counter[str]]  # role -> card -> games (or plays)


def _counts() -> Counts:
    return defaultdict(Counter)


@dataclass
class Traces:
    """Counts over many traced games (those with a winner, for the positions).

    Per role and card: the games it was ``held`` in (and ``held_won``), and those it was
    ``played`` in (and ``played_won``).
    """

    held: Counts = field(default_factory=_counts)
    held_won: Counts = field(default_factory=_counts)
    played: Counts = field(default_factory=_counts)
    played_won: Counts = field(default_factory=_counts)
    # (round, 1 for the winner or 0 for a loser, evaluation in hundredths) -> games
    positions: dict[tuple[int, int, int], int] = field(default_factory=dict)
    settled: dict[int, int] = field(default_factory=dict)  # round the lead became the
    # winner's for good -> games; 0: the winner did not lead at the last round's start
    changes: dict[int, int] = field(default_factory=dict)  # lead changes -> games
    early: int = 0  # games whose winner led for good from the first half of its rounds
    decided: int = 0  # games with a winner and at least one position
    evaluation: str = ""  # "pack" (its flow.evaluate) or "owned" (see evaluation())

    def add(self, trace: GameTrace, winner: str | None) -> None:
        """Count the game of ``trace``."""
        for role, held in trace.held.items():
            cards = {card_name(card) for card in held} if trace.tracer.copies else held
            played = trace.played[role]
            self.held[role].update(cards)
            self.played[role].update(played)
            if winner == role:
                self.held_won[role].update(cards)
                self.played_won[role].update(played)
        if winner is not None and trace.points:
            self._add_positions(trace, winner)

    def _add_positions(self, trace: GameTrace, winner: str) -> None:
        roles = trace.tracer.roles
        leaders = []
        for round_, values in trace.points:
            for role, value in zip(roles, values, strict=True):
                key = (round_, int(role == winner), round(value * STEPS))
                self.positions[key] = self.positions.get(key, 0) + 1
            best = max(values)
            leaders.append(roles[values.index(best)] if values.count(best) == 1 else None)
        known = [leader for leader in leaders if leader is not None]
        changes = sum(1 for a, b in itertools.pairwise(known) if a != b)
        self.changes[changes] = self.changes.get(changes, 0) + 1
        since = len(leaders)
        while since > 0 and leaders[since - 1] == winner:
            since -= 1
        settled = trace.points[since][0] if since < len(leaders) else 0
        self.settled[settled] = self.settled.get(settled, 0) + 1
        last = trace.points[-1][0]
        self.early += int(0 < settled <= (last + 1) // 2)
        self.decided += 1

    def merge(self, other: Traces) -> None:
        """Add the counts of ``other``."""
        for mine, theirs in ((self.held, other.held), (self.held_won, other.held_won),
                             (self.played, other.played), (self.played_won, other.played_won)):
            for role, counts in theirs.items():
                mine[role].update(counts)
        _add(self.positions, other.positions)
        _add(self.settled, other.settled)
        _add(self.changes, other.changes)
        self.evaluation = self.evaluation or other.evaluation
        self.early += other.early
        self.decided += other.decided


def _add(counts: dict[Key, int], more: dict[Key, int]) -> None:
    for key, count in more.items():
        counts[key] = counts.get(key, 0) + count


class Tracer:
    """What tracing the games of one pack needs, worked out once; and their ``traces``."""

    def __init__(self, game: Game, traces: Traces) -> None:
        self.traces = traces
        traces.evaluation = "pack" if game.program.evaluate else "owned"
        self.roles = list(game.roles)
        self.hands: dict[str, list[str]] = {role: [] for role in self.roles}
        for place in game.layout.piles:
            if place.owner in self.hands and place.visibility == "owner":
                self.hands[place.owner].append(place.key)
        self.copies = any("#" in card for card in game.layout.card_kind)
        self.evaluate = evaluation(game)

    def watch(self, state: State) -> GameTrace:
        """Trace the game of ``state``, which has not started: its log becomes the trace."""
        trace = GameTrace(self, state)
        state["log"] = trace
        return trace


class GameTrace(list[Event]):
    """A game's log that reads each choice as it is added, for a designer's report."""

    def __init__(self, tracer: Tracer, state: State) -> None:
        super().__init__()
        self.tracer = tracer
        self.state = state
        self.zones = state["zones"]
        self.held: dict[str, set[str]] = {role: set() for role in tracer.roles}
        self.played: dict[str, set[str]] = {role: set() for role in tracer.roles}
        # (role, card, its hand, round) of the cards chosen from a hand, not yet settled
        self.chosen: list[tuple[str, str, str, int]] = []
        self.round = -1
        self.points: list[tuple[int, list[float]]] = []  # (round, evaluation of each role)

    def append(self, event: Event) -> None:
        """Log ``event``; read it if it is a choice (an anytime action's has no value)."""
        super().append(event)
        if event["e"] != "choice" or "value" not in event:
            return
        role, value = event["player"], event["value"]
        if event["round"] != self.round:
            self.round = event["round"]
            self.points.append((self.round, self.tracer.evaluate(self.state)))
        if self.chosen:
            self.settle(role)
        zones = self.zones
        held = self.held[role]
        for key in self.tracer.hands[role]:
            pile = zones[key]
            held.update(pile)
            if value.__class__ is str:
                if value in pile:
                    self.chosen.append((role, value, key, self.round))
            elif isinstance(value, list):
                self.chosen += [(role, card, key, self.round) for card in value if card in pile]

    def settle(self, role: str | None = None) -> None:
        """Count as played the cards chosen before that have left their hand.

        A card still in its hand at its owner's first choice of a later round, or at the end
        (``role`` None), was not played.
        """
        zones = self.zones
        kept = []
        for entry in self.chosen:
            owner, card, key, round_ = entry
            if card not in zones[key]:
                self.played[owner].add(card_name(card) if self.tracer.copies else card)
            elif role is not None and (owner != role or round_ == self.round):
                kept.append(entry)
        self.chosen = kept


__all__ = ["Counts", "GameTrace", "Tracer", "Traces", "card_name", "evaluation"]
