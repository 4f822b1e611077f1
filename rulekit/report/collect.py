"""``make_report``: play the games of a designer's report and draw its figures."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path

from rulekit.report.figures import ReportDict, card_rows, skill, tension
from rulekit.sim.execution import AgentSpec, Progress, open_pool
from rulekit.sim.result import SimulationResult
from rulekit.sim.simulation import DEFAULT_MAX_ROUNDS, simulate, sweep
from rulekit.sim.traces import TENSION_GAMES, Traces


def make_report(pack_ref: str | Path, params: Mapping[str, str | int] | None = None,
                games: int = 1000, seed: int = 0,
                agents: Mapping[str, AgentSpec] | None = None, sweeps: Sequence[str] = (),
                workers: int = 1, max_rounds: int = DEFAULT_MAX_ROUNDS, *,
                scheduler: str | None = None, progress: Progress | None = None,
                skill_games: int = 0, strong: str = "heuristic", weak: str = "random"
                ) -> ReportDict:
    """The figures of a report on ``games`` traced games (per combination of ``sweeps``).

    With ``skill_games``, the ``strong`` and ``weak`` agents also play that many games per
    match: strong against weak in each role, and each against itself.
    """
    keys, results = sweep(pack_ref, sweeps, params, games, seed, agents, workers, max_rounds,
                          scheduler=scheduler, progress=progress, traced=True)
    traces = Traces()
    wins: Counter[str] = Counter()
    for result in results:
        traces.merge(result.traces or Traces())
        wins.update(result.wins)
    played = sum(result.games for result in results)
    roles = list(results[0].role_names)
    cards = card_rows(traces, wins, played)
    shape = tension(traces)
    matches = None
    if skill_games > 0:
        matches = _skill_matches(pack_ref, params, roles, skill_games, seed, strong, weak,
                                 workers, max_rounds, scheduler, progress)
    first = results[0]
    return {"pack": first.pack, "version": first.version, "games": games, "seed": seed,
            "agents": first.agents, "sweep": keys, "runs": [r.to_dict() for r in results],
            "cards": cards, "tension": shape,
            "skill": None if matches is None else skill(strong, weak, matches, roles),
            "missing": _missing(played, len(results), bool(keys), bool(cards), shape is not None,
                                skill_games, games > TENSION_GAMES)}


def _skill_matches(pack_ref: str | Path, params: Mapping[str, str | int] | None,
                   roles: list[str], games: int, seed: int, strong: str, weak: str,
                   workers: int, max_rounds: int, scheduler: str | None,
                   progress: Progress | None) -> dict[str, SimulationResult]:
    """The strong agent in each role against the weak one; each agent against itself."""
    seats = {role: {r: strong if r == role else weak for r in roles} for role in roles}
    seats["equal_weak"] = {r: weak for r in roles}
    seats["equal_strong"] = {r: strong for r in roles}
    with open_pool(workers, scheduler) as pool:  # one pool for the four matches
        return {name: simulate(pack_ref, params, games, seed, agents, workers, max_rounds,
                               pool=pool, progress=progress)
                for name, agents in seats.items()}


def _missing(games: int, runs: int, swept: bool, cards: bool, shaped: bool,
             skill_games: int, sampled: bool) -> list[str]:
    """What the report cannot show, each with what to do; ``sampled``: some games' positions."""
    missing = []
    if games == 0:
        missing.append("no games were played: give --games N with N of 1 or more")
    elif not cards:
        missing.append("no card was held in a hand (a pile of one role that only it sees): "
                       "the pack has no cards to rate")
    if games and not shaped:
        among = f" among the first {TENSION_GAMES} of a run" if sampled else ""
        missing.append(f"no game ended with a winner{among}: there is no tension to show")
    if swept and runs == 1:
        missing.append("the sweep has one value: give two or more to compare them")
    if skill_games == 0:
        missing.append("skill was not measured: give --skill-games N (a searching agent's "
                       "games are slow)")
    return missing
