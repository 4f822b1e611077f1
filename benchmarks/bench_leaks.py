"""The secrecy check of tests/test_secrecy_leaks.py over whole games and many decision points.

    python benchmarks/bench_leaks.py [PACK ...] [--games N] [--share S] [--old-rule]

For each pack: random games, and at each decision point (with probability S) every role's
unseen secrets are replaced and the pending choice asked again; prints the number of points,
comparisons and leaks found, and the time taken. ``--old-rule`` puts back the old behaviour (a
single legal answer taken without asking) to show what the check finds then.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from helpers_leak import any_card, by_type_and_owner, leak_check

from rulekit.engine import vm
from rulekit.pack.loader import load_pack

KINDS = {"carchase": any_card, "rednotice": by_type_and_owner}


def old_rule() -> None:
    forced = vm.forced_answer

    def taken_at_once(spec: dict[str, Any]) -> tuple[bool, Any]:
        spec.pop("ask", None)
        return forced(spec)

    vm.forced_answer = taken_at_once  # type: ignore[assignment]
    vm.Runtime._may_interrupt = lambda self, role: False  # type: ignore[method-assign]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("packs", nargs="*", default=sorted(KINDS))
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--share", type=float, default=0.2)
    parser.add_argument("--old-rule", action="store_true")
    args = parser.parse_args()
    if args.old_rule:
        old_rule()
    for pack in args.packs:
        game = load_pack(pack).game
        started = time.perf_counter()
        report = leak_check(game, games=args.games, kind=KINDS.get(pack, by_type_and_owner),
                            share=args.share)
        took = time.perf_counter() - started
        print(f"{pack}: {report.games} games, {report.points} decision points, "
              f"{report.comparisons} comparisons ({report.altered} with secrets changed), "
              f"{len(report.leaks)} leaks, {took:.1f} s")
        for line in report.leaks[:10]:
            print("   ", line)


if __name__ == "__main__":
    main()
