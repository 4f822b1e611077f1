"""Play many games between agents and count who wins, whatever the number of workers."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path

from rulekit.bots.agent import (
    AgentLike,
    RandomAgent,
    SeatBelief,
    View,
    agent_name,
    as_option,
    asked,
    choose_function,
)
from rulekit.bots.registry import DEFAULT_AGENT
from rulekit.engine.decisions import Decision, Option
from rulekit.engine.draws import RandomChooser
from rulekit.engine.game import Game
from rulekit.engine.playout import Capped, Chooser, Cutoff, playout
from rulekit.engine.rng import derive
from rulekit.engine.state import State
from rulekit.engine.vm import Runtime
from rulekit.errors import GameRuntimeError, IllegalActionError, UsageError, did_you_mean
from rulekit.model.program import INITIATIVE
from rulekit.pack.loader import load_pack
from rulekit.sim.execution import (
    AgentSpec,
    Job,
    PackSource,
    Pool,
    Progress,
    agent_of,
    holding,
    open_pool,
    prepared,
)
from rulekit.sim.result import SimulationResult
from rulekit.sim.stats import GameRecord, Tally, wilson_interval
from rulekit.sim.sweep import Sweep, check_sweeps, combinations
from rulekit.sim.traces import TENSION_GAMES, ChoiceLog, GameTrace, Tracer, Traces

DEFAULT_MAX_ROUNDS = 1000
MAX_GAMES = 1_000_000_000  # games of one run (or of one row of a sweep)
MAX_WORKERS = 1024  # worker processes of one run
RANDOM = RandomAgent()

def seat_rng(seed: int, role: str) -> random.Random:
    """The random generator of ``role``'s seat in the game of ``seed``, in any process."""
    return random.Random(f"rulekit-seat:{seed}:{role}")


def _agent_chooser(agent: AgentLike, game: Game, role: str, rng: random.Random,
                   state: State, who: str) -> Chooser:
    choose = choose_function(agent)
    kept = SeatBelief()

    def chooser(decision: Decision) -> Option | str:
        answer = asked(choose, View.of(game, role, rng, state, kept=kept), decision, who)
        return as_option(decision, answer, who)
    return chooser


def _choosers(game: Game, seed: int, agents: Mapping[str, AgentLike], state: State,
              names: Mapping[str, str]) -> dict[str, Chooser]:
    choosers: dict[str, Chooser] = {}
    for role in game.roles:
        agent = agents.get(role)
        rng = seat_rng(seed, role)
        if agent is None or type(agent) is RandomAgent:
            choosers[role] = RandomChooser(rng)
        else:
            who = f"the agent of {role} ({names[role]})"
            choosers[role] = _agent_chooser(agent, game, role, rng, state, who)
    return choosers


class _Opening:
    """Who decides first in a game, and who then holds the initiative."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.seen: tuple[str | None, str | None] | None = None

    def __call__(self, state: State, players: list[str]) -> None:
        """Note the role asked (None for several) and the initiative's holder."""
        self.seen = (players[0] if len(players) == 1 else None, initiative(self.game, state))


def play_game(game: Game, seed: int, agents: Mapping[str, AgentSpec] | None = None,
              max_rounds: int = DEFAULT_MAX_ROUNDS, tracer: Tracer | None = None,
              names: Mapping[str, str] | None = None) -> GameRecord:
    """Play one game from ``seed``; roles without an agent play at random, quietly if all do."""
    loaded = {role: agent_of(spec) for role, spec in (agents or {}).items()}
    quiet = all(type(loaded.get(role, RANDOM)) is RandomAgent for role in game.roles)
    state = game.initial_state(seed, quiet=quiet)
    trace = None if tracer is None else GameTrace(tracer, state)
    opening = _Opening(game)
    with _located(seed, state):
        named = {role: agent_name(spec) for role, spec in (agents or {}).items()}
        choosers = _choosers(game, seed, loaded, state, {**named, **(names or {})})
        decisions, stop = _play(game, state, choosers, max_rounds, opening, trace)
        last = initiative(game, state)
    first, holder = opening.seen or (None, last)
    result = state["result"] if stop is None else None
    winner = None if result is None else result["winner"]
    if trace is not None:
        trace.settle()
        trace.tracer.traces.add(trace, winner)
    if result is None:  # cut off
        return GameRecord(seed, None, min(state["round"], max_rounds), decisions, True,
                          str(stop), first, holder, last)
    return GameRecord(seed, winner, int(result.get("round", state["round"])), decisions, False,
                      str(result.get("reason", "")), first, holder, last)


@contextmanager
def _located(seed: int, state: State) -> Iterator[None]:
    """Add the game's seed and round to the message of an error."""
    try:
        yield
    except (IllegalActionError, GameRuntimeError, UsageError) as exc:
        where = f"(in the game with seed {seed}, round {state['round']})"
        if isinstance(exc, IllegalActionError):
            raise IllegalActionError(f"illegal choice: {exc.message} {where}", exc.hint) from None
        if isinstance(exc, UsageError):  # an agent that failed
            raise UsageError(f"{exc.message} {where}", exc.hint) from None
        raise GameRuntimeError(f"{exc.message} {where}", exc.location, exc.hint) from None


def initiative(game: Game, state: State) -> str | None:
    """The role that holds ``flow.initiative`` in ``state``: ``""`` if none, None if undeclared."""
    holder = game.program.functions.get(INITIATIVE)
    if holder is None:
        return None
    return str(holder(Runtime(game.program, state), []) or "")


def _play(game: Game, state: State, choosers: Mapping[str, Chooser], max_rounds: int,
          opening: _Opening, trace: GameTrace | None) -> tuple[int, str | None]:
    """Play ``state`` out in place: the decisions taken, and why it was cut off if it was."""
    if "quiet" in state:  # no log line to build: one playout
        return playout(game, state, choosers, max_rounds, opening, record=False,
                       told=None if trace is None else trace.chose)
    if trace is not None:
        state["log"] = ChoiceLog(trace)
    return _play_steps(game, state, choosers, max_rounds, opening)


def _play_steps(game: Game, state: State, choosers: Mapping[str, Chooser], max_rounds: int,
                opening: _Opening) -> tuple[int, str | None]:
    """Play ``state`` in place, decision by decision, as :func:`playout` plays it quietly."""
    game.run(state)
    if state["pending"]:
        opening(state, [spec["player"] for spec in state["pending"]])
    cutoff = Cutoff(max_rounds)
    try:
        while state["result"] is None:
            _decide(game, state, choosers, cutoff)
    except Capped as stop:
        return cutoff.decisions, str(stop.args[0])
    return cutoff.decisions, None


def _decide(game: Game, state: State, choosers: Mapping[str, Chooser], cutoff: Cutoff) -> None:
    """Answer the decisions ``state`` waits for, unless the game is cut off first."""
    pending = game.pending(state)
    cutoff.count(state, len(pending))
    actions = {d.player: choosers[d.player](d) for d in pending}
    if not actions:
        raise GameRuntimeError("the game is neither over nor waiting for a decision")
    game.apply(state, actions, in_place=True)


def play_chunk(job: Job, start: int, stop: int) -> Tally:
    """Play games ``start`` to ``stop - 1`` of ``job``, in any process."""
    game, agents = prepared(job)
    tally = Tally(traces=Traces() if job.traced else None)
    first = rest = None  # positions are evaluated in the first games of a run only
    if tally.traces is not None:
        first = Tracer(game, tally.traces)
        rest = Tracer(game, tally.traces, positions=False)
    names = {role: agent_name(spec) for role, spec in job.agents}
    for index in range(start, stop):
        tracer = first if index < TENSION_GAMES else rest
        tally.add(play_game(game, derive(job.seed, index), agents, job.max_rounds, tracer,
                            names))
    return tally


def _check_counts(games: int, workers: int, max_rounds: int) -> None:
    if not 0 <= games <= MAX_GAMES:
        raise UsageError(f"the number of games must be between 0 and {MAX_GAMES:,}, not "
                         f"{games}")
    if not 1 <= workers <= MAX_WORKERS:
        raise UsageError(f"the number of workers must be between 1 and {MAX_WORKERS:,}, not "
                         f"{workers}")
    if max_rounds < 1:
        raise UsageError(f"the round cap must be 1 or more, not {max_rounds}")


def _agent_specs(game: Game, agents: Mapping[str, AgentSpec] | None) -> dict[str, AgentSpec]:
    specs: dict[str, AgentSpec] = {role: DEFAULT_AGENT for role in game.roles}
    for role, spec in (agents or {}).items():
        if role not in game.role_names:
            hint = did_you_mean(role, game.roles) or f"roles: {', '.join(game.roles)}"
            raise UsageError(f"unknown role '{role}' for an agent", hint)
        specs[role] = spec
    return specs


def simulate(pack_ref: str | Path, params: Mapping[str, str | int] | None = None,
             games: int = 100, seed: int = 0, agents: Mapping[str, AgentSpec] | None = None,
             workers: int = 1, max_rounds: int = DEFAULT_MAX_ROUNDS, *,
             scheduler: str | None = None, pool: Pool | None = None,
             progress: Progress | None = None, traced: bool = False) -> SimulationResult:
    """Play ``games`` games of a pack; game ``i`` is played from ``derive(seed, i)``."""
    _check_counts(games, workers, max_rounds)
    loaded = load_pack(pack_ref, dict(params or {}))
    game = loaded.game
    specs = _agent_specs(game, agents)
    source = PackSource(str(loaded.folder.resolve()), portable=loaded.base_id is None)
    job = Job(source, tuple(sorted(game.params.items())), tuple(specs.items()), seed,
              max_rounds, game.pack_hash, traced)
    ready = (game, {role: agent_of(spec) for role, spec in specs.items()})
    with ExitStack() as stack:
        if pool is None:  # a pool of this run only (a Dask cluster starts before the clock)
            pool = stack.enter_context(open_pool(workers, scheduler))
        stack.enter_context(holding(job, ready))  # this process has loaded it
        started = time.perf_counter()
        tally = pool.run(play_chunk, job, games, progress)
        seconds = time.perf_counter() - started
        slots, where = pool.slots, pool.scheduler
    return SimulationResult(
        pack=game.pack_id, version=game.version, pack_hash=game.pack_hash,
        params=dict(game.params), role_names=dict(game.role_names),
        agents={r: s.strip() if isinstance(s, str) else repr(s) for r, s in specs.items()},
        seed=seed, workers=slots, scheduler=where, max_rounds=max_rounds, seconds=seconds,
        games=tally.games, wins={role: tally.wins.get(role, 0) for role in game.roles},
        draws=tally.draws, capped=tally.capped, decisions=tally.decisions,
        mean_rounds=tally.rounds / tally.games if tally.games else 0.0,
        lengths=dict(sorted(tally.lengths.items())), ends=dict(tally.ends),
        first=dict(tally.first), first_wins=dict(tally.first_wins),
        held=dict(sorted(tally.held.items())),
        traces=(tally.traces or Traces()) if traced else None)


def checked_sweeps(pack_ref: str | Path, sweeps: Sequence[str],
                   params: Mapping[str, str | int]) -> list[Sweep]:
    """The sweeps, checked against the pack's parameters (loaded only if there are sweeps)."""
    if not sweeps:
        return []
    declared = load_pack(pack_ref, dict(params)).manifest.get("parameters") or {}
    return check_sweeps(sweeps, declared, params)


def sweep(pack_ref: str | Path, sweeps: Sequence[str],
          params: Mapping[str, str | int] | None = None, games: int = 100, seed: int = 0,
          agents: Mapping[str, AgentSpec] | None = None, workers: int = 1,
          max_rounds: int = DEFAULT_MAX_ROUNDS, *, scheduler: str | None = None,
          progress: Progress | None = None, traced: bool = False
          ) -> tuple[list[str], list[SimulationResult]]:
    """:func:`simulate` per combination of the swept ``"KEY=V1,V2"`` (once if none)."""
    _check_counts(games, workers, max_rounds)  # before a pool of that many workers starts
    fixed = dict(params or {})
    checked = checked_sweeps(pack_ref, sweeps, fixed)
    results = []
    with open_pool(workers, scheduler) as pool:
        for combination in combinations(checked):
            results.append(simulate(pack_ref, {**fixed, **combination}, games, seed, agents,
                                    workers, max_rounds, pool=pool, progress=progress,
                                    traced=traced))
    return [key for key, _ in checked], results


__all__ = ["DEFAULT_MAX_ROUNDS", "GameRecord", "SimulationResult", "checked_sweeps", "initiative",
           "play_chunk", "play_game", "seat_rng", "simulate", "sweep", "wilson_interval"]
