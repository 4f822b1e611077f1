"""Print how long parsing the code of the shipped packs takes.

    python benchmarks/bench_parse.py [REPEATS]

The code is every piece that ``rulekit validate carchase rednotice`` parses, recorded during
one such run in this process. Printed: the time to build lark's parser from the grammar, and
the time of one pass over all that code; the minimum and the median of the wall time and of the
CPU time, which a busy machine disturbs less.
"""

from __future__ import annotations

import contextlib
import io
import os
import statistics
import sys
import time
from collections.abc import Callable

import rulekit.lang.parser as parser
from rulekit.cli import main as rulekit_main


def recorded() -> list[tuple[parser.Snippet, str]]:
    """Each snippet ``validate`` parses, with its rule (not the ``{...}`` parts of log texts)."""
    calls: list[tuple[parser.Snippet, str]] = []
    depth = 0
    parse = parser._parse

    def recording(snippet: parser.Snippet, start: str) -> object:
        nonlocal depth
        if depth == 0:
            calls.append((snippet, start))
        depth += 1
        try:
            return parse(snippet, start)
        finally:
            depth -= 1

    parser._parse = recording
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            rulekit_main(["validate", "carchase", "rednotice", "--no-cache"])
    finally:
        parser._parse = parse
    return calls


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 9
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    calls = recorded()
    texts = {snippet.text for snippet, _ in calls}
    print(f"{len(calls)} pieces of code ({len(texts)} different texts, "
          f"{sum(len(snippet.text) for snippet, _ in calls):,} characters)")
    builds = []
    for _ in range(repeats):
        parser._lark.cache_clear()
        builds.append(timed(parser._lark))
    passes = [timed(lambda: [parser._parse(s, rule) for s, rule in calls]) for _ in range(repeats)]
    print(f"{'ms: wall, cpu':<18} {'min':>6} {'median':>7}  {'min':>6} {'median':>7}   "
          f"({repeats} runs)")
    for name, times in (("build the parser", builds), ("parse it all", passes)):
        wall = [t[0] * 1000 for t in times]
        cpu = [t[1] * 1000 for t in times]
        print(f"{name:<18} {min(wall):6.1f} {statistics.median(wall):7.1f}  "
              f"{min(cpu):6.1f} {statistics.median(cpu):7.1f}")


def timed(work: Callable[[], object]) -> tuple[float, float]:
    """Wall and CPU seconds of one call of ``work``."""
    wall, cpu = time.perf_counter(), time.process_time()
    work()
    return time.perf_counter() - wall, time.process_time() - cpu


if __name__ == "__main__":
    main()
