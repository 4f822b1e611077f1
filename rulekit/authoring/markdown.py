"""Small builders of Markdown text: tables, code blocks, inline code, escaping."""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["cell", "code", "fenced", "table"]


def cell(value: object) -> str:
    """``value`` as a table cell: one line, pipes escaped."""
    text = "" if value is None else str(value)
    return " ".join(text.split()).replace("|", "\\|")


def code(text: object) -> str:
    """``text`` as inline code, fenced by enough backticks."""
    value = " ".join(str(text).split())
    runs = [len(run) for run in re.findall(r"`+", value)]
    fence = "`" * (max(runs, default=0) + 1)
    pad = " " if value.startswith("`") or value.endswith("`") else ""
    return f"{fence}{pad}{value}{pad}{fence}"


def fenced(text: str, info: str = "") -> str:
    """``text`` as a fenced code block, fenced by enough backticks."""
    runs = [len(run) for run in re.findall(r"`{3,}", text)]
    fence = "`" * max(3, max(runs, default=0) + 1)
    return f"{fence}{info}\n{text.rstrip()}\n{fence}"


def table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A Markdown table; every value goes through :func:`cell`."""
    lines = ["| " + " | ".join(cell(h) for h in header) + " |",
             "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)
