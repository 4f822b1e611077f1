"""Print how long loading and validating packs takes: the shipped packs and their example
variants (which read their base's files too), each loaded in a fresh process state.

    python benchmarks/bench_load.py [REPEATS]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from rulekit.lint import lint_pack
from rulekit.pack.loader import load_pack
from rulekit.scenariocheck import check_scenarios
from rulekit.scenarios import load_scenarios

ROOT = Path(__file__).resolve().parent.parent
PACKS = ["carchase", "rednotice", str(ROOT / "docs/examples/carchase-nine"),
         str(ROOT / "docs/examples/rednotice-tour")]


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    print(f"{'pack':<16} {'load':>9} {'validate':>9}   (best of {repeats})")
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


if __name__ == "__main__":
    main()
