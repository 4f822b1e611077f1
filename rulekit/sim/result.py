"""The result of a simulation run: its settings, counts and figures."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypedDict

from rulekit.sim.stats import TOGETHER, LengthDict, LengthSummary, rate, wilson_interval
from rulekit.sim.traces import Traces

# Fields of to_dict() that depend on how the games were run, not on the games.
RUN_FIELDS = ("seconds", "games_per_second", "workers", "scheduler")


class Share(TypedDict):
    """Games, wins, the rate of wins and its 95% interval."""

    games: int
    wins: int
    win_rate: float
    ci95: list[float]


class FirstMover(TypedDict):
    """Who decided first in the games, and how often that role won."""

    by_role: dict[str, Share]
    together: int
    comparable: bool
    games: int
    wins: int
    rate: float
    ci95: list[float]


class RoleInitiative(TypedDict):
    """A role's games and wins, with and without the initiative."""

    held: Share
    not_held: Share


class InitiativeAt(Share):
    """How the initiative's holder fared at one moment of the games."""

    none: int
    holders: dict[str, int]
    by_role: dict[str, RoleInitiative]


class Initiative(TypedDict):
    """How the initiative's holder fared at the start and at the end."""

    start: InitiativeAt
    end: InitiativeAt


class End(TypedDict):
    """One way the games ended, as JSON gives it."""

    reason: str
    winner: str | None
    games: int
    rate: float


class ResultDict(TypedDict):
    """A run's result, as JSON gives it."""

    pack: str
    version: str
    pack_hash: str
    params: dict[str, int]
    agents: dict[str, str]
    games: int
    seed: int
    workers: int
    scheduler: str | None
    max_rounds: int
    wins: dict[str, int]
    draws: int
    capped: int
    win_rate: dict[str, float]
    ci95: dict[str, list[float]]
    mean_rounds: float
    length: LengthDict
    ends: list[End]
    first_decider: FirstMover
    initiative: Initiative | None
    decisions: int
    seconds: float
    games_per_second: float


@dataclass
class SimulationResult:
    """The outcome counts of a simulation run."""

    pack: str
    version: str
    pack_hash: str
    params: dict[str, int]
    agents: dict[str, str]
    games: int
    seed: int
    workers: int
    max_rounds: int
    wins: dict[str, int]
    draws: int
    capped: int
    mean_rounds: float
    decisions: int
    seconds: float
    role_names: dict[str, str] = field(default_factory=dict)
    lengths: dict[int, int] = field(default_factory=dict)
    ends: dict[tuple[str, str], int] = field(default_factory=dict)
    first: dict[str, int] = field(default_factory=dict)
    first_wins: dict[str, int] = field(default_factory=dict)
    scheduler: str | None = None
    held: dict[tuple[str, str, str], int] = field(default_factory=dict)  # see Tally.held
    traces: Traces | None = None  # of traced games (sim/traces)

    @property
    def games_per_second(self) -> float:
        """Games played per second."""
        return self.games / self.seconds if self.seconds > 0 else 0.0

    @property
    def win_rate(self) -> dict[str, float]:
        """Each role's share of the games won."""
        return {role: rate(count, self.games) for role, count in self.wins.items()}

    @property
    def ci95(self) -> dict[str, tuple[float, float]]:
        """The 95% Wilson confidence interval of each role's win rate."""
        return {role: wilson_interval(count, self.games) for role, count in self.wins.items()}

    @property
    def length(self) -> LengthSummary:
        """The distribution of game lengths, in rounds."""
        return LengthSummary.of(self.lengths)

    def end_reasons(self) -> list[tuple[str, str | None, int]]:
        """(reason, winner or None, games) per way of ending, most frequent first."""
        rows = [(reason, winner or None, count) for (winner, reason), count in self.ends.items()]
        return sorted(rows, key=lambda row: (-row[2], row[0], row[1] or ""))

    def first_mover(self) -> FirstMover:
        """Who took each game's first decision, and how often that role won.

        Only if several roles decided first (``comparable``) can its advantage be told apart.
        """
        roles = [role for role in self.wins if self.first.get(role)]
        by_role = {role: _share(self.first_wins.get(role, 0), self.first[role])
                   for role in roles}
        games = sum(self.first.get(role, 0) for role in roles)
        wins = sum(self.first_wins.get(role, 0) for role in roles)
        return {"by_role": by_role, "together": self.first.get(TOGETHER, 0),
                "comparable": len(roles) >= 2, "games": games, "wins": wins,
                "rate": rate(wins, games), "ci95": list(wilson_interval(wins, games))}

    def initiative(self) -> Initiative | None:
        """How the holder of ``flow.initiative`` fared at the start and at the end, if declared."""
        if not self.held:
            return None
        return {"start": self._initiative_at(0), "end": self._initiative_at(1)}

    def _initiative_at(self, moment: int) -> InitiativeAt:
        """How the holder fared at the start (0) or the end (1)."""
        known = [(key[moment], key[2], count) for key, count in self.held.items() if key[moment]]
        wins = sum(count for holder, winner, count in known if holder == winner)
        return {**_share(wins, sum(count for _, _, count in known)),
                "none": sum(count for key, count in self.held.items() if not key[moment]),
                "holders": {role: sum(c for h, _, c in known if h == role) for role in self.wins},
                "by_role": {role: _role_initiative(known, role) for role in self.wins}}

    def to_dict(self) -> ResultDict:
        """Plain data for JSON output."""
        return {
            "pack": self.pack, "version": self.version, "pack_hash": self.pack_hash,
            "params": dict(self.params), "agents": dict(self.agents), "games": self.games,
            "seed": self.seed, "workers": self.workers, "scheduler": self.scheduler,
            "max_rounds": self.max_rounds, "wins": dict(self.wins), "draws": self.draws,
            "capped": self.capped, "win_rate": self.win_rate,
            "ci95": {role: list(ci) for role, ci in self.ci95.items()},
            "mean_rounds": self.mean_rounds, "length": self.length.to_dict(),
            "ends": [{"reason": reason, "winner": winner, "games": count,
                      "rate": rate(count, self.games)}
                     for reason, winner, count in self.end_reasons()],
            "first_decider": self.first_mover(), "initiative": self.initiative(),
            "decisions": self.decisions, "seconds": self.seconds,
            "games_per_second": self.games_per_second,
        }

    def outcome(self) -> dict[str, object]:
        """:meth:`to_dict` without the fields that depend on where games ran."""
        data: dict[str, object] = dict(self.to_dict())
        for key in RUN_FIELDS:
            del data[key]
        return data


def _role_initiative(known: list[tuple[str, str, int]], role: str) -> RoleInitiative:
    """The games and wins of ``role``, with and without the initiative, from ``known``."""
    held = [(winner, count) for holder, winner, count in known if holder == role]
    other = [(winner, count) for holder, winner, count in known if holder != role]
    return {"held": _role_share(held, role), "not_held": _role_share(other, role)}


def _role_share(games: list[tuple[str, int]], role: str) -> Share:
    wins = sum(count for winner, count in games if winner == role)
    return _share(wins, sum(count for _, count in games))


def _share(wins: int, games: int) -> Share:
    return {"games": games, "wins": wins, "win_rate": rate(wins, games),
            "ci95": list(wilson_interval(wins, games))}
