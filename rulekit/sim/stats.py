"""Counts over many games, and what a designer reads from them.

A :class:`Tally` holds plain integers only (wins, draws, capped games, games by length, by end
reason, by who decided first, by who held the initiative and who won), so tallies of ranges of
games merge exactly, in any order: the figures never depend on how the games were shared among
workers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

Z95 = 1.959963984540054  # the 97.5% quantile of the standard normal distribution

TOGETHER = ""  # the key of games whose first decisions were taken by several roles at once
HISTOGRAM_BINS = 12


@dataclass
class GameRecord:
    """How one game went: its seed, winner (None for a draw or a capped game), the rounds
    played, the decisions taken, whether the round cap stopped it, the reason it ended, and
    the role that took the game's first decision (None when several decided at once), and
    the role that held the initiative where the game first waited for a decision and when it
    ended (``flow.initiative``; None when the pack declares none, ``""`` when it named no
    role)."""

    seed: int
    winner: str | None
    rounds: int
    decisions: int
    capped: bool
    reason: str
    first: str | None = None
    initiative: str | None = None
    initiative_end: str | None = None  # who held it when the game ended


def end_label(winner: str | None, reason: str) -> str:
    """The text of an end reason; a win or an end condition without text gets one."""
    if reason:
        return reason
    return f"{winner} wins (no reason given)" if winner else "no winner (no reason given)"


@dataclass
class Tally:
    """Counts over a range of games (plain integers: merging is exact in any order)."""

    wins: dict[str, int]
    draws: int = 0
    capped: int = 0
    games: int = 0
    decisions: int = 0
    lengths: dict[int, int] = field(default_factory=dict)  # rounds -> games
    ends: dict[tuple[str, str], int] = field(default_factory=dict)  # (winner or "", reason)
    first: dict[str, int] = field(default_factory=dict)  # first decider -> games
    first_wins: dict[str, int] = field(default_factory=dict)  # first decider -> its wins
    # (initiative holder at the start, when the game ended, winner) -> games; "" for none
    held: dict[tuple[str, str, str], int] = field(default_factory=dict)

    def add(self, record: GameRecord) -> None:
        """Count one game."""
        winner = record.winner
        if record.capped:
            self.capped += 1
        elif winner is None:
            self.draws += 1
        else:
            self.wins[winner] = self.wins.get(winner, 0) + 1
        self.games += 1
        self.decisions += record.decisions
        _bump(self.lengths, record.rounds)
        _bump(self.ends, (winner or "", end_label(winner, record.reason)))
        first = TOGETHER if record.first is None else record.first
        _bump(self.first, first)
        if winner is not None and winner == record.first:
            _bump(self.first_wins, first)
        if record.initiative is not None:
            _bump(self.held, (record.initiative, record.initiative_end or "", winner or ""))

    def merge(self, other: Tally) -> None:
        """Add the counts of ``other`` to these."""
        for mine, theirs in ((self.wins, other.wins), (self.lengths, other.lengths),
                             (self.ends, other.ends), (self.first, other.first),
                             (self.first_wins, other.first_wins), (self.held, other.held)):
            for key, count in theirs.items():
                _bump(mine, key, count)
        self.draws += other.draws
        self.capped += other.capped
        self.games += other.games
        self.decisions += other.decisions

    @property
    def rounds(self) -> int:
        return sum(length * count for length, count in self.lengths.items())


def _bump(counts: dict[Any, int], key: Any, by: int = 1) -> None:
    counts[key] = counts.get(key, 0) + by


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default); (0, 1) without trials."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denominator
    lo = 0.0 if successes <= 0 else max(0.0, centre - half)
    hi = 1.0 if successes >= trials else min(1.0, centre + half)
    return (lo, hi)


def quantile(counts: dict[int, int], p: float) -> float:
    """The ``p`` quantile of the values counted in ``counts`` (value -> how many), read on the
    straight line between neighbouring values as numpy does by default; 0 when there is nothing."""
    total = sum(counts.values())
    if total == 0:
        return 0.0
    position = (total - 1) * p
    below = math.floor(position)
    values = sorted(counts)
    low = high = values[0]
    seen = 0
    for value in values:
        seen += counts[value]
        if seen > below:
            low = value
            break
    seen = 0
    for value in values:
        seen += counts[value]
        if seen > below + 1 or seen == total:
            high = value
            break
    return low + (position - below) * (high - low)


@dataclass
class LengthSummary:
    """The distribution of game lengths in rounds: mean, quartiles, range, histogram bins."""

    mean: float
    median: float
    q1: float
    q3: float
    shortest: int
    longest: int
    bins: list[tuple[int, int, int]]  # (first length, last length, games)

    @classmethod
    def of(cls, lengths: dict[int, int]) -> LengthSummary:
        games = sum(lengths.values())
        if games == 0:
            return cls(0.0, 0.0, 0.0, 0.0, 0, 0, [])
        low, high = min(lengths), max(lengths)
        width = max(1, math.ceil((high - low + 1) / HISTOGRAM_BINS))
        bins = []
        for start in range(low, high + 1, width):
            stop = min(start + width - 1, high)
            bins.append((start, stop, sum(lengths.get(v, 0) for v in range(start, stop + 1))))
        mean = sum(v * c for v, c in lengths.items()) / games
        return cls(mean, quantile(lengths, 0.5), quantile(lengths, 0.25),
                   quantile(lengths, 0.75), low, high, bins)

    def to_dict(self) -> dict[str, Any]:
        return {"mean": self.mean, "median": self.median, "q1": self.q1, "q3": self.q3,
                "min": self.shortest, "max": self.longest,
                "histogram": [{"from": a, "to": b, "games": n} for a, b, n in self.bins]}


__all__ = ["TOGETHER", "Z95", "GameRecord", "LengthSummary", "Tally", "end_label", "quantile",
           "wilson_interval"]
