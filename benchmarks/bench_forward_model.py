"""The speed of the forward model for one pack, in one process.

    python benchmarks/bench_forward_model.py PACK [--games N] [--repeat R] [--playouts] [--json]

Figures (random player against random player, as ``rulekit simulate`` plays them):

- ``games_per_s``, ``decisions_per_s``: whole games as ``rulekit simulate`` plays them
  (``play_game``: random seats play quiet playouts, every choice answered where it is made,
  see ``engine/playout``), the median of R runs;
- ``quiet_games_per_s``: the same games without a log, played step by step with
  ``Game.pending`` and ``Game.apply`` (``new_game(seed, quiet=True)``), as a search bot that
  stops at each decision plays them; with ``--playouts``, ``playout_games_per_s``: the games
  played out by calling ``engine/playout`` directly (the path ``games_per_s`` measures);
- ``clone_us``, ``observe_us``, ``determinize_us``, ``apply_us``: the median time of one call
  over the states met in random games (``apply`` on a copy, in place, the copy not counted);
  ``determinize_us`` over fewer states (``determinize_states``, 30 unless
  ``--determinize-states`` says otherwise, spread over the same games), one call each, on
  states of games the observer's belief has never followed (each call replays the observer's
  whole history and may take a second late in a game);
- ``determinize_followed_us``: ``determinize`` as a bot meets it, along games it follows:
  random games (``--followed-games``, up to round ``FOLLOWED_ROUNDS``) where each role that
  must decide determinizes once at each of its decisions (the belief's update with what
  happened since its last decision, and one sample): the median per call;
- ``determinize_draw_us``: on each of those states, ``FOLLOWED_DRAWS`` calls again right after
  that one (a search's iterations: the belief is up to date, a call only draws): the median;
  ``observe_us`` calls ``observe`` 5 times on each state, for the player to decide first;
- ``observe_along_us``: the median time of ``Game.observe`` as the play table and the bots
  call it, every role after every move of a few whole random games (each state the copy
  ``apply`` made, so each call sees a state it has not seen);
- ``state_bytes``: the median size of those states as JSON, without the log;
- ``reference_games_per_s``: Car Chase written by hand in plain Python (``carchase_plain.py``),
  run in turns with the engine in this process, so that what it gauges holds on a busy
  machine: for Car Chase, the same game 50 games at a time, and ``ratio`` (also
  ``quiet_ratio``, ``playout_ratio``), the median of the ratios of those turns; for another
  pack, 20 of its games per game of the pack, which only gauges the machine's speed, and
  ``per_1000_reference_games``, the pack's games per 1,000 of the reference (the median of
  the turns), a figure that moves less than ``games_per_s`` from one machine or day to
  another;
- ``cpu_s``, ``wall_s``: what the whole measurement took (CPU time of this process, and by the
  clock: on a machine shared with other work the clock runs faster than the CPU time).

Times are the process's CPU time (``time.process_time``), which other work on a shared machine
disturbs less than the wall clock. The cyclic garbage collector is set as the ``rulekit``
command sets it (``rulekit.cli.tune_gc``), unless ``--default-gc`` (Python's default threshold, as a
program that embeds rulekit without calling ``tune_gc`` runs it). Nothing here is a
pass/fail test: the script prints figures.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import carchase_plain

from rulekit.bots.belief import Belief
from rulekit.bots.determinize import determinize
from rulekit.engine.draws import RandomChooser
from rulekit.engine.game import Game, copy_state
from rulekit.engine.playout import playout
from rulekit.engine.rng import derive
from rulekit.pack.loader import load_pack
from rulekit.sim.simulation import play_game, seat_rng

SAMPLED_STATES = 200
DETERMINIZE_STATES = 30  # determinize replays a history: a bounded sample
FOLLOWED_GAMES = 2  # games along which determinize_followed_us is measured
FOLLOWED_ROUNDS = 10  # ... up to this round
FOLLOWED_DRAWS = 5  # calls again on each of those states (determinize_draw_us)
OBSERVED_GAMES = 3  # games observed move by move for observe_along_us


def run_engine(game: Game, games: int, first: int) -> tuple[float, int]:
    """(seconds, decisions) for ``games`` random games."""
    started = time.process_time()
    decisions = sum(play_game(game, derive(0, i)).decisions for i in range(first, first + games))
    return time.process_time() - started, decisions


def run_quiet(game: Game, games: int, first: int) -> float:
    """Seconds for ``games`` random games without a log (as play_game, quiet)."""
    started = time.process_time()
    for i in range(first, first + games):
        seed = derive(0, i)
        rngs = {role: seat_rng(seed, role) for role in game.roles}
        state = game.new_game(seed, quiet=True)
        while state["result"] is None:
            actions = {d.player: d.sample(rngs[d.player]) for d in game.pending(state)}
            game.apply(state, actions, in_place=True)
    return time.process_time() - started


def run_playouts(game: Game, games: int, first: int) -> float:
    """Seconds for ``games`` random quiet games played out (engine/playout)."""
    started = time.process_time()
    for i in range(first, first + games):
        seed = derive(0, i)
        choosers = {role: RandomChooser(seat_rng(seed, role)) for role in game.roles}
        playout(game, game.initial_state(seed, quiet=True), choosers)
    return time.process_time() - started


def run_reference(games: int, first: int) -> float:
    started = time.process_time()
    for i in range(first, first + games):
        carchase_plain.play(derive(0, i))
    return time.process_time() - started


def sample_states(game: Game, count: int) -> list[dict[str, Any]]:
    """States met in random games (waiting for a decision), spread over whole games."""
    rand = random.Random(1)
    states: list[dict[str, Any]] = []
    seed = 0
    while len(states) < count * 4 and seed < 1000:
        state = game.new_game(derive(7, seed))
        seed += 1
        while state["result"] is None:
            states.append(copy_state(state))
            actions = {d.player: d.sample(rand) for d in game.pending(state)}
            state = game.apply(state, actions, in_place=True)
    step = max(1, len(states) // count)
    return states[::step][:count]


def per_call(states: list[dict[str, Any]], call: Callable[[dict[str, Any]], object],
             reps: int = 5) -> float:
    """The median over ``states`` of the time of one call, in microseconds."""
    times = []
    for state in states:
        started = time.process_time()
        for _ in range(reps):
            call(state)
        times.append((time.process_time() - started) / reps)
    return statistics.median(times) * 1e6


def observe_along(game: Game, games: int = OBSERVED_GAMES) -> float:
    """The median time of ``Game.observe`` as the play table and the bots call it: every role
    after every move of whole random games, each state the copy ``apply`` made."""
    rand = random.Random(4)
    times = []
    for seed in range(games):
        state = game.new_game(derive(8, seed))
        while state["result"] is None:
            for role in game.roles:
                started = time.process_time()
                game.observe(state, role)
                times.append(time.process_time() - started)
            state = game.apply(state, {d.player: d.sample(rand) for d in game.pending(state)})
    return statistics.median(times) * 1e6


def apply_time(game: Game, states: list[dict[str, Any]]) -> float:
    rand = random.Random(2)
    times = []
    for state in states:
        actions = {d.player: d.sample(rand).id for d in game.pending(state)}
        copy = copy_state(state)
        started = time.process_time()
        game.apply(copy, actions, in_place=True)
        times.append(time.process_time() - started)
    return statistics.median(times) * 1e6


def followed_time(game: Game, games: int, rounds: int = FOLLOWED_ROUNDS,
                  draws: int = FOLLOWED_DRAWS) -> tuple[float, float]:
    """The median time of ``determinize`` for each role at each of its decisions along
    random games (so each call follows the game from that role's last call), and the median
    time of ``draws`` calls again on the same state right after it (a search's iterations,
    which only draw from the belief brought up to date), in µs."""
    times, again = [], []
    for index in range(games):
        play, rand = random.Random(index), random.Random(100 + index)
        kept: dict[str, list[Belief]] = {}
        state = game.new_game(derive(11, index))
        while state["result"] is None and state["round"] <= rounds:
            decisions = game.pending(state)
            for decision in decisions:
                started = time.process_time()
                determinize(game, state, decision.player, rand, kept)
                times.append(time.process_time() - started)
                for _ in range(draws):
                    started = time.process_time()
                    determinize(game, state, decision.player, rand, kept)
                    again.append(time.process_time() - started)
            state = game.apply(state, {d.player: d.sample(play) for d in decisions},
                               in_place=True)
    return statistics.median(times) * 1e6, statistics.median(again) * 1e6


def first_player(game: Game, state: dict[str, Any]) -> str:
    pending = game.pending(state)
    return pending[0].player if pending else game.roles[0]


CHUNK = 50  # games per turn when the ways of playing take turns
YARDSTICK_GAMES = 20  # games of the reference per game of another pack, in each turn


def spread(states: list[dict[str, Any]], count: int) -> list[dict[str, Any]]:
    """``count`` of ``states`` (all if fewer), evenly spaced over them."""
    if count >= len(states):
        return states
    return [states[i * len(states) // count] for i in range(count)]


def measure(pack: str, games: int, repeat: int,
            determinize_states: int = DETERMINIZE_STATES,
            playouts: bool = False, followed_games: int = FOLLOWED_GAMES) -> dict[str, Any]:
    cpu, wall = time.process_time(), time.perf_counter()
    game = load_pack(pack).game
    same_game = game.pack_id == "carchase"  # the reference is this very game
    # Of another pack, the reference only gauges the machine: more of its games per turn.
    per_turn = 1 if same_game else YARDSTICK_GAMES
    play_game(game, derive(0, 0))  # warm up
    # The ways of playing take turns on the same seeds, CHUNK games at a time, so that a
    # change of load on the machine weighs on all of them alike; rates are the medians of
    # the runs, ratios the medians over the chunks.
    seconds: dict[str, list[float]] = {"engine": [], "quiet": [], "playout": [],
                                       "reference": []}
    decisions = 0
    ratios: dict[str, list[float]] = {"engine": [], "quiet": [], "playout": []}
    rates: dict[str, list[float]] = {key: [] for key in seconds}
    for run in range(repeat):
        totals = dict.fromkeys(seconds, 0.0)
        for first in range(run * games, (run + 1) * games, CHUNK):
            size = min(CHUNK, (run + 1) * games - first)
            took, made = run_engine(game, size, first)
            decisions += made
            chunk = {"engine": took, "quiet": run_quiet(game, size, first)}
            if playouts:
                chunk["playout"] = run_playouts(game, size, first)
            chunk["reference"] = run_reference(size * per_turn, first * per_turn) / per_turn
            for key in ratios:
                if key in chunk:
                    ratios[key].append(chunk["reference"] / chunk[key])
            for key, value in chunk.items():
                totals[key] += value
        for key, value in totals.items():
            if value:
                rates[key].append(games / value)
    figures: dict[str, Any] = {
        "pack": game.pack_id,
        "games": games,
        "runs": repeat,
        "games_per_s": round(statistics.median(rates["engine"]), 1),
        "decisions_per_s": round(decisions / repeat / games
                                 * statistics.median(rates["engine"])),
    }
    figures["quiet_games_per_s"] = round(statistics.median(rates["quiet"]), 1)
    if playouts:
        figures["playout_games_per_s"] = round(statistics.median(rates["playout"]), 1)
    figures["reference_games_per_s"] = round(statistics.median(rates["reference"]), 1)
    if same_game:
        figures["ratio"] = round(statistics.median(ratios["engine"]), 3)
        figures["quiet_ratio"] = round(statistics.median(ratios["quiet"]), 3)
        if playouts:
            figures["playout_ratio"] = round(statistics.median(ratios["playout"]), 3)
    else:  # this pack's games per 1,000 of the reference, which gauges the machine's speed
        figures["per_1000_reference_games"] = round(1000 * statistics.median(ratios["engine"]), 2)
    states = sample_states(game, SAMPLED_STATES)
    rand = random.Random(3)
    roles = {id(s): first_player(game, s) for s in states}
    few = spread(states, determinize_states)
    followed = followed_time(game, followed_games)
    figures.update({
        "clone_us": round(per_call(states, copy_state), 2),
        "observe_us": round(per_call(states, lambda s: game.observe(s, roles[id(s)])), 2),
        "observe_along_us": round(observe_along(game), 2),
        "determinize_us": round(per_call(
            few, lambda s: determinize(game, s, roles[id(s)], rand), reps=1), 2),
        "determinize_states": len(few),
        "determinize_followed_us": round(followed[0], 2),
        "determinize_draw_us": round(followed[1], 2),
        "apply_us": round(apply_time(game, states), 2),
        "state_bytes": round(statistics.median(
            len(json.dumps({k: v for k, v in s.items() if k != "log"})) for s in states)),
        "states_sampled": len(states),
        "cpu_s": round(time.process_time() - cpu, 1),
        "wall_s": round(time.perf_counter() - wall, 1),
    })
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pack", nargs="?", default="carchase")
    parser.add_argument("--games", type=int, default=None,
                        help="games per run (default 1000 for Car Chase, 100 otherwise)")
    parser.add_argument("--repeat", type=int, default=5, help="runs (the median is kept)")
    parser.add_argument("--determinize-states", type=int, default=DETERMINIZE_STATES,
                        help="states determinize_us is measured over, one call each "
                             f"(default {DETERMINIZE_STATES})")
    parser.add_argument("--followed-games", type=int, default=FOLLOWED_GAMES,
                        help="games along which determinize_followed_us is measured "
                             f"(default {FOLLOWED_GAMES})")
    parser.add_argument("--playouts", action="store_true",
                        help="also time engine/playout called directly")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--default-gc", action="store_true",
                        help="leave the garbage collector at Python's default threshold")
    args = parser.parse_args()
    if not args.default_gc:
        from rulekit.cli import tune_gc

        tune_gc()
    games = args.games or (1000 if args.pack == "carchase" else 100)
    figures = measure(args.pack, games, args.repeat, args.determinize_states, args.playouts,
                      args.followed_games)
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key:>22}: {value}")


if __name__ == "__main__":
    main()
