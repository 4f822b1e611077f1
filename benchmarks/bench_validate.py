"""Print how long ``rulekit validate PACK`` takes, a whole process each time, as a user runs it.

    python benchmarks/bench_validate.py [REPEATS] [--pack PACK ...] [--edit FILE] [--code]

Each pack is copied into a temporary folder, and validated there with a cache folder of its own:

- *empty cache*: nothing stored yet (no validation result, no syntax tree, no schema check);
- *after an edit*: the first run after a change of one pack file (``--edit``, ``flow.yaml`` by
  default: a comment line is added at its end, different at each run; with ``--code``, a comment
  line of the effect language in its first ``do: |`` block, so that one piece of code is parsed
  again), everything stored by the run before;
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
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_load import timed  # one run of a command: wall and CPU seconds

ROOT = Path(__file__).resolve().parent.parent
RULEKIT = [sys.executable, "-m", "rulekit", "validate"]


def medians(samples: list[tuple[float, float]]) -> str:
    wall = statistics.median(s[0] for s in samples)
    cpu = statistics.median(s[1] for s in samples)
    return f"{wall * 1000:>6.0f} ms {cpu * 1000:>5.0f} ms"


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def change(file: Path, run: int, code: bool) -> None:
    """Edit ``file``: a YAML comment at its end, or (``code``) a comment of the effect language
    at the start of its first ``do: |`` block, so that one piece of code changes."""
    text = file.read_text(encoding="utf-8")
    if not code:
        file.write_text(f"{text}\n# edited ({run})\n", encoding="utf-8")
        return
    lines = text.split("\n")
    at = next(i for i, line in enumerate(lines) if line.rstrip().endswith("do: |"))
    indent = len(lines[at + 1]) - len(lines[at + 1].lstrip())
    lines.insert(at + 1, " " * indent + f"# edited ({run})")
    file.write_text("\n".join(lines), encoding="utf-8")


def bench(pack: str, edit: str, repeats: int, env: dict[str, str], code: bool) -> None:
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
            change(edited, run, code)
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
    parser.add_argument("--code", action="store_true", help="edit a piece of effect code (a "
                        "comment in the first `do: |` block) rather than add a YAML comment")
    args = parser.parse_args()
    env = {**os.environ, "RULEKIT_NO_CACHE": ""}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    subprocess.run([*RULEKIT, "--no-cache", "carchase"], env=env, check=True,
                   stdout=subprocess.DEVNULL)  # writes the bytecode
    print(f"load average before: {load()}")
    floor = [timed([sys.executable, "-c", "pass"], env) for _ in range(args.repeats)]
    print(f"{'(wall, cpu)':<12} {'empty cache':>16}  {'after an edit':>16}  {'unchanged':>16}  "
          f"{'--no-cache':>16}   median of {args.repeats}; edited: {args.edit}"
          f"{' (code)' if args.code else ''}")
    print(f"{'python -c pass':<12} {medians(floor)}")
    for pack in args.pack:
        bench(pack, args.edit, args.repeats, env, args.code)
    print(f"load average after: {load()}")


if __name__ == "__main__":
    main()
