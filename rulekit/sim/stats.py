"""Counts over many games, which merge exactly in any order, and what a designer reads from them."""

from __future__ import annotations

import bisect
import itertools
import math
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TypedDict

from rulekit.sim.traces import Traces, add_counts

Z95 = 1.959963984540054  # the 97.5% quantile of the standard normal distribution

TOGETHER = ""  # the key of games whose first decisions were taken by several roles at once
HISTOGRAM_BINS = 12


@dataclass
class GameRecord:
    """How one game went; ``winner`` is None for a draw or a capped game."""

    seed: int
    winner: str | None
    rounds: int
    decisions: int
    capped: bool  # a limit stopped the game
    reason: str
    first: str | None = None  # the role that decided first; None for several at once
    # The initiative's holder at the start and at the end: None if undeclared, "" if nobody.
    initiative: str | None = None
    initiative_end: str | None = None


def end_label(winner: str | None, reason: str) -> str:
    """The text of an end reason, made up if the pack gave none."""
    if reason:
        return reason
    return f"{winner} wins (no reason given)" if winner else "no winner (no reason given)"


@dataclass
class Tally:
    """Counts over a range of games."""

    wins: Counter[str] = field(default_factory=Counter)
    draws: int = 0
    capped: int = 0
    games: int = 0
    decisions: int = 0
    lengths: Counter[int] = field(default_factory=Counter)  # rounds -> games
    ends: Counter[tuple[str, str]] = field(default_factory=Counter)  # (winner or "", reason)
    first: Counter[str] = field(default_factory=Counter)  # first decider -> games
    first_wins: Counter[str] = field(default_factory=Counter)  # first decider -> its wins
    # (initiative holder at the start, when the game ended, winner) -> games; "" for none
    held: Counter[tuple[str, str, str]] = field(default_factory=Counter)
    traces: Traces | None = None  # what a designer's report reads, if the games were traced

    def add(self, record: GameRecord) -> None:
        """Count one game."""
        winner = record.winner
        if record.capped:
            self.capped += 1
        elif winner is None:
            self.draws += 1
        else:
            self.wins[winner] += 1
        self.games += 1
        self.decisions += record.decisions
        self.lengths[record.rounds] += 1
        self.ends[winner or "", end_label(winner, record.reason)] += 1
        self.first[TOGETHER if record.first is None else record.first] += 1
        if winner is not None and winner == record.first:
            self.first_wins[winner] += 1
        if record.initiative is not None:
            self.held[record.initiative, record.initiative_end or "", winner or ""] += 1

    def merge(self, other: Tally) -> None:
        """Add the counts of ``other`` to these."""
        add_counts(self, other)
        if other.traces is not None:
            if self.traces is None:
                self.traces = Traces()
            self.traces.merge(other.traces)

    @property
    def rounds(self) -> int:
        """The rounds of every game, added up."""
        return sum(length * count for length, count in self.lengths.items())


def rate(count: int, games: int) -> float:
    """``count`` as a share of ``games``; 0 without games."""
    return count / games if games else 0.0


def wilson_interval(successes: int, trials: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion; (0, 1) without trials."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = Z95 * Z95
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = Z95 * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denominator
    lo = 0.0 if successes <= 0 else max(0.0, centre - half)
    hi = 1.0 if successes >= trials else min(1.0, centre + half)
    return (lo, hi)


def quantile(counts: Mapping[int, int], p: float) -> float:
    """The ``p`` quantile of counted values (value -> how many), as numpy computes it."""
    total = sum(counts.values())
    if total == 0:
        return 0.0
    values = sorted(counts)
    ends = list(itertools.accumulate(counts[value] for value in values))
    position = (total - 1) * p
    below = math.floor(position)
    low = values[bisect.bisect_right(ends, below)]
    high = values[bisect.bisect_right(ends, min(below + 1, total - 1))]
    return low + (position - below) * (high - low)


# One bar of the histogram of game lengths, as JSON gives it ("from" is a Python keyword).
HistogramBin = TypedDict("HistogramBin", {"from": int, "to": int, "games": int})


class LengthDict(TypedDict):
    """The distribution of game lengths, as JSON gives it."""

    mean: float
    median: float
    q1: float
    q3: float
    min: int
    max: int
    histogram: list[HistogramBin]


@dataclass
class LengthSummary:
    """The distribution of game lengths in rounds."""

    mean: float
    median: float
    q1: float
    q3: float
    shortest: int
    longest: int
    bins: list[tuple[int, int, int]]  # (first length, last length, games)

    @classmethod
    def of(cls, lengths: Mapping[int, int]) -> LengthSummary:
        """The summary of ``lengths`` (rounds -> games)."""
        games = sum(lengths.values())
        if games == 0:
            return cls(0.0, 0.0, 0.0, 0.0, 0, 0, [])
        mean = sum(v * c for v, c in lengths.items()) / games
        return cls(mean, quantile(lengths, 0.5), quantile(lengths, 0.25),
                   quantile(lengths, 0.75), min(lengths), max(lengths), _bins(lengths))

    def to_dict(self) -> LengthDict:
        """Plain data for JSON output."""
        return {"mean": self.mean, "median": self.median, "q1": self.q1, "q3": self.q3,
                "min": self.shortest, "max": self.longest,
                "histogram": [{"from": a, "to": b, "games": n} for a, b, n in self.bins]}


def _bins(lengths: Mapping[int, int]) -> list[tuple[int, int, int]]:
    """At most :data:`HISTOGRAM_BINS` bins of equal width: (first, last, games)."""
    low, high = min(lengths), max(lengths)
    width = max(1, math.ceil((high - low + 1) / HISTOGRAM_BINS))
    bins = []
    for start in range(low, high + 1, width):
        stop = min(start + width - 1, high)
        bins.append((start, stop, sum(lengths.get(v, 0) for v in range(start, stop + 1))))
    return bins
