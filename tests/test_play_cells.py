"""Cells on lines (rulekit.play.wrapping.Cells): a line breaks only between two cells, and a list
broken after "a," keeps its comma, so that "Cairo / Lagos" never reads as one name."""

from __future__ import annotations

import io

from rich.console import Console
from rich.text import Text

from rulekit.play.wrapping import Cells


def lines_of(cells: Cells, width: int) -> list[str]:
    console = Console(width=width, no_color=True, record=True, file=io.StringIO())
    console.print(cells)
    return console.export_text().rstrip("\n").split("\n")


def test_a_broken_list_keeps_its_separators_and_never_breaks_a_name() -> None:
    names = ["Casablanca", "Cairo", "Lagos", "Nairobi", "Cape Town", "Rio de Janeiro"]
    separators = ["; ", ", ", ", ", ", ", ", ", "; "]
    cells = Cells([Text(name) for name in names], Text("X may be in "), separators=separators)
    for width in (24, 30, 40, 80):
        lines = lines_of(cells, width)
        assert all(len(line) <= width for line in lines), lines
        flat = " ".join(line.strip() for line in lines)
        assert flat == "X may be in Casablanca, Cairo, Lagos, Nairobi, Cape Town; Rio de Janeiro"
        assert (len(lines) > 1) == (width < 75)


def test_a_dot_separator_is_not_carried_to_the_end_of_a_line() -> None:
    cells = Cells([Text(word) for word in ["Security 2 of 4", "Identities 2", "Captures 0"]])
    lines = lines_of(cells, 24)
    assert len(lines) == 3 and not any(line.rstrip().endswith("·") for line in lines), lines
