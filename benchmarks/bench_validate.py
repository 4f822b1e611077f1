"""Print how long ``rulekit validate PACK...`` takes, a whole process each time, as a user runs it.

    python benchmarks/bench_validate.py [REPEATS] [--pack PACK ...] [--against FOLDER]

Two cases, each with ``XDG_CACHE_HOME`` a temporary folder of its own:

- ``--no-cache``: from scratch, in an empty cache folder (a fresh CI machine);
- *unchanged*: the packs validated once before, unchanged since (answered from the cache).

The budgets: under 1 s from scratch and under 0.3 s unchanged, for ``carchase rednotice``.
``--against FOLDER`` (a copy of another rulekit, say ``git archive main | tar -x -C FOLDER``)
times that rulekit too, its runs interleaved with this one's. For each case: the minimum and
median of the wall time and of the CPU time (user + system) of the process, in ms.
``python -c pass`` is timed alike, as the floor. The load average is printed before and
after: figures taken on a busy machine are noisy. Nothing here is a pass/fail test.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_load import timed  # one run of a command: wall and CPU seconds

ROOT = Path(__file__).resolve().parent.parent
RULEKIT = [sys.executable, "-m", "rulekit", "validate"]
CASES = ("--no-cache", "unchanged")


def figures(samples: list[tuple[float, float]]) -> str:
    """Wall min/median and CPU min/median, in ms."""
    wall = [s[0] * 1000 for s in samples]
    cpu = [s[1] * 1000 for s in samples]
    return (f"{min(wall):>5.0f}/{statistics.median(wall):<5.0f} "
            f"{min(cpu):>5.0f}/{statistics.median(cpu):<5.0f}")


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repeats", nargs="?", type=int, default=7)
    parser.add_argument("--pack", nargs="+", default=["carchase", "rednotice"])
    parser.add_argument("--against", type=lambda p: Path(p).resolve(),
                        help="another rulekit's folder, timed alike, interleaved")
    args = parser.parse_args()
    env = {key: value for key, value in os.environ.items()
           if key not in ("RULEKIT_NO_CACHE", "RULEKIT_CACHE_DIR", "PYTHONDONTWRITEBYTECODE")}
    versions = {"this": ROOT, **({args.against.name: args.against} if args.against else {})}
    samples = {label: {case: [] for case in CASES} for label in versions}
    with tempfile.TemporaryDirectory() as scratch:
        os.chdir(scratch)  # not a checkout: `python -m` puts the working folder on the path
        for label, folder in versions.items():  # writes the bytecode, fills "unchanged"
            own = {**env, "PYTHONPATH": str(folder), "XDG_CACHE_HOME": f"{scratch}/{label}"}
            subprocess.run([*RULEKIT, *args.pack], check=True, env=own,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        print(f"load average before: {load()}")
        floor = [timed([sys.executable, "-c", "pass"], env) for _ in range(args.repeats)]
        for run in range(args.repeats):
            order = list(versions.items())
            for label, folder in order if run % 2 == 0 else order[::-1]:
                own = {**env, "PYTHONPATH": str(folder)}
                empty = {**own, "XDG_CACHE_HOME": f"{scratch}/{label}-{run}"}
                samples[label]["--no-cache"].append(
                    timed([*RULEKIT, *args.pack, "--no-cache"], empty))
                kept = {**own, "XDG_CACHE_HOME": f"{scratch}/{label}"}
                samples[label]["unchanged"].append(timed([*RULEKIT, *args.pack], kept))
    print(f"rulekit validate {' '.join(args.pack)}: ms, min/median of {args.repeats}")
    print(f"{'':<30} {'wall':^11} {'cpu':^11}")
    print(f"{'python -c pass':<30} {figures(floor)}")
    for label, found in samples.items():
        for case, timings in found.items():
            print(f"{case + ('' if label == 'this' else f' ({label})'):<30} {figures(timings)}")
    print(f"load average after: {load()}")


if __name__ == "__main__":
    main()
