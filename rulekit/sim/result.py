"""The result of a simulation run: its settings, its counts and the figures drawn from them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rulekit.sim.stats import TOGETHER, LengthSummary, Tally, wilson_interval

# Fields of to_dict() that depend on the machine and how the games were run, not on the games.
RUN_FIELDS = ("seconds", "games_per_second", "workers", "scheduler")


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

    @classmethod
    def from_tally(cls, tally: Tally, roles: list[str], **settings: Any) -> SimulationResult:
        games = tally.games
        return cls(wins={role: tally.wins.get(role, 0) for role in roles}, draws=tally.draws,
                   capped=tally.capped, games=games,
                   mean_rounds=tally.rounds / games if games else 0.0,
                   decisions=tally.decisions, lengths=dict(sorted(tally.lengths.items())),
                   ends=dict(tally.ends), first=dict(tally.first),
                   first_wins=dict(tally.first_wins), held=dict(sorted(tally.held.items())),
                   **settings)

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0

    @property
    def win_rate(self) -> dict[str, float]:
        return {role: (count / self.games if self.games else 0.0)
                for role, count in self.wins.items()}

    @property
    def ci95(self) -> dict[str, tuple[float, float]]:
        """The 95% Wilson confidence interval of each role's win rate."""
        return {role: wilson_interval(count, self.games) for role, count in self.wins.items()}

    @property
    def length(self) -> LengthSummary:
        """The distribution of game lengths, in rounds."""
        return LengthSummary.of(self.lengths)

    def end_reasons(self) -> list[tuple[str, str | None, int]]:
        """(reason, winner or None, games) for every way the games ended, most frequent first."""
        rows = [(reason, winner or None, count) for (winner, reason), count in self.ends.items()]
        return sorted(rows, key=lambda row: (-row[2], row[0], row[1] or ""))

    def first_mover(self) -> dict[str, Any]:
        """Who took each game's first decision, and how often that role then won.

        ``comparable`` is true when at least two roles each decided first in some games: only
        then can the advantage of deciding first be told apart from the advantage of a role.
        ``rate`` and ``ci95`` are the share of such games won by the role that decided first.
        """
        roles = [role for role in self.wins if self.first.get(role)]
        by_role = {}
        for role in roles:
            games, wins = self.first[role], self.first_wins.get(role, 0)
            by_role[role] = {"games": games, "wins": wins, "win_rate": wins / games,
                             "ci95": list(wilson_interval(wins, games))}
        games = sum(self.first.get(role, 0) for role in roles)
        wins = sum(self.first_wins.get(role, 0) for role in roles)
        return {"by_role": by_role, "together": self.first.get(TOGETHER, 0),
                "comparable": len(roles) >= 2, "games": games, "wins": wins,
                "rate": wins / games if games else 0.0,
                "ci95": list(wilson_interval(wins, games))}

    def initiative(self) -> dict[str, Any] | None:
        """How the holder of the initiative (the pack's ``flow.initiative``) fared, or None if
        the pack declares none: at ``start`` (where each game first waited for a decision)
        and at ``end`` (when it ended).

        For each: ``games`` where a role held it (``none``: where the expression named no
        role), the holder's ``wins``, ``win_rate`` and 95% Wilson interval ``ci95``;
        ``holders``: games per holding role; ``by_role[role]["held"]`` and ``["not_held"]``:
        that role's games and wins when it held the initiative and when the other did.
        """
        if not self.held:
            return None
        return {moment: self._initiative_at(index)
                for index, moment in enumerate(("start", "end"))}

    def _initiative_at(self, index: int) -> dict[str, Any]:
        rows = [(key[index], key[2], count) for key, count in self.held.items()]
        known = [(holder, winner, count) for holder, winner, count in rows if holder]
        wins = sum(count for holder, winner, count in known if holder == winner)
        by_role = {}
        for role in self.wins:
            held = [(w, c) for h, w, c in known if h == role]
            other = [(w, c) for h, w, c in known if h != role]
            by_role[role] = {name: _share(sum(c for w, c in part if w == role),
                                          sum(c for _, c in part))
                             for name, part in (("held", held), ("not_held", other))}
        holders = {role: sum(c for h, _, c in known if h == role) for role in self.wins}
        return {**_share(wins, sum(c for _, _, c in known)),
                "none": sum(c for h, _, c in rows if not h), "holders": holders,
                "by_role": by_role}

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON output."""
        return {
            "pack": self.pack,
            "version": self.version,
            "pack_hash": self.pack_hash,
            "params": dict(self.params),
            "agents": dict(self.agents),
            "games": self.games,
            "seed": self.seed,
            "workers": self.workers,
            "scheduler": self.scheduler,
            "max_rounds": self.max_rounds,
            "wins": dict(self.wins),
            "draws": self.draws,
            "capped": self.capped,
            "win_rate": self.win_rate,
            "ci95": {role: list(ci) for role, ci in self.ci95.items()},
            "mean_rounds": self.mean_rounds,
            "length": self.length.to_dict(),
            "ends": [{"reason": reason, "winner": winner, "games": count,
                      "rate": count / self.games if self.games else 0.0}
                     for reason, winner, count in self.end_reasons()],
            "first_decider": self.first_mover(),
            "initiative": self.initiative(),
            "decisions": self.decisions,
            "seconds": self.seconds,
            "games_per_second": self.games_per_second,
        }

    def outcome(self) -> dict[str, Any]:
        """:meth:`to_dict` without the fields that depend on how the games were run: equal
        for any number of workers and any scheduler."""
        data = self.to_dict()
        for key in RUN_FIELDS:
            del data[key]
        return data


def _share(wins: int, games: int) -> dict[str, Any]:
    """Games, wins, the rate of wins and its 95% Wilson interval."""
    return {"games": games, "wins": wins, "win_rate": wins / games if games else 0.0,
            "ci95": list(wilson_interval(wins, games))}


__all__ = ["RUN_FIELDS", "SimulationResult"]
