"""Print how long ``rulekit validate PACK`` takes, a whole process each time, as a user runs it.

    python benchmarks/bench_validate.py [REPEATS] [--pack PACK ...] [--edit FILE] [--code]
                                        [--against FOLDER]

Each pack is copied into a temporary folder, and validated there with a cache folder of its own:

- *empty cache*: nothing stored yet (no validation result, no syntax tree, no schema check), and
  an empty temp folder (where lark keeps the tables of a grammar it builds): a fresh CI machine
  (``--temp-kept``: the temp folder of the machine, as measured before this option);
- *after an edit*: the first run after a change of one pack file (``--edit``, ``flow.yaml`` by
  default: a comment line is added at its end, different at each run; with ``--code``, a comment
  line of the effect language in its first ``do: |`` block, so that one piece of code is parsed
  again), everything stored by the run before;
- *unchanged*: run again, the pack unchanged (answered from the validation cache);
- ``--no-cache``: from scratch, reading and writing no cache at all.

``--against FOLDER`` (a checkout of another rulekit, say ``git worktree add /tmp/before main``)
times that rulekit too, each of its runs right after the same run of this one (interleaved, so
that both see the same load), on a copy of the pack of its own.

For each: the minimum and the median of the wall time and of the CPU time (user + system) of
the process, which a busy machine disturbs less; ``python -c pass`` is timed alike, as the
floor. The load average is printed before and after: figures taken on a busy machine are noisy.
Python's bytecode cache is used as in an installed rulekit. Nothing here is a pass/fail test.
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
    """Wall min/median and CPU min/median, in ms."""
    wall = [s[0] * 1000 for s in samples]
    cpu = [s[1] * 1000 for s in samples]
    return (f"{min(wall):>4.0f}/{statistics.median(wall):<4.0f} "
            f"{min(cpu):>4.0f}/{statistics.median(cpu):<4.0f}")


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


def bench(pack: str, edit: str, repeats: int, env: dict[str, str], code: bool,
          against: Path | None, temp_kept: bool) -> None:
    source = ROOT / "games" / pack if (ROOT / "games" / pack).is_dir() else Path(pack)
    versions = {"": ROOT}
    if against is not None:
        versions[f" ({against.name})"] = against
    samples: dict[str, dict[str, list[tuple[float, float]]]] = {
        label: {"empty cache": [], "after an edit": [], "unchanged": [], "--no-cache": []}
        for label in versions}
    with tempfile.TemporaryDirectory() as scratch:
        for run in range(repeats):
            for label, version in versions.items():
                folder = Path(scratch) / f"{source.name}{label.replace(' ', '')}"
                if run == 0:
                    shutil.copytree(source, folder)
                own = {**env, "PYTHONPATH": str(version)}
                command = [*RULEKIT, str(folder)]
                found = samples[label]
                own["RULEKIT_CACHE_DIR"] = str(Path(scratch) / f"cache{run}{label}")
                temp = Path(scratch) / f"tmp{run}{label}"
                temp.mkdir()
                fresh = own if temp_kept else {**own, "TMPDIR": str(temp)}
                found["empty cache"].append(timed(command, fresh))
                change(folder / edit, run, code)
                found["after an edit"].append(timed(command, own))
                found["unchanged"].append(timed(command, own))
                found["--no-cache"].append(timed([*command, "--no-cache"], own))
    for label, found in samples.items():
        cells = "  ".join(medians(s) for s in found.values())
        print(f"{source.name + label:<22} {cells}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repeats", nargs="?", type=int, default=5)
    parser.add_argument("--pack", nargs="+", default=["carchase", "rednotice"])
    parser.add_argument("--edit", default="flow.yaml", help="the pack file changed before the "
                        "'after an edit' run (default: flow.yaml)")
    parser.add_argument("--code", action="store_true", help="edit a piece of effect code (a "
                        "comment in the first `do: |` block) rather than add a YAML comment")
    parser.add_argument("--against", type=lambda p: Path(p).resolve(),
                        help="a checkout of another rulekit, timed "
                        "alike, interleaved with this one")
    parser.add_argument("--temp-kept", action="store_true", help="empty cache: keep the temp "
                        "folder of the machine (lark's cache of grammar tables)")
    args = parser.parse_args()
    env = {**os.environ, "RULEKIT_NO_CACHE": ""}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    packs = [p if (ROOT / "games" / p).is_dir() else str(Path(p).resolve()) for p in args.pack]
    os.chdir(tempfile.gettempdir())  # not the checkout: `python -m` puts the working folder
    for version in (ROOT, args.against):  # first on the path; this writes the bytecode
        if version is not None:
            subprocess.run([*RULEKIT, "--no-cache", "carchase"], check=True,
                           stdout=subprocess.DEVNULL, env={**env, "PYTHONPATH": str(version)})
    print(f"load average before: {load()}")
    floor = [timed([sys.executable, "-c", "pass"], env) for _ in range(args.repeats)]
    print(f"{'ms: wall, cpu':<22} {'empty cache':^19}  {'after an edit':^19}  "
          f"{'unchanged':^19}  {'--no-cache':^19}   min/median of {args.repeats}; "
          f"edited: {args.edit}{' (code)' if args.code else ''}")
    print(f"{'python -c pass':<22} {medians(floor)}")
    for pack in packs:
        bench(pack, args.edit, args.repeats, env, args.code, args.against, args.temp_kept)
    print(f"load average after: {load()}")


if __name__ == "__main__":
    main()
