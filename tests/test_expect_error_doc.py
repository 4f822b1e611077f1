"""What docs/pack-format.md says of ``expect_error`` and of illegal ``play`` answers holds."""

from __future__ import annotations

import re

import pytest
from conftest import PackMaker
from helpers_cli import runner

SCENARIOS = """\
scenarios:
  - name: a refused answer is the expected error
    params: {turns: 1}
    play:
      - {red: "7", blue: "1"}
    expect_error: "no option matches"
    expect: ["points[red] == 5"]          # not evaluated
  - name: a refused answer with another expected error
    params: {turns: 1}
    play:
      - {red: "7", blue: "1"}
    expect_error: "something else"
  - name: a refused answer without expect_error
    params: {turns: 1}
    play:
      - {red: "7", blue: "1"}
  - name: no error comes
    params: {turns: 1}
    play:
      - {red: "3", blue: "1"}
    expect_error: "no option matches"
"""


def test_expect_error_and_illegal_answers_behave_as_documented(
        make_pack: PackMaker, capsys: pytest.CaptureFixture[str]) -> None:
    pack = make_pack(files={"scenarios/duel.yaml": SCENARIOS})
    code, out, _ = runner(capsys)("test", pack)
    assert code == 1
    assert re.findall(r"^(ok  |FAIL) (.*)$", out, re.M) == [
        ("ok  ", "a refused answer is the expected error"),
        ("FAIL", "a refused answer with another expected error"),
        ("FAIL", "a refused answer without expect_error"),
        ("FAIL", "no error comes"),
    ]
    assert "the game failed: no option matches '7'\n" in out
    assert re.search(r"step 1: red: no option matches '7' \(decision: Pick a number; "
                     r"options: 1, 2, 3\)", out)
    assert "expected an error containing 'no option matches', but none came" in out
