"""Strength of the built-in bots, per pack and per role, with 95% intervals.

    python benchmarks/bench_bots.py [PACK ...] [--games N] [--default SPEC] [--ismcts SPEC]
                                    [--workers W] [--pairs default-scripted,...]
                                    [--self-play N]

A name in a pair is ``default`` (the bot under test, ``--default``, any agent spec),
``ismcts`` (``--ismcts``), ``heuristic``, ``random``, any other agent spec, or ``scripted``:
the scripted player of ``baselines.py`` for the pack and role (the greedy Car Chase player;
Red Notice's deducing Jessah and careful Angela; for any other pack, ``Highest``, which plays
the cards of the highest total). The default pairs are the default bot
against the scripted players, random and ``ismcts``, then the scripted players against each
other and against random. ``--ismcts first_ismcts:FirstIsmcts`` puts in ``ismcts``'s place
the search as it was before the bots learnt mixed answers (``first_ismcts.py``): a yardstick
that does not move when the bots improve.

For each pair ``A-B`` and each role, A plays that role and B the other for N games (games
0..N-1 of ``rulekit simulate`` with seed 0, or ``--seed``; ``--games-rn`` sets another N for
Red Notice); the table gives A's wins with a Wilson 95% interval, the mean number of rounds,
seconds of one process per game (the wall time times the workers, over the games; and the CPU
time, which a loaded machine does not inflate) and how the games ended. It also prints ISMCTS
iterations per second per pack (the iterations run over the time spent choosing, the belief's
update left out), and with ``--self-play N`` N Red Notice games of ISMCTS against ISMCTS (mean
length, seconds per game, how they ended). Figures only: nothing here passes or fails. Progress
goes to stderr (a line at each tenth of a run's games and at least every half minute while
games finish, with the clock time).

The full table asked for (200 games per role on Car Chase, 100 on Red Notice)::

    python benchmarks/bench_bots.py --games 200 --games-rn 100 --self-play 20 --workers 2

A quick look at one pack: ``--pairs default-scripted --games 20 rednotice``; ``--roles
jessah`` plays the rows of that role only.
"""

from __future__ import annotations

import argparse
import collections
import resource
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from rulekit.bots.agent import View
from rulekit.bots.ismcts import IsmctsAgent
from rulekit.bots.registry import load_agent
from rulekit.cli import tune_gc
from rulekit.engine.decisions import Decision, Option
from rulekit.pack.loader import load_pack
from rulekit.sim.result import SimulationResult
from rulekit.sim.simulation import play_game, simulate, wilson_interval

sys.path.insert(0, str(Path(__file__).resolve().parent))  # baselines.py, a plug-in agent


def endings(ends: dict[tuple[str, str], int]) -> str:
    """How games ended, most frequent first: ``winner: reason (count)``."""
    counted = collections.Counter(ends)
    return "; ".join(f"{w or 'nobody'}: {r} ({n})" for (w, r), n in counted.most_common())


def cpu_seconds() -> float:
    """CPU time of this process and of its ended worker processes (a loaded machine's wall
    time says little)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


class Progress:
    """Tells (on stderr, so the table stays clean) how a run goes: a line at each tenth of its
    games and whenever half a minute has passed since the last line, with the clock time, so
    that a long run shows where it is and a game that takes long shows as a silence."""

    def __init__(self, what: str, games: int) -> None:
        self.what, self.games, self.done = what, games, 0
        self.start = self.last = time.perf_counter()

    def __call__(self, finished: int) -> None:
        before, self.done = self.done, self.done + finished
        now = time.perf_counter()
        step = max(1, self.games // 10)
        if self.done // step > before // step or now - self.last >= 30 or \
                self.done == self.games:
            self.last = now
            print(f"  [{time.strftime('%H:%M:%S')}] {self.what}: {self.done}/{self.games} "
                  f"games, {now - self.start:.0f} s", file=sys.stderr, flush=True)


def timed(run: Callable[[], SimulationResult]) -> tuple[SimulationResult, float, float]:
    """The result of ``run``, its wall seconds and its CPU seconds."""
    wall, cpu = time.perf_counter(), cpu_seconds()
    result = run()
    return result, time.perf_counter() - wall, cpu_seconds() - cpu


SCRIPTED = {"carchase": {"law": "baselines:CarChaseGreedy",
                         "fugitive": "baselines:CarChaseGreedy"},
            "rednotice": {"angela": "baselines:RedNoticeAngela",
                          "jessah": "baselines:RedNoticeJessah"}}


def strength(pack: str, names: dict[str, str], pair: tuple[str, str], games: int,
             workers: int, max_rounds: int, roles: list[str] | None = None,
             seed: int = 0) -> Iterator[str]:
    """A row of the table per role, each as soon as its games are played."""
    game = load_pack(pack).game
    for role in [r for r in game.roles if not roles or r in roles]:
        other = next(r for r in game.roles if r != role)
        a, b = (SCRIPTED.get(game.pack_id, {}).get(seat, "baselines:Highest")
                if name == "scripted" else names.get(name, name)
                for name, seat in zip(pair, (role, other), strict=True))
        progress = Progress(f"{pack} {a} ({role}) against {b}", games)
        result, wall, cpu = timed(lambda: simulate(
            pack, games=games, seed=seed, agents={role: a, other: b},  # noqa: B023
            workers=workers, max_rounds=max_rounds, progress=progress))  # noqa: B023
        wins = result.wins.get(role, 0)
        low, high = wilson_interval(wins, games)
        yield (f"| {pack} | {a} | {b} | {role} | {wins}/{games} = {wins / games:.0%} "
               f"[{low:.0%}, {high:.0%}] | {result.mean_rounds:.1f} | "
               f"{wall * workers / games:.1f} / {cpu / games:.1f} | {endings(result.ends)} |")


class _Timed:
    """Wraps an ISMCTS agent to add up its iterations and the time it spends choosing."""

    def __init__(self, agent: IsmctsAgent) -> None:
        self.agent = agent
        self.iterations = 0
        self.seconds = 0.0

    def choose(self, view: View, decision: Decision) -> Option:
        view.belief  # noqa: B018 - the belief is brought up to date outside the timing
        start = time.process_time()  # CPU time: the machine's load does not count
        option = self.agent.choose(view, decision)
        self.seconds += time.process_time() - start
        self.iterations += self.agent.last_iterations
        return option


def speed(pack: str, spec: str, games: int) -> str:
    game = load_pack(pack).game
    agent = load_agent(spec)
    assert isinstance(agent, IsmctsAgent)
    timed = _Timed(agent)
    progress = Progress(f"{pack} {spec} iterations per second", games)
    for seed in range(games):
        play_game(game, seed, {game.roles[seed % 2]: timed})
        progress(1)
    rate = timed.iterations / timed.seconds if timed.seconds else 0.0
    return (f"{pack}: {rate:.0f} ISMCTS iterations/s of CPU ({timed.iterations} in "
            f"{timed.seconds:.1f} s, {games} games)")


def self_play(pack: str, spec: str, games: int, workers: int) -> str:
    game = load_pack(pack).game
    result, wall, cpu = timed(lambda: simulate(
        pack, games=games, seed=0, agents={role: spec for role in game.roles},
        workers=workers, progress=Progress(f"{pack} {spec} against itself", games)))
    wins = ", ".join(f"{role} {result.wins.get(role, 0)}" for role in game.roles)
    return (f"{pack} {spec} vs itself: {games} games ({wins}), mean "
            f"{result.mean_rounds:.1f} rounds, {wall * workers / games:.0f} s/game "
            f"({cpu / games:.0f} s of CPU); {endings(result.ends)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("packs", nargs="*", default=["carchase", "rednotice"])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--games-rn", type=int, default=None, metavar="N",
                        help="games per role on Red Notice (default: --games)")
    parser.add_argument("--default", default="normal",
                        help="the bot under test: any agent spec (default normal, the table's)")
    parser.add_argument("--ismcts", default="ismcts", help="the ISMCTS agent spec")
    parser.add_argument("--pairs", default="default-scripted,default-random,default-ismcts,"
                                           "scripted-scripted,scripted-random")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0,
                        help="the seed of the run the games are taken from")
    parser.add_argument("--roles", default="",
                        help="the first agent of a pair plays only these roles (ROLE,...)")
    parser.add_argument("--max-rounds", type=int, default=100,
                        help="a game still on after this many rounds counts as capped "
                             "(scripted players may never end one)")
    parser.add_argument("--speed-games", type=int, default=2)
    parser.add_argument("--self-play", type=int, default=0, metavar="N")
    parser.add_argument("--default-gc", action="store_true",
                        help="leave the garbage collector at Python's default threshold "
                             "(else set as the rulekit command sets it: rulekit.cli.tune_gc)")
    args = parser.parse_args()
    if not args.default_gc:
        tune_gc()
    names = {"default": args.default, "ismcts": args.ismcts, "heuristic": "heuristic",
             "random": "random"}
    print("| pack | agent | against | role | wins [95%] | mean rounds | s/game (wall x workers "
          "/ CPU) | ends |")
    print("|---|---|---|---|---|---|---|---|")
    for pack in args.packs:
        games = args.games_rn if args.games_rn and pack == "rednotice" else args.games
        for pair in filter(None, args.pairs.split(",")):
            a, b = (p.strip() for p in pair.split("-"))
            for row in strength(pack, names, (a, b), games, args.workers, args.max_rounds,
                                args.roles.split(",") if args.roles else None, args.seed):
                print(row, flush=True)
    for pack in args.packs if args.speed_games > 0 else []:
        print(speed(pack, args.ismcts, args.speed_games), flush=True)
    if args.self_play:
        print(self_play("rednotice", args.ismcts, args.self_play, args.workers), flush=True)


if __name__ == "__main__":
    main()
