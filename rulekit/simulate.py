"""Play many games between agents and count who wins.

``simulate(pack, params, games, seed, agents)`` plays game number ``i`` from the seed
``derive(seed, i)``; every seat draws its random choices from a generator of its own, seeded
from the game's seed and the role. A game's course therefore depends on nothing but its seed and
the agents, so the counts are the same whatever the order of the games or the number of worker
processes.

Outcomes: a role wins; a *draw* is a game the rules ended without a winner; a *capped* game is
one stopped by the safety limit on rounds (``max_rounds``) before the rules ended it.
"""

from __future__ import annotations

import math
import random
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulekit.agents import (
    DEFAULT_AGENT,
    AgentLike,
    RandomAgent,
    View,
    as_option,
    choose_function,
    load_agent,
)
from rulekit.engine.decisions import Decision, Option
from rulekit.engine.game import Game
from rulekit.engine.rng import derive
from rulekit.errors import (
    GameRuntimeError,
    IllegalActionError,
    PackErrors,
    UsageError,
    did_you_mean,
)

DEFAULT_MAX_ROUNDS = 1000
Z95 = 1.959963984540054  # the 97.5% quantile of the standard normal distribution

AgentSpec = str | AgentLike
Chooser = Callable[[Decision], Option | str]


# ---------------------------------------------------------------- one game


@dataclass(frozen=True, slots=True)
class GameRecord:
    """How one game went: its seed, winner (None for a draw or a capped game), the rounds
    played, the decisions taken, whether the round cap stopped it, and the reason it ended."""

    seed: int
    winner: str | None
    rounds: int
    decisions: int
    capped: bool
    reason: str


def seat_rng(seed: int, role: str) -> random.Random:
    """The random generator of ``role``'s seat in the game of ``seed`` (the same in every
    process: a text seed is hashed with SHA-512, not with Python's salted ``hash``)."""
    return random.Random(f"rulekit-seat:{seed}:{role}")


def _sampler(rng: random.Random) -> Chooser:
    def sample(decision: Decision) -> Option:
        return decision.sample(rng)
    return sample


def _agent_chooser(agent: AgentLike, game: Game, role: str, rng: random.Random,
                   state: dict[str, Any]) -> Chooser:
    choose = choose_function(agent)

    def chooser(decision: Decision) -> Option | str:
        answer = choose(View.of(game, role, rng, state), decision)
        return as_option(decision, answer, f"the agent of {role}", f"agent: {agent!r}")
    return chooser


def _choosers(game: Game, seed: int, agents: Mapping[str, AgentLike],
              state: dict[str, Any]) -> dict[str, Chooser]:
    choosers: dict[str, Chooser] = {}
    for role in game.roles:
        agent = agents.get(role)
        rng = seat_rng(seed, role)
        if agent is None or type(agent) is RandomAgent:
            choosers[role] = _sampler(rng)  # the fast path: no view, no observation
        else:
            choosers[role] = _agent_chooser(agent, game, role, rng, state)
    return choosers


def play_game(game: Game, seed: int, agents: Mapping[str, AgentSpec] | None = None,
              max_rounds: int = DEFAULT_MAX_ROUNDS) -> GameRecord:
    """Play one game from ``seed`` (roles without an agent play at random).

    The game stops when the rules end it, or once ``max_rounds`` rounds have been played
    (then ``capped`` is true and there is no winner).
    """
    loaded = {role: load_agent(a) if isinstance(a, str) else a
              for role, a in (agents or {}).items()}
    state = game.initial_state(seed)
    decisions = 0
    try:
        state = game.run(state)  # game.new_game(seed), with the state at hand for errors
        choosers = _choosers(game, seed, loaded, state)
        pending = game.pending
        apply = game.apply
        while state["result"] is None:
            if state["round"] > max_rounds:
                return GameRecord(seed, None, max_rounds, decisions, True,
                                  f"stopped after {max_rounds} rounds")
            actions = {d.player: choosers[d.player](d) for d in pending(state)}
            if not actions:
                raise GameRuntimeError("the game is neither over nor waiting for a decision")
            apply(state, actions, in_place=True)
            decisions += len(actions)
    except IllegalActionError as exc:
        raise IllegalActionError(f"illegal choice: {exc.message} {_where(seed, state)}",
                                 exc.hint) from None
    except GameRuntimeError as exc:
        raise GameRuntimeError(f"{exc.message} {_where(seed, state)}", exc.location,
                               exc.hint) from None
    result = state["result"]
    return GameRecord(seed, result["winner"], int(result.get("round", state["round"])),
                      decisions, False, str(result.get("reason", "")))


def _where(seed: int, state: dict[str, Any]) -> str:
    return f"(in the game with seed {seed}, round {state['round']})"


# ---------------------------------------------------------------- many games


@dataclass
class _Tally:
    """Counts over a range of games (plain integers: merging is exact in any order)."""

    wins: dict[str, int]
    draws: int = 0
    capped: int = 0
    games: int = 0
    rounds: int = 0
    decisions: int = 0

    def merge(self, other: _Tally) -> None:
        for role, count in other.wins.items():
            self.wins[role] = self.wins.get(role, 0) + count
        self.draws += other.draws
        self.capped += other.capped
        self.games += other.games
        self.rounds += other.rounds
        self.decisions += other.decisions


def _play_range(game: Game, agents: Mapping[str, AgentLike], seed: int, start: int, stop: int,
                max_rounds: int) -> _Tally:
    tally = _Tally({role: 0 for role in game.roles})
    wins = tally.wins
    for index in range(start, stop):
        record = play_game(game, derive(seed, index), agents, max_rounds)
        if record.capped:
            tally.capped += 1
        elif record.winner is None:
            tally.draws += 1
        else:
            wins[record.winner] = wins.get(record.winner, 0) + 1
        tally.rounds += record.rounds
        tally.decisions += record.decisions
    tally.games += stop - start
    return tally


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
            "max_rounds": self.max_rounds,
            "wins": dict(self.wins),
            "draws": self.draws,
            "capped": self.capped,
            "win_rate": self.win_rate,
            "ci95": {role: list(ci) for role, ci in self.ci95.items()},
            "mean_rounds": self.mean_rounds,
            "decisions": self.decisions,
            "seconds": self.seconds,
            "games_per_second": self.games_per_second,
        }


def _agent_name(spec: AgentSpec) -> str:
    return spec.strip() if isinstance(spec, str) else repr(spec)


def simulate(pack_ref: str | Path, params: Mapping[str, Any] | None = None, games: int = 100,
             seed: int = 0, agents: Mapping[str, AgentSpec] | None = None, workers: int = 1,
             max_rounds: int = DEFAULT_MAX_ROUNDS) -> SimulationResult:
    """Play ``games`` games of a pack; game ``i`` is played from ``derive(seed, i)``.

    ``agents`` maps roles to agent specs (see :func:`rulekit.agents.load_agent`) or agent
    objects; other roles play at random. With ``workers > 1`` the games are shared among that
    many processes (each loads the pack and the agents itself); the counts do not change.
    """
    from rulekit.pack.loader import load_pack

    if games < 0:
        raise UsageError(f"the number of games must be 0 or more, not {games}")
    if workers < 1:
        raise UsageError(f"the number of workers must be 1 or more, not {workers}")
    if max_rounds < 1:
        raise UsageError(f"the round cap must be 1 or more, not {max_rounds}")
    loaded = load_pack(pack_ref, dict(params or {}))
    game = loaded.game
    specs: dict[str, AgentSpec] = {role: DEFAULT_AGENT for role in game.roles}
    for role, spec in (agents or {}).items():
        if role not in game.role_names:
            hint = did_you_mean(role, game.roles) or f"roles: {', '.join(game.roles)}"
            raise UsageError(f"unknown role '{role}' for an agent", hint)
        specs[role] = spec
    agent_objects = {role: load_agent(s) if isinstance(s, str) else s for role, s in specs.items()}

    started = time.perf_counter()
    if workers == 1 or games < 2:
        tally = _play_range(game, agent_objects, seed, 0, games, max_rounds)
    else:
        tally = _play_parallel(loaded.folder.resolve(), dict(params or {}), specs, seed, games,
                               workers, max_rounds)
    seconds = time.perf_counter() - started
    return SimulationResult(
        pack=game.pack_id, version=game.version, pack_hash=game.pack_hash,
        params=dict(game.params), agents={r: _agent_name(s) for r, s in specs.items()},
        games=games, seed=seed, workers=workers, max_rounds=max_rounds,
        wins={role: tally.wins.get(role, 0) for role in game.roles}, draws=tally.draws,
        capped=tally.capped, mean_rounds=tally.rounds / games if games else 0.0,
        decisions=tally.decisions, seconds=seconds, role_names=dict(game.role_names))


# ---------------------------------------------------------------- worker processes

_WorkerKey = tuple[str, tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]]
_worker_cache: dict[_WorkerKey, tuple[Game, dict[str, AgentLike]]] = {}


def _init_worker(paths: list[str]) -> None:
    """Give a worker the parent's import path (agents may live in modules found through it)."""
    sys.path[:] = paths


def _worker_chunk(folder: Path, params: dict[str, Any], specs: dict[str, AgentSpec], seed: int,
                  start: int, stop: int, max_rounds: int) -> _Tally:
    """Play games ``start`` to ``stop - 1`` in a worker process."""
    from rulekit.pack.loader import load_pack

    try:
        key = (str(folder), tuple(sorted((k, str(v)) for k, v in params.items())),
               tuple(sorted((r, _agent_name(s)) for r, s in specs.items())))
        if key not in _worker_cache:
            game = load_pack(folder, params).game
            agents = {r: load_agent(s) if isinstance(s, str) else s for r, s in specs.items()}
            _worker_cache[key] = (game, agents)
        game, agents = _worker_cache[key]
        return _play_range(game, agents, seed, start, stop, max_rounds)
    except PackErrors as exc:  # PackErrors do not survive pickling: send the text
        raise GameRuntimeError(str(exc)) from None


def _play_parallel(folder: Path, params: dict[str, Any], specs: dict[str, AgentSpec], seed: int,
                   games: int, workers: int, max_rounds: int) -> _Tally:
    from concurrent.futures import ProcessPoolExecutor, as_completed

    workers = min(workers, games)
    size = max(1, math.ceil(games / (workers * 4)))
    tally = _Tally({})
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_init_worker,
                               initargs=(list(sys.path),))
    try:
        futures = [pool.submit(_worker_chunk, folder, params, specs, seed, start,
                               min(start + size, games), max_rounds)
                   for start in range(0, games, size)]
        for future in as_completed(futures):
            tally.merge(future.result())
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()
    return tally


__all__ = ["DEFAULT_MAX_ROUNDS", "GameRecord", "SimulationResult", "play_game", "seat_rng",
           "simulate", "wilson_interval"]
