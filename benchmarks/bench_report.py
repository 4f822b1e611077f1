"""What a designer's report costs beside the same simulate run (Car Chase, default bots).

    python benchmarks/bench_report.py [PACK] [--games N] [--repeat R]

Prints the best of R runs of each, as CPU seconds of this process (the least disturbed by
other work on a shared machine):

- the games: ``simulate`` against the traced games of ``make_report`` (the same games, with
  what the report reads collected as they are played) and its figures;
- the page: drawing the four charts and writing the HTML file;
- the commands: ``rulekit simulate`` against ``rulekit report``, whole, in a new process each
  (start, load, games, output), as CPU seconds of the child.

Nothing here is a pass/fail test.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from rulekit.report.collect import make_report
from rulekit.report.page import write_report
from rulekit.sim.simulation import simulate


def best_cpu(repeat: int, work: Callable[[], object]) -> float:
    """The fewest CPU seconds of ``repeat`` runs of ``work``."""
    best = float("inf")
    for _ in range(repeat):
        started = time.process_time()
        work()
        best = min(best, time.process_time() - started)
    return best


def command_cpu(repeat: int, argv: list[str]) -> float:
    """The fewest CPU seconds (user + system) of ``repeat`` runs of a child process."""
    best = float("inf")
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        best = min(best, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pack", nargs="?", default="carchase")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    pack, games, repeat = args.pack, args.games, args.repeat
    simulate(pack, games=10)  # load once: the lark parser's cache, the imports
    plain = best_cpu(repeat, lambda: simulate(pack, games=games, seed=1))
    report = make_report(pack, games=games, seed=1)
    traced = best_cpu(repeat, lambda: make_report(pack, games=games, seed=1))
    with tempfile.TemporaryDirectory() as folder:
        target = Path(folder) / "report.html"
        write_report(report, target)  # matplotlib's import and font cache, once
        page = best_cpu(repeat, lambda: write_report(report, target))
        rulekit = [sys.executable, "-m", "rulekit"]
        run = ["-n", str(games), "--seed", "1", "--quiet"]
        simulate_command = command_cpu(repeat, [*rulekit, "simulate", pack, *run])
        report_command = command_cpu(repeat, [*rulekit, "report", pack, *run, "-o",
                                              str(target)])
    print(f"{pack}, {games} games, best of {repeat} (CPU seconds)")
    print(f"games:    simulate {plain:.3f} s, report {traced:.3f} s: {traced / plain:.2f}x")
    print(f"page:     charts and HTML {page:.3f} s")
    print(f"commands: simulate {simulate_command:.3f} s, report {report_command:.3f} s: "
          f"{report_command / simulate_command:.2f}x")


if __name__ == "__main__":
    main()
