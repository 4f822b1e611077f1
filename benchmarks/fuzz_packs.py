"""Fuzz the pack loader and the engine with mutants of the shipped packs; print the counts.

    python benchmarks/fuzz_packs.py --mutants N [--first I] [--seed S] [--scenarios]
                                    [--workers W] [--show K]
    python benchmarks/fuzz_packs.py --dump INDEX FOLDER [--seed S] [--scenarios]

Each mutant changes one file of a shipped pack one to three times (see tests/fuzzing.py), is
loaded as ``rulekit validate`` loads it and, if valid, played a little; a scenario file is
checked and its scenarios run. About 15% of the mutants change a scenario file; with
``--scenarios``, every one does. ``--first`` starts the series at mutant I, to run a long
series in parts. It prints how many
mutants ended in each way: ok (valid), error (a located error quoting the real line), and the
findings: traceback, hang, unlocated. ``--dump`` writes mutant INDEX as a pack folder, to
reproduce one.
"""

from __future__ import annotations

import argparse
import multiprocessing
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rulekit.pack.loader import shipped_packs_dir
from tests.fuzzing import FINDINGS, Tally, make_mutant, run_mutants


def _work(job: tuple[int, int, int, float, float]) -> tuple[Tally, list[str]]:
    start, stop, seed, seconds, share = job
    root = Path(tempfile.mkdtemp(prefix="rulekit-fuzz-"))
    tally, findings = run_mutants(range(start, stop), root / "packs", seed, seconds,
                                  scenarios_share=share)
    shutil.rmtree(root, ignore_errors=True)
    lines = [f"{o.kind}: mutant {m.index} ({m.pack}/{m.file}, {m.operator}): {o.detail}"
             for m, o in findings]
    return tally, lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mutants", type=int, default=1000)
    parser.add_argument("--first", type=int, default=0, help="index of the first mutant")
    parser.add_argument("--scenarios", action="store_true",
                        help="every mutant changes a scenario file")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=10.0, help="time limit of one mutant")
    parser.add_argument("--show", type=int, default=20, help="findings to print")
    parser.add_argument("--dump", nargs=2, metavar=("INDEX", "FOLDER"))
    args = parser.parse_args()
    share = 1.0 if args.scenarios else 0.15
    if args.dump:
        mutant = make_mutant(int(args.dump[0]), args.seed, scenarios_share=share)
        folder = Path(args.dump[1])
        shutil.copytree(shipped_packs_dir() / mutant.pack, folder)
        (folder / mutant.file).write_text(mutant.text, encoding="utf-8")
        print(f"{folder}: {mutant.pack} with {mutant.file} changed ({mutant.operator})")
        return
    chunk = max(1, min(250, args.mutants // max(1, args.workers * 4)))
    stop = args.first + args.mutants
    jobs = [(i, min(i + chunk, stop), args.seed, args.seconds, share)
            for i in range(args.first, stop, chunk)]
    began = time.perf_counter()
    total = Tally()
    findings: list[str] = []
    with multiprocessing.Pool(args.workers) as pool:
        for tally, lines in pool.imap_unordered(_work, jobs):
            for kind, count in tally.counts.items():
                total.counts[kind] = total.counts.get(kind, 0) + count
            findings.extend(lines)
    elapsed = time.perf_counter() - began
    kind = "scenario mutants" if args.scenarios else "mutants"
    print(f"{args.mutants} {kind} {args.first} to {stop - 1} (seed {args.seed}) "
          f"in {elapsed:.0f} s")
    for kind in ("ok", "error", *FINDINGS):
        print(f"  {kind:<10} {total.counts.get(kind, 0):>6}")
    for line in sorted(findings, key=lambda s: int(s.split("mutant ")[1].split()[0]))[:args.show]:
        print(line)


if __name__ == "__main__":
    main()
