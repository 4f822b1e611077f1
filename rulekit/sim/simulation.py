"""Play many games between agents and count who wins.

``simulate(pack, params, games, seed, agents)`` plays game number ``i`` from the seed
``derive(seed, i)``; every seat draws its random choices from a generator of its own, seeded
from the game's seed and the role. A game's course therefore depends on nothing but its seed and
the agents, so the counts are the same whatever the order of the games or the number of worker
processes.

Outcomes: a role wins; a *draw* is a game the rules ended without a winner; a *capped* game is
one stopped by the safety limit on rounds (``max_rounds``) before the rules ended it, or stalled:
a round that asks :data:`MAX_ROUND_DECISIONS` decisions without ending (agents that answer
alike at the same point can go round a loop of choices for ever). Each game
also counts by its length, by how it ended, by who took its first decision and by who held the
initiative where the pack declares one (``flow.initiative``, read where the game first waits
for a decision and when it ends; :mod:`rulekit.sim.stats`). Where the games run (this process,
worker processes, a Dask cluster) is :mod:`rulekit.sim.execution`'s job.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from rulekit.bots.agent import AgentLike, RandomAgent, View, as_option, choose_function
from rulekit.bots.registry import DEFAULT_AGENT, load_agent
from rulekit.engine.decisions import Decision, Option
from rulekit.engine.draws import RandomChooser
from rulekit.engine.game import Game
from rulekit.engine.playout import playout
from rulekit.engine.rng import derive
from rulekit.engine.state import Spec, State
from rulekit.engine.vm import Runtime
from rulekit.errors import GameRuntimeError, IllegalActionError, UsageError, did_you_mean
from rulekit.model.program import INITIATIVE
from rulekit.pack.loader import load_pack
from rulekit.sim.execution import (
    Job,
    PackSource,
    Pool,
    Progress,
    holding,
    open_pool,
    prepared,
)
from rulekit.sim.result import SimulationResult
from rulekit.sim.stats import GameRecord, Tally, wilson_interval
from rulekit.sim.sweep import check_sweeps, combinations

DEFAULT_MAX_ROUNDS = 1000
# A round that asks this many decisions without ending is stalled (agents that answer the same
# way at the same point can go round a loop of choices for ever): the game is stopped.
MAX_ROUND_DECISIONS = 10_000
RANDOM = RandomAgent()

AgentSpec = str | AgentLike
Chooser = Callable[[Decision], Option | str]


# ---------------------------------------------------------------- one game


def seat_rng(seed: int, role: str) -> random.Random:
    """The random generator of ``role``'s seat in the game of ``seed`` (the same in every
    process: a text seed is hashed with SHA-512, not with Python's salted ``hash``)."""
    return random.Random(f"rulekit-seat:{seed}:{role}")


def _agent_chooser(agent: AgentLike, game: Game, role: str, rng: random.Random,
                   state: State) -> Chooser:
    choose = choose_function(agent)

    def chooser(decision: Decision) -> Option | str:
        answer = choose(View.of(game, role, rng, state), decision)
        return as_option(decision, answer, f"the agent of {role}", f"agent: {agent!r}")
    return chooser


def _choosers(game: Game, seed: int, agents: Mapping[str, AgentLike],
              state: State) -> dict[str, Chooser]:
    choosers: dict[str, Chooser] = {}
    for role in game.roles:
        agent = agents.get(role)
        rng = seat_rng(seed, role)
        if agent is None or type(agent) is RandomAgent:
            choosers[role] = RandomChooser(rng)  # the fast path: no view, no observation
        else:
            choosers[role] = _agent_chooser(agent, game, role, rng, state)
    return choosers


def _random_seats(game: Game, agents: Mapping[str, AgentLike]) -> bool:
    return all(type(agents.get(role, RANDOM)) is RandomAgent for role in game.roles)


def play_game(game: Game, seed: int, agents: Mapping[str, AgentSpec] | None = None,
              max_rounds: int = DEFAULT_MAX_ROUNDS) -> GameRecord:
    """Play one game from ``seed`` (roles without an agent play at random).

    The game stops when the rules end it, or once ``max_rounds`` rounds have been played
    (then ``capped`` is true and there is no winner). When every seat plays at random, the
    game is a quiet playout (no log, every choice answered where it is made: see
    :mod:`rulekit.engine.playout`), which goes exactly as the same game played step by step.
    """
    loaded = {role: load_agent(a) if isinstance(a, str) else a
              for role, a in (agents or {}).items()}
    fast = _random_seats(game, loaded)
    state = game.initial_state(seed, quiet=fast)
    first: str | None = None
    # Where the game first waits for a decision: who decides, and who holds the initiative.
    start: list[tuple[str | None, str | None]] = []

    def watch(state: State, specs: list[Spec]) -> None:
        start[:] = [(specs[0]["player"] if len(specs) == 1 else None,
                     initiative(game, state))]

    try:
        if fast:  # played out from the start (run to the first decision on the way)
            decisions, capped = playout(
                game, state, _choosers(game, seed, loaded, state), max_rounds, watch,
                record=False)  # nobody reads the choices of this game
            stopped = "" if capped else None
        else:
            state = game.run(state)  # game.new_game(seed), with the state at hand for errors
            if state["pending"]:
                watch(state, state["pending"])
            decisions, stopped = _play_steps(game, state,
                                             _choosers(game, seed, loaded, state), max_rounds)
        last = initiative(game, state)
        first, holder = start[0] if start else (None, last)
    except IllegalActionError as exc:
        raise IllegalActionError(f"illegal choice: {exc.message} {_where(seed, state)}",
                                 exc.hint) from None
    except GameRuntimeError as exc:
        raise GameRuntimeError(f"{exc.message} {_where(seed, state)}", exc.location,
                               exc.hint) from None
    if stopped == "":
        return GameRecord(seed, None, max_rounds, decisions, True,
                          f"stopped after {max_rounds} rounds", first, holder, last)
    if stopped:
        return GameRecord(seed, None, int(state["round"]), decisions, True, stopped, first,
                          holder, last)
    result = state["result"]
    assert result is not None
    return GameRecord(seed, result["winner"], int(result.get("round", state["round"])),
                      decisions, False, str(result.get("reason", "")), first, holder, last)


def initiative(game: Game, state: State) -> str | None:
    """The role that holds the initiative in ``state`` by the pack's ``flow.initiative``
    (``""`` if it names none), or None if the pack declares no initiative."""
    holder = game.program.functions.get(INITIATIVE)
    if holder is None:
        return None
    return str(holder(Runtime(game.program, state), []) or "")


def _play_steps(game: Game, state: State, choosers: Mapping[str, Chooser],
                max_rounds: int) -> tuple[int, str | None]:
    """Play ``state`` (in place) decision by decision: the decisions taken, and why the game
    was stopped before its end (``""`` for the round limit), or None."""
    decisions = 0
    pending = game.pending
    apply = game.apply
    round_seen, round_start = state["round"], 0
    while state["result"] is None:
        if state["round"] > max_rounds:
            return decisions, ""
        if state["round"] != round_seen:
            round_seen, round_start = state["round"], decisions
        elif decisions - round_start >= MAX_ROUND_DECISIONS:
            return decisions, (f"stopped: {MAX_ROUND_DECISIONS:,} decisions in round "
                               f"{round_seen} and the round did not end")
        actions = {d.player: choosers[d.player](d) for d in pending(state)}
        if not actions:
            raise GameRuntimeError("the game is neither over nor waiting for a decision")
        apply(state, actions, in_place=True)
        decisions += len(actions)
    return decisions, None


def _where(seed: int, state: State) -> str:
    return f"(in the game with seed {seed}, round {state['round']})"


# ---------------------------------------------------------------- many games


def _play_range(game: Game, agents: Mapping[str, AgentLike], seed: int, start: int, stop: int,
                max_rounds: int) -> Tally:
    tally = Tally({role: 0 for role in game.roles})
    for index in range(start, stop):
        tally.add(play_game(game, derive(seed, index), agents, max_rounds))
    return tally


def play_chunk(job: Job, start: int, stop: int) -> Tally:
    """Play games ``start`` to ``stop - 1`` of ``job`` (in whatever process or machine)."""
    game, agents = prepared(job)
    return _play_range(game, agents, job.seed, start, stop, job.max_rounds)


def _agent_name(spec: AgentSpec) -> str:
    return spec.strip() if isinstance(spec, str) else repr(spec)


def simulate(pack_ref: str | Path, params: Mapping[str, Any] | None = None, games: int = 100,
             seed: int = 0, agents: Mapping[str, AgentSpec] | None = None, workers: int = 1,
             max_rounds: int = DEFAULT_MAX_ROUNDS, *, scheduler: str | None = None,
             pool: Pool | None = None, progress: Progress | None = None) -> SimulationResult:
    """Play ``games`` games of a pack; game ``i`` is played from ``derive(seed, i)``.

    ``agents`` maps roles to agent specs (see :func:`rulekit.bots.registry.load_agent`) or agent
    objects; other roles play at random. With ``workers > 1`` the games are shared among that
    many processes; with ``scheduler`` (a Dask scheduler's address, or ``"local"``) they run on
    a Dask cluster; an open ``pool`` (:func:`rulekit.sim.execution.open_pool`) serves several
    runs. The counts are the same in every case. ``progress`` is told of games as they finish.
    """
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
    source = PackSource(str(loaded.folder.resolve()), portable=loaded.base_id is None)
    job = Job(source, tuple(sorted(game.params.items())), tuple(specs.items()), seed, max_rounds,
              game.pack_hash)

    with ExitStack() as stack:
        if pool is None:  # a pool of this run only (a Dask cluster starts before the clock)
            pool = stack.enter_context(open_pool(workers, scheduler))
        stack.enter_context(holding(job, (game, agent_objects)))  # this process has loaded it
        started = time.perf_counter()
        tally = pool.run(play_chunk, job, games, progress)
        seconds = time.perf_counter() - started
        slots, where = pool.slots, pool.scheduler
    return SimulationResult.from_tally(
        tally, game.roles, pack=game.pack_id, version=game.version, pack_hash=game.pack_hash,
        params=dict(game.params), agents={r: _agent_name(s) for r, s in specs.items()},
        seed=seed, workers=slots, max_rounds=max_rounds, seconds=seconds,
        role_names=dict(game.role_names), scheduler=where)


def sweep(pack_ref: str | Path, sweeps: Sequence[str], params: Mapping[str, Any] | None = None,
          games: int = 100, seed: int = 0, agents: Mapping[str, AgentSpec] | None = None,
          workers: int = 1, max_rounds: int = DEFAULT_MAX_ROUNDS, *,
          scheduler: str | None = None, progress: Progress | None = None,
          ) -> tuple[list[str], list[SimulationResult]]:
    """:func:`simulate` once per combination of the swept parameters (``"KEY=V1,V2"``,
    ``"KEY=A..B"``; see :mod:`rulekit.sim.sweep`), same seed and games each time; returns
    the swept keys and the results, in order. Every value is checked before any game runs."""
    fixed = dict(params or {})
    declared = load_pack(pack_ref, fixed).manifest.get("parameters") or {}
    checked = check_sweeps(sweeps, declared, fixed)
    results = []
    with open_pool(workers, scheduler) as pool:
        for combination in combinations(checked):
            results.append(simulate(pack_ref, {**fixed, **combination}, games, seed, agents,
                                    workers, max_rounds, pool=pool, progress=progress))
    return [key for key, _ in checked], results


__all__ = ["DEFAULT_MAX_ROUNDS", "GameRecord", "SimulationResult", "initiative", "play_chunk",
           "play_game", "seat_rng", "simulate", "sweep", "wilson_interval"]
