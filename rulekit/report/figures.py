"""The figures of a designer's report, as plain data: cards, tension, skill, runs.

Every figure comes from counts (``sim/traces``), so it is the same for any number of workers.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import TypedDict

from rulekit.sim.result import ResultDict, SimulationResult
from rulekit.sim.stats import quantile, rate, wilson_interval
from rulekit.sim.traces import STEPS, TENSION_GAMES, Traces

FLAG = 0.05  # a card is flagged when its interval misses the base rate by this much or more


class CardRow(TypedDict):
    """A card a role held, and a phase it played it in: how often, how the role fared."""

    card: str
    role: str
    phase: str | None  # the phase it was played in; None for a card its role never played
    held: int  # games in which the role held it
    played: int  # games in which the role played it in that phase
    play_rate: float
    played_win_rate: float | None
    played_ci95: list[float]
    not_played: int  # games in which the role held it and did not play it in that phase
    not_played_win_rate: float | None
    not_played_ci95: list[float]
    base_rate: float  # the role's win rate over every game
    impact: float | None  # played_win_rate - base_rate
    impact_ci95: list[float]
    flagged: bool


class Spread(TypedDict):
    """Median and quartiles of an evaluation over games."""

    games: int
    q1: float
    median: float
    q3: float


class TensionRound(TypedDict):
    """The evaluation of the position at one round, for winners and for losers."""

    round: int
    winner: Spread
    loser: Spread


class TensionDict(TypedDict):
    """How the position moved over the rounds of the first games of each run with a winner."""

    evaluation: str  # "pack" (its flow.evaluate) or "owned" (the generic fallback)
    sample_per_run: int  # the positions of at most this many games of each run are evaluated
    sampled: int  # games whose positions were evaluated: the first of each run, by index
    games: int  # those of them with a winner, which the figures describe
    rounds: list[TensionRound]
    settled: dict[str, int]  # round the winner's lead became permanent -> games ("0": never)
    lead_changes: dict[str, int]  # lead changes -> games
    mean_lead_changes: float
    decided_early: int
    decided_early_rate: float
    decided_early_ci95: list[float]


class SkillRow(TypedDict):
    """One role's win rate as the strong bot against the weak one, and between equal bots."""

    role: str
    strong_vs_weak: float
    strong_vs_weak_ci95: list[float]
    weak_vs_strong: float
    weak_vs_strong_ci95: list[float]
    equal_weak: float
    equal_strong: float
    gap: float  # strong_vs_weak - equal_weak: what skill adds


class SkillDict(TypedDict):
    """How much skill matters: a strong and a weak agent in each role."""

    strong: str
    weak: str
    games: int
    roles: list[SkillRow]


class ReportDict(TypedDict):
    """A designer's report, as JSON gives it."""

    pack: str
    version: str
    games: int  # per run
    seed: int
    agents: dict[str, str]
    sweep: list[str]
    runs: list[ResultDict]
    cards: list[CardRow]
    tension: TensionDict | None
    skill: SkillDict | None
    missing: list[str]  # what the report could not show, and why


def card_rows(traces: Traces, wins: dict[str, int], games: int) -> list[CardRow]:
    """A row per (card, role, phase) played, and per card a role held but never played; the
    highest impact first."""
    phases: defaultdict[tuple[str, str], list[str | None]] = defaultdict(list)
    for role, card, phase in traces.played:
        phases[role, card].append(phase)
    rows = [_card_row(traces, role, card, phase, rate(wins.get(role, 0), games))
            for role, card in traces.held for phase in phases[role, card] or [None]]
    return sorted(rows, key=lambda row: (row["impact"] is None, -(row["impact"] or 0.0),
                                         row["card"], row["role"], row["phase"] or ""))


def _card_row(traces: Traces, role: str, card: str, phase: str | None, base: float) -> CardRow:
    held, held_won = traces.held[role, card], traces.held_won[role, card]
    played = 0 if phase is None else traces.played[role, card, phase]
    won = 0 if phase is None else traces.played_won[role, card, phase]
    others, others_won = held - played, held_won - won
    low, high = wilson_interval(won, played)
    impact = won / played - base if played else None
    return {"card": card, "role": role, "phase": phase, "held": held, "played": played,
            "play_rate": rate(played, held),
            "played_win_rate": won / played if played else None,
            "played_ci95": [low, high], "not_played": others,
            "not_played_win_rate": others_won / others if others else None,
            "not_played_ci95": list(wilson_interval(others_won, others)),
            "base_rate": base, "impact": impact, "impact_ci95": [low - base, high - base],
            "flagged": played > 0 and (low - base >= FLAG or base - high >= FLAG)}


def _spread(counts: dict[int, int]) -> Spread:
    return {"games": sum(counts.values()), "q1": quantile(counts, 0.25) / STEPS,
            "median": quantile(counts, 0.5) / STEPS, "q3": quantile(counts, 0.75) / STEPS}


def tension(traces: Traces) -> TensionDict | None:
    """The tension figures, or None if no traced game had a winner."""
    if not traces.decided:
        return None
    sides: defaultdict[tuple[int, int], Counter[int]] = defaultdict(Counter)
    for (round_, won, value), count in traces.positions.items():
        sides[round_, won][value] += count
    rounds = sorted({round_ for round_, _ in sides})
    changes = sum(k * n for k, n in traces.changes.items())
    return {
        "evaluation": traces.evaluation, "sample_per_run": TENSION_GAMES,
        "sampled": traces.sampled, "games": traces.decided,
        "rounds": [{"round": r, "winner": _spread(sides.get((r, 1), {})),
                    "loser": _spread(sides.get((r, 0), {}))} for r in rounds],
        "settled": {str(k): n for k, n in sorted(traces.settled.items())},
        "lead_changes": {str(k): n for k, n in sorted(traces.changes.items())},
        "mean_lead_changes": changes / traces.decided,
        "decided_early": traces.early, "decided_early_rate": traces.early / traces.decided,
        "decided_early_ci95": list(wilson_interval(traces.early, traces.decided))}


def skill(strong: str, weak: str, matches: dict[str, SimulationResult],
          roles: list[str]) -> SkillDict:
    """The skill figures of ``matches``: ``equal_weak``, ``equal_strong``, and the strong role's."""
    rows: list[SkillRow] = []
    for role in roles:
        mine, theirs = matches[role], [matches[r] for r in roles if r != role]
        won = mine.wins[role]
        lost = sum(result.wins[role] for result in theirs)
        played = sum(result.games for result in theirs)
        equal = matches["equal_weak"].win_rate[role]
        rows.append({"role": role, "strong_vs_weak": rate(won, mine.games),
                     "strong_vs_weak_ci95": list(wilson_interval(won, mine.games)),
                     "weak_vs_strong": rate(lost, played),
                     "weak_vs_strong_ci95": list(wilson_interval(lost, played)),
                     "equal_weak": equal,
                     "equal_strong": matches["equal_strong"].win_rate[role],
                     "gap": rate(won, mine.games) - equal})
    return {"strong": strong, "weak": weak, "games": matches["equal_weak"].games, "roles": rows}
