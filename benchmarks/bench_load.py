"""Print how long loading and validating packs takes.

    python benchmarks/bench_load.py [REPEATS] [--in-process] [--no-bytecode]

For each pack, ``rulekit validate PACK`` as a user runs it, a whole process each time: *cold*
(the first run after a change: nothing in the validation cache, which is then written) and *warm*
(run again, the pack unchanged: answered from the cache); the median wall time and the median
CPU time (user + system) of the process, which a busy machine disturbs less. A bare ``python -c
pass`` is timed alike, as the floor. Python's bytecode cache is used as in an installed
rulekit (``PYTHONDONTWRITEBYTECODE`` is dropped, after one run to write it); ``--no-bytecode``
compiles every module at each start instead. ``--in-process`` also times loading and
validating inside one process (each pack loaded afresh), as before the cache existed.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKS = ["carchase", "rednotice", str(ROOT / "docs/examples/carchase-nine"),
         str(ROOT / "docs/examples/rednotice-tour")]
RULEKIT = [sys.executable, "-m", "rulekit"]


def timed(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of one run of ``command``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def medians(samples: list[tuple[float, float]]) -> str:
    wall = statistics.median(s[0] for s in samples)
    cpu = statistics.median(s[1] for s in samples)
    return f"{wall * 1000:>6.0f}ms {cpu * 1000:>6.0f}ms"


def processes(repeats: int) -> None:
    print(f"{'whole process':<16} {'cold wall':>8} {'cpu':>8} {'warm wall':>9} {'cpu':>8}"
          f"   (median of {repeats})")
    env = {**os.environ, "RULEKIT_NO_CACHE": ""}
    if "--no-bytecode" not in sys.argv:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        timed([*RULEKIT, "validate", "--no-cache", PACKS[0]], env)  # writes the bytecode
    print("bytecode cache:", "off" if env.get("PYTHONDONTWRITEBYTECODE") else "on")
    floor = [timed([sys.executable, "-c", "pass"], env) for _ in range(repeats)]
    print(f"{'python -c pass':<16} {medians(floor)}")
    for ref in PACKS:
        cold, warm = [], []
        for _ in range(repeats):
            with tempfile.TemporaryDirectory() as cache:
                env["RULEKIT_CACHE_DIR"] = cache
                cold.append(timed([*RULEKIT, "validate", ref], env))
                warm.append(timed([*RULEKIT, "validate", ref], env))
        print(f"{Path(ref).name:<16} {medians(cold)}  {medians(warm)}")


def in_process(repeats: int) -> None:
    from rulekit.checks.lint import lint_pack
    from rulekit.pack.loader import load_pack
    from rulekit.scenarios.check import check_scenarios
    from rulekit.scenarios.runner import load_scenarios

    print(f"{'in one process':<16} {'load':>9} {'validate':>9}   (best of {repeats})")
    for ref in PACKS:
        loads, validations = [], []
        for _ in range(repeats):
            start = time.perf_counter()
            pack = load_pack(ref)
            loaded = time.perf_counter()
            check_scenarios(pack, load_scenarios(pack.scenario_files))
            lint_pack(pack)
            validations.append(time.perf_counter() - start)
            loads.append(loaded - start)
        print(f"{Path(ref).name:<16} {min(loads) * 1000:>7.0f}ms {min(validations) * 1000:>7.0f}ms")


def main() -> None:
    numbers = [a for a in sys.argv[1:] if a.isdigit()]
    repeats = int(numbers[0]) if numbers else 5
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    processes(repeats)
    if "--in-process" in sys.argv:
        in_process(repeats)


if __name__ == "__main__":
    main()
