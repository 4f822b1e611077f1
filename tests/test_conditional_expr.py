"""``a if c else b``: the conditional expression, checked and run as a designer expects."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulekit.pack.loader import load_pack
from tests.helpers_lang import content, load_errors, locate, logs, run


@pytest.mark.parametrize(("code", "expected"), [
    ('log "{1 if score > 1 else 0}"', "1"),
    ('log "{1 if score > 5 else 0}"', "0"),
    ("log \"{'a' if false else 'b' if true else 'c'}\"", "b"),  # nests to the right
    ('log "{[x if x > 2 else 0 for x in [1, 3] if x < 9]}"', "0, 3"),
    ('let y = 4\nif y > 2 {\n  total = 1 if y > 3 else 2\n}\nlog "{total}"', "1"),
    ('log "{1 + (2 if score == 2 else 3) * 2}"', "5"),
    ('let c = @c1 if score > 9 else none\nlog "{c == none}"', "true"),
])
def test_a_conditional_expression_gives_one_of_its_values(tmp_path: Path, code: str,
                                                          expected: str) -> None:
    game, state = run(tmp_path, content(phases={"main": code}))
    assert logs(game, state) == [expected]


def test_a_conditional_with_values_of_two_types_is_a_located_error(tmp_path: Path) -> None:
    text = content(phases={"main": 'total = 1 if score > 1 else "two"'})
    [error] = load_errors(tmp_path, text)
    assert (error.location.line, error.location.column) == locate(text, "1 if")
    assert error.message == ("the two values of this 'if ... else' differ: an integer and a "
                             "text")
    assert error.hint == "give both the same type"


def test_a_conditional_tests_a_condition(tmp_path: Path) -> None:
    text = content(phases={"main": "total = 1 if score else 2"})
    [error] = load_errors(tmp_path, text)
    assert (error.location.line, error.location.column) == locate(text, "score else")


def test_the_shipped_evaluations_read_plainly() -> None:
    for pack in ("carchase", "rednotice"):
        assert "for x in [1] if" not in str(load_pack(pack).content.data["flow"]["evaluate"])
