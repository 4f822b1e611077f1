"""Mutants of the shipped packs load to a valid pack or to located errors, never to a traceback
or a hang (see tests/fuzzing.py; benchmarks/fuzz_packs.py runs thousands)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulekit.errors import Location, PackError, PackErrors
from tests.fuzzing import Outcome, _judge, make_mutant, run_mutants

SERIES = {"carchase": 180, "rednotice": 30}


@pytest.mark.slow
@pytest.mark.parametrize("pack", list(SERIES))
def test_mutants_of_a_shipped_pack_end_in_success_or_a_located_error(tmp_path: Path,
                                                                    pack: str) -> None:
    tally, findings = run_mutants(range(SERIES[pack]), tmp_path / "packs", seed=7,
                                  packs=(pack,), decisions=10)
    assert [f"{m.index} {m.file} {m.operator}: {o.kind}: {o.detail}"
            for m, o in findings] == []
    # The series is not trivial: some mutants still load and play, most are refused. (Packs
    # refuse more since rule ids and card properties are checked: 2 of the 30 Red Notice
    # mutants load.)
    assert tally.counts.get("ok", 0) >= SERIES[pack] // 15
    assert tally.counts.get("error", 0) >= SERIES[pack] // 3


def test_mutants_are_the_same_every_time() -> None:
    assert make_mutant(12, 3) == make_mutant(12, 3)
    assert make_mutant(12, 3).text != make_mutant(13, 3).text


def test_an_error_quoting_another_line_is_a_finding(tmp_path: Path) -> None:
    file = tmp_path / "f.yaml"
    file.write_text("a: 1\nb: 2\n", encoding="utf-8")
    good = PackError("bad", Location(str(file), 2, 4, "b: 2"))
    assert _judge(PackErrors([good])) == Outcome("error")
    for wrong in (Location(str(file), 1, 4, "b: 2"), Location(str(file), 2, 9, "b: 2"),
                  Location(str(file), 2, 1, None), None):
        assert _judge(PackErrors([good, PackError("bad", wrong)])).kind == "unlocated"
