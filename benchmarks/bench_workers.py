"""Speed-up of ``simulate`` with worker processes (and a local Dask cluster), same games.

    python benchmarks/bench_workers.py [PACK] [--games 1000 10000] [--repeat R] [--dask] [--cli]

For each number of games, R runs of each setup, alternating so that a burst of other work on
the machine hurts every setup alike: in one process, with ``--workers 2``, and with ``--dask``
on a local Dask cluster of 2 worker processes (started once, outside the timing). It prints the
median time inside ``simulate``, the ratio of the medians, the median CPU time of this process
and of its children (which shows how the work was shared), and whether every run gave the same
tallies. The load average is printed too: with more runnable processes than cores, the wall
clock of two workers says little.

``--cli`` also times whole ``rulekit simulate PACK --games N --workers W`` processes, as a user
runs them (loading the pack included), and the bound Amdahl's law sets on their ratio from CPU
times: what a run of 0 games costs (starting Python, imports, loading the pack, the report)
cannot be shared by workers. Nothing here is a pass/fail test.
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
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--dask", action="store_true", help="also a local Dask cluster")
    parser.add_argument("--cli", action="store_true",
                        help="also time whole `rulekit simulate` processes")
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    dask: Pool | None = DaskPool("local", 2) if args.dask else None
    try:
        for games in args.games:
            inside(args.pack, games, args.repeat, dask)
            if args.cli:
                whole_processes(args.pack, games, args.repeat)
    finally:
        if dask is not None:
            dask.close()
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


def inside(pack: str, games: int, repeat: int, dask: Pool | None) -> None:
    """The median time of ``simulate`` itself in each setup, and its CPU times."""
    setups: list[tuple[str, dict[str, Any]]] = [("1 process", {"workers": 1}),
                                                ("2 workers", {"workers": 2})]
    if dask is not None:
        setups.append(("dask local (2)", {"pool": dask}))
    seconds: dict[str, list[float]] = {name: [] for name, _ in setups}
    here: dict[str, list[float]] = {name: [] for name, _ in setups}
    children: dict[str, list[float]] = {name: [] for name, _ in setups}
    outcomes: dict[str, list[Any]] = {name: [] for name, _ in setups}
    for _ in range(repeat):
        for name, options in setups:
            before = os.times()
            result = simulate(pack, games=games, seed=1, **options)
            after = os.times()
            seconds[name].append(result.seconds)
            here[name].append(after.user + after.system - before.user - before.system)
            children[name].append(after.children_user + after.children_system
                                  - before.children_user - before.children_system)
            outcomes[name].append(result.outcome())
    base = statistics.median(seconds["1 process"])
    for name, _ in setups:
        median = statistics.median(seconds[name])
        same = all(o == outcomes["1 process"][0] for o in outcomes[name])
        print(f"{pack}, {games} games, {name:>14}: median {median:6.2f} s "
              f"(best {min(seconds[name]):.2f})  x{base / median:4.2f}  "
              f"{games / median:8,.0f} games/s  cpu {statistics.median(here[name]):5.2f} s "
              f"here + {max(0.0, statistics.median(children[name])):5.2f} s children  "
              f"{'same tallies' if same else 'DIFFERENT'}")


def whole_processes(pack: str, games: int, repeat: int) -> None:
    """The median wall time of ``rulekit simulate`` with 1 and 2 workers, runs alternating;
    and the bound Amdahl's law sets on their ratio: the CPU time of a run of 0 games (what no
    worker can share) against that of the games themselves."""
    wall: dict[int, list[float]] = {0: [], 1: [], 2: []}
    cpu: dict[int, list[float]] = {0: [], 1: [], 2: []}
    # Python's bytecode cache used as in an installed rulekit (written by the first run).
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([sys.executable, "-m", "rulekit", "simulate", pack, "--games", "1"],
                   env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(repeat):
        for workers in (1, 2, 0):  # 0: a run of 0 games in one process
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "rulekit", "simulate", pack, "--games",
                            str(games if workers else 0), "--seed", "1", "--workers",
                            str(max(workers, 1))], env=env, check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            wall[workers].append(time.perf_counter() - start)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu[workers].append(after.ru_utime + after.ru_stime
                                - before.ru_utime - before.ru_stime)
    one, two = statistics.median(wall[1]), statistics.median(wall[2])
    print(f"{pack}, {games} games, whole `rulekit simulate` process (medians): 1 worker "
          f"{one:.2f} s, 2 workers {two:.2f} s  x{one / two:4.2f}; 0 games "
          f"{statistics.median(wall[0]):.2f} s")
    serial = statistics.median(cpu[0])
    shared = statistics.median(cpu[1]) - serial
    print(f"{pack}, {games} games, CPU medians: serial part (a run of 0 games) {serial:.2f} s, "
          f"the games {shared:.2f} s, 2 workers in all {statistics.median(cpu[2]):.2f} s; "
          f"Amdahl's bound on 2 idle cores x{(serial + shared) / (serial + shared / 2):4.2f}")


if __name__ == "__main__":
    main()
