"""Speed-up of ``simulate`` with worker processes (and a local Dask cluster), same games.

    python benchmarks/bench_workers.py [PACK] [--games 1000 10000] [--repeat R] [--dask] [--cli]

For each number of games: the best of R runs in one process, with ``--workers 2``, and with
``--dask`` on a local Dask cluster of 2 worker processes (started once, outside the timing);
the ratio of the times; the CPU time of this process and of the helper processes (which shows
how the work was shared, and that sharing it costs little, even when other work on the machine
slows the wall clock); and whether every run gave the same tallies. Runs alternate, so a burst
of other work on the machine hurts both sides alike; the load average is printed too: with more
runnable processes than cores, the wall clock of two workers says little, the CPU times more.
``--cli`` also times the whole ``rulekit simulate PACK --games N --workers W`` process, as a user
runs it (loading the pack included), and the bound Amdahl's law sets on their ratio from CPU
times: what a run of 0 games costs (starting Python, imports, loading the pack, the report)
cannot be shared by workers; that of a run of 0 games with ``RULEKIT_NO_CACHE=1`` too (the pack
compiled afresh: a first run after a change). Those processes use Python's bytecode cache as
an installed rulekit does (even where ``PYTHONDONTWRITEBYTECODE`` is set). Nothing here is a
pass/fail test.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from typing import Any

from rulekit.sim.execution import DaskPool, Pool
from rulekit.sim.simulation import simulate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pack", nargs="?", default="carchase")
    parser.add_argument("--games", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--dask", action="store_true", help="also a local Dask cluster")
    parser.add_argument("--cli", action="store_true",
                        help="also time whole `rulekit simulate` processes")
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    dask: Pool | None = DaskPool("local", 2) if args.dask else None
    try:
        for games in args.games:
            best: dict[str, float] = {}
            cpu: dict[str, tuple[float, float]] = {}
            outcomes: dict[str, Any] = {}
            for _ in range(args.repeat):
                setups: list[tuple[str, dict[str, Any]]] = [("1 process", {"workers": 1}),
                                                            ("2 workers", {"workers": 2})]
                if dask is not None:
                    setups.append(("dask local (2)", {"pool": dask}))
                for name, options in setups:
                    before = os.times()
                    result = simulate(args.pack, games=games, seed=1, **options)
                    after = os.times()
                    if result.seconds < best.get(name, float("inf")):
                        best[name] = result.seconds
                        cpu[name] = (after.user + after.system - before.user - before.system,
                                     after.children_user + after.children_system
                                     - before.children_user - before.children_system)
                    outcomes.setdefault(name, result.outcome())
            base = best["1 process"]
            for name, seconds in best.items():
                same = "same tallies" if outcomes[name] == outcomes["1 process"] else "DIFFERENT"
                print(f"{args.pack}, {games} games, {name:>14}: {seconds:6.2f} s  "
                      f"x{base / seconds:4.2f}  {games / seconds:8,.0f} games/s  cpu "
                      f"{cpu[name][0]:5.2f} s here + {cpu[name][1]:5.2f} s helpers  {same}")
            if args.cli:
                whole_processes(args.pack, games, args.repeat)
    finally:
        if dask is not None:
            dask.close()
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


def whole_processes(pack: str, games: int, repeat: int) -> None:
    """The best wall time of ``rulekit simulate`` with 1 and 2 workers, runs alternating; and
    the bound Amdahl's law sets on their ratio: the CPU time of a run of 0 games (starting
    Python, imports, loading the pack, the report: what no worker can share) against that of
    the games themselves (a run of ``games`` in one process, less the former)."""
    best = {-1: float("inf"), 0: float("inf"), 1: float("inf"), 2: float("inf")}
    cpu: dict[int, list[float]] = {-1: [], 0: [], 1: [], 2: []}
    # Python's bytecode cache used as in an installed rulekit (written by the first run).
    warm = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    cold = {**warm, "RULEKIT_NO_CACHE": "1"}
    subprocess.run([sys.executable, "-m", "rulekit", "simulate", pack, "--games", "1"],
                   env=warm, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(repeat):
        for workers in (1, 2, 0, -1):  # -1: 0 games, nothing kept from earlier runs
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "rulekit", "simulate", pack, "--games",
                            str(games if workers > 0 else 0), "--seed", "1", "--workers",
                            str(max(workers, 1))], env=cold if workers < 0 else warm,
                           check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            best[workers] = min(best[workers], time.perf_counter() - start)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu[workers].append(after.ru_utime + after.ru_stime
                                - before.ru_utime - before.ru_stime)
    print(f"{pack}, {games} games, whole `rulekit simulate` process: 1 worker {best[1]:.2f} s, "
          f"2 workers {best[2]:.2f} s  x{best[1] / best[2]:4.2f}")
    serial = statistics.median(cpu[0])
    shared = statistics.median(cpu[1]) - serial
    print(f"{pack}, {games} games, CPU medians: serial part (a run of 0 games) {serial:.2f} s, "
          f"the games {shared:.2f} s, 2 workers in all {statistics.median(cpu[2]):.2f} s; "
          f"Amdahl's bound on 2 idle cores x{(serial + shared) / (serial + shared / 2):4.2f} "
          f"(x1.8 needs a serial part of at most {shared / 8:.2f} s); serial part with "
          f"nothing kept from earlier runs (RULEKIT_NO_CACHE=1) {statistics.median(cpu[-1]):.2f} s")


if __name__ == "__main__":
    main()
