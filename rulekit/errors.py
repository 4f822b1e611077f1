"""The one error hierarchy of rulekit.

Every error about a pack carries a :class:`Location` (file, line, column, all 1-based), the
offending source line and, where one can be guessed, a hint. ``str(error)`` is the message a
person reads::

    games/demo/flow.yaml:12:9: unknown zone 'dicard'
        move all from hand[p] to dicard
                                 ^
    hint: did you mean 'discard'?
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


class Location:
    """A position in a pack file; ``line`` and ``column`` count from 1. Immutable, equal when
    its fields are (written out rather than as a dataclass: every command imports this module,
    and the dataclasses module takes longer to import than all the rest of it)."""

    __slots__ = ("column", "file", "line", "origin", "source_line")
    _FIELDS = ("file", "line", "column", "source_line", "origin")  # in order
    file: str
    line: int
    column: int
    source_line: str | None
    origin: str  # "in the base pack ID" for a file a variant inherits

    def __init__(self, file: str, line: int, column: int, source_line: str | None = None,
                 origin: str = "") -> None:
        set_field = object.__setattr__
        set_field(self, "file", file)
        set_field(self, "line", line)
        set_field(self, "column", column)
        set_field(self, "source_line", source_line)
        set_field(self, "origin", origin)

    def _fields(self) -> tuple[str, int, int, str | None, str]:
        return (self.file, self.line, self.column, self.source_line, self.origin)

    def replace(self, **changes: Any) -> Location:
        """A copy with some fields changed."""
        values: dict[str, Any] = dict(zip(self._FIELDS, self._fields(), strict=True))
        values.update(changes)
        return Location(**values)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"cannot assign to field '{name}': a Location does not change")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field '{name}': a Location does not change")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Location:
            return NotImplemented
        assert isinstance(other, Location)
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __reduce__(self) -> tuple[type[Location], tuple[str, int, int, str | None, str]]:
        return (Location, self._fields())

    def __repr__(self) -> str:
        return "Location(" + ", ".join(f"{name}={value!r}" for name, value in zip(
            self._FIELDS, self._fields(), strict=True)) + ")"

    @property
    def prefix(self) -> str:
        """``file:line:col: `` and the origin of the file, if any, to put before a message."""
        return f"{self}: {self.origin}: " if self.origin else f"{self}: "

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


class RulekitError(Exception):
    """Base of every error rulekit raises on purpose."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        text = self.message
        if self.hint:
            text += f"\nhint: {self.hint}"
        return text


class PackError(RulekitError):
    """A mistake in a pack, located in one of its files."""

    kind = "error"
    label = ""  # put before the message: "warning: " for a warning

    def __init__(
        self, message: str, location: Location | None = None, hint: str | None = None
    ) -> None:
        super().__init__(message, hint)
        self.location = location

    def __str__(self) -> str:
        loc = self.location
        head = self.label + self.message if loc is None else \
            f"{loc.prefix}{self.label}{self.message}"
        lines = [head]
        if loc is not None and loc.source_line is not None:
            src = loc.source_line.rstrip("\n").expandtabs(1)
            lines.append("    " + src)
            lines.append("    " + " " * max(loc.column - 1, 0) + "^")
        if self.hint:
            lines.append(f"hint: {self.hint}")
        return "\n".join(lines)


class YamlSyntaxError(PackError):
    """The YAML text of a pack file cannot be parsed."""


class DuplicateKeyError(PackError):
    """A YAML mapping has the same key twice."""


class SchemaError(PackError):
    """A pack file does not match its JSON Schema."""


class PackFileError(PackError):
    """A pack folder or one of its files is missing or unreadable."""


class EffectSyntaxError(PackError):
    """Effect-language text that does not parse."""


class EffectCheckError(PackError):
    """Effect-language text that parses but names something unknown or mistypes it."""


class ScenarioError(PackError):
    """A scenario file that is well-formed but cannot be set up or played."""


class PackWarning(PackError):
    """Something in a pack that is probably a mistake, though the pack works (a lint)."""

    kind = "warning"
    label = "warning: "


class PackErrors(RulekitError):
    """Several pack errors found in one pass; ``errors`` keeps them in file order."""

    def __init__(self, errors: Iterable[PackError]) -> None:
        self.errors = sorted(errors, key=_error_order)
        super().__init__(f"{len(self.errors)} error(s) in pack")

    def __reduce__(self) -> tuple[type[PackErrors], tuple[list[PackError]]]:
        return (PackErrors, (self.errors,))  # so errors cross process boundaries

    def __str__(self) -> str:
        return "\n".join(str(e) for e in self.errors)


def _error_order(error: PackError) -> tuple[str, int, int]:
    loc = error.location
    return ("", 0, 0) if loc is None else (loc.file, loc.line, loc.column)


class GameRuntimeError(RulekitError):
    """A pack failed while a game was running (for example it looped past the step budget)."""

    def __init__(
        self, message: str, location: Location | None = None, hint: str | None = None
    ) -> None:
        super().__init__(message, hint)
        self.location = location

    def __str__(self) -> str:
        text = f"{self.location.prefix}{self.message}" if self.location else self.message
        if self.location is not None and self.location.source_line is not None:
            src = self.location.source_line.rstrip("\n")
            text += "\n    " + src + "\n    " + " " * max(self.location.column - 1, 0) + "^"
        if self.hint:
            text += f"\nhint: {self.hint}"
        return text


class IllegalActionError(RulekitError):
    """An action that is not among the legal options of the pending decision."""


class UsageError(RulekitError):
    """A bad command-line argument, parameter value or agent name."""


class SaveFileError(RulekitError):
    """A save or replay file that cannot be read or belongs to another pack version."""


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """A 'did you mean' hint for ``name`` among ``candidates``, or None."""
    import difflib  # here: most commands never need it, and it is slow to import

    matches = difflib.get_close_matches(name, sorted(set(candidates)), n=1, cutoff=0.6)
    return f"did you mean '{matches[0]}'?" if matches else None
