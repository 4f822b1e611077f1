"""What a designer's report costs beside the same simulate run (Car Chase, default bots).

    python benchmarks/bench_report.py [PACK] [--games N] [--repeat R]

Runs each pair R times, interleaved (simulate, then the report), and prints the medians, as
CPU seconds (the least disturbed by other work on a shared machine), with the load average:

- the games: ``simulate`` against the traced games of ``make_report`` (the same games, with
  what the report reads collected as they are played) and its figures;
- the page: drawing the four charts and writing the HTML file;
- the commands: ``rulekit simulate`` against ``rulekit report``, whole, in a new process each
  (start, load, games, output), as CPU seconds of the child.

Nothing here is a pass/fail test.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from rulekit.report.collect import make_report
from rulekit.report.page import write_report
from rulekit.sim.simulation import simulate


def cpu(work: Callable[[], object]) -> float:
    """The CPU seconds of one run of ``work``."""
    started = time.process_time()
    work()
    return time.process_time() - started


def command_cpu(argv: list[str]) -> float:
    """The CPU seconds (user + system) of one run of a child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def pairs(repeat: int, first: Callable[[], float], second: Callable[[], float]) -> str:
    """Run both ``repeat`` times, interleaved: their medians and the median of the ratios."""
    runs = [(first(), second()) for _ in range(repeat)]
    a, b = (statistics.median(side) for side in zip(*runs, strict=True))
    ratio = statistics.median(y / x for x, y in runs)
    return f"simulate {a:.3f} s, report {b:.3f} s: {ratio:.2f}x"


def load() -> str:
    return "load average " + " ".join(f"{value:.2f}" for value in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pack", nargs="?", default="carchase")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    pack, games, repeat = args.pack, args.games, args.repeat
    print(f"{pack}, {games} games, medians of {repeat} interleaved pairs (CPU seconds); "
          f"{load()}")
    simulate(pack, games=10)  # load once: the lark parser's cache, the imports
    print("games:   ", pairs(repeat, lambda: cpu(lambda: simulate(pack, games=games, seed=1)),
                             lambda: cpu(lambda: make_report(pack, games=games, seed=1))))
    report = make_report(pack, games=games, seed=1)
    with tempfile.TemporaryDirectory() as folder:
        target = Path(folder) / "report.html"
        write_report(report, target)  # the charting library's import, once
        page = statistics.median(cpu(lambda: write_report(report, target))
                                 for _ in range(repeat))
        print(f"page:     charts and HTML {page:.3f} s")
        rulekit = [sys.executable, "-m", "rulekit"]
        run = ["-n", str(games), "--seed", "1", "--quiet"]
        print("commands:", pairs(
            repeat, lambda: command_cpu([*rulekit, "simulate", pack, *run]),
            lambda: command_cpu([*rulekit, "report", pack, *run, "-o", str(target)])))
    print(load())


if __name__ == "__main__":
    main()
