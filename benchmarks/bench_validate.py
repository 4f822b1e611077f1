"""Print how long ``rulekit validate PACK`` takes, a whole process each time, as a user runs it.

    python benchmarks/bench_validate.py [REPEATS] [--pack PACK ...] [--edit FILE]

Each pack is copied into a temporary folder, and validated there with a cache folder of its own:

- *empty cache*: nothing stored yet (no validation result, no syntax tree, no schema check);
- *after an edit*: the first run after a change of one pack file (``--edit``, ``flow.yaml`` by
  default: a comment line is added at its end, different at each run), everything stored by the
  run before;
- *unchanged*: run again, the pack unchanged (answered from the validation cache);
- ``--no-cache``: from scratch, reading and writing no cache at all.

For each: the median wall time and the median CPU time (user + system) of the process, which a
busy machine disturbs less; ``python -c pass`` is timed alike, as the floor. The load average is
printed before and after: figures taken on a busy machine are noisy. Python's bytecode cache is
used as in an installed rulekit. Nothing here is a pass/fail test.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULEKIT = [sys.executable, "-m", "rulekit", "validate"]


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
    return f"{wall * 1000:>6.0f} ms {cpu * 1000:>5.0f} ms"


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def bench(pack: str, edit: str, repeats: int, env: dict[str, str]) -> None:
    source = ROOT / "games" / pack if (ROOT / "games" / pack).is_dir() else Path(pack)
    samples: dict[str, list[tuple[float, float]]] = {
        "empty cache": [], "after an edit": [], "unchanged": [], "--no-cache": []}
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch) / source.name
        shutil.copytree(source, folder)
        edited = folder / edit
        command = [*RULEKIT, str(folder)]
        for run in range(repeats):
            env["RULEKIT_CACHE_DIR"] = str(Path(scratch) / f"cache{run}")
            samples["empty cache"].append(timed(command, env))
            with edited.open("a", encoding="utf-8") as file:
                file.write(f"\n# edited ({run})\n")
            samples["after an edit"].append(timed(command, env))
            samples["unchanged"].append(timed(command, env))
            samples["--no-cache"].append(timed([*command, "--no-cache"], env))
    cells = "  ".join(medians(s) for s in samples.values())
    print(f"{source.name:<12} {cells}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repeats", nargs="?", type=int, default=5)
    parser.add_argument("--pack", nargs="+", default=["carchase", "rednotice"])
    parser.add_argument("--edit", default="flow.yaml", help="the pack file changed before the "
                        "'after an edit' run (default: flow.yaml)")
    args = parser.parse_args()
    env = {**os.environ, "RULEKIT_NO_CACHE": ""}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    subprocess.run([*RULEKIT, "--no-cache", "carchase"], env=env, check=True,
                   stdout=subprocess.DEVNULL)  # writes the bytecode
    print(f"load average before: {load()}")
    floor = [timed([sys.executable, "-c", "pass"], env) for _ in range(args.repeats)]
    print(f"{'(wall, cpu)':<12} {'empty cache':>16}  {'after an edit':>16}  {'unchanged':>16}  "
          f"{'--no-cache':>16}   median of {args.repeats}; edited: {args.edit}")
    print(f"{'python -c pass':<12} {medians(floor)}")
    for pack in args.pack:
        bench(pack, args.edit, args.repeats, env)
    print(f"load average after: {load()}")


if __name__ == "__main__":
    main()
