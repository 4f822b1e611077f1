"""A piece of effect code from a pack file, and where it is in the file."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from rulekit.errors import Location


class Position(Protocol):
    """A line and a column (1-based) inside a snippet's text."""

    @property
    def line(self) -> int: ...

    @property
    def column(self) -> int: ...


@dataclass(frozen=True)
class Snippet:
    """A piece of effect text, and how to find its places in the file."""

    text: str
    locate: Callable[[int, int], Location]

    def location(self, pos: Position) -> Location:
        """Where ``pos`` of the text is in the file."""
        return self.locate(pos.line, pos.column)

