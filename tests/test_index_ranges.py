"""A written index outside a ``per: N`` zone or variable is found at load, where it is written."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers_lang import BASE, content, load_errors, locate

HELD = BASE.replace("variables:\n", "variables:\n  watch_at: {per: 2, initial: 0}\n").replace(
    "zones:\n", "zones:\n  row: {per: 2, visibility: public}\n")


@pytest.mark.parametrize(("code", "written", "name"), [
    ("total = watch_at[3]", "3]", "watch_at"),
    ("watch_at[0] = 1", "0]", "watch_at"),
    ("total = count(row[-1])", "-1]", "row"),
])
def test_an_index_out_of_range_is_a_located_error(tmp_path: Path, code: str, written: str,
                                                  name: str) -> None:
    text = content(phases={"main": f"total = watch_at[1] + count(row[2])\n{code}"}, base=HELD)
    [error] = load_errors(tmp_path, text)
    value = written[:-1]
    line, column = locate(text, f"[{written}")
    assert (error.location.line, error.location.column) == (line, column + 1)
    assert error.message == (f"{name}[{value}] does not exist: '{name}' has per: 2, so its "
                             "indexes are 1 to 2")
    assert error.hint == f"write {name}[1] to {name}[2]"
