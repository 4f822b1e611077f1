"""The one error hierarchy of rulekit; a pack error says its file, line and column."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable
from dataclasses import dataclass

LONGEST_WORD = 160  # characters of one word of a message (a name, a value, a path) shown
_LONG_WORD = re.compile(r"\S{" + str(LONGEST_WORD + 1) + ",}")


def cut(text: str) -> str:
    """``text`` with each over-long word cut in its middle, so that any message reads in a line."""
    def short(word: re.Match[str]) -> str:
        whole = word.group()
        return f"{whole[:120]}…({len(whole) - 160:,} more)…{whole[-40:]}"
    return _LONG_WORD.sub(short, text)


@dataclass(frozen=True, slots=True)
class Location:
    """A position in a pack file, counted from 1."""

    file: str
    line: int
    column: int
    source_line: str | None = None
    origin: str = ""  # "in the base pack ID" for a file a variant inherits

    def replace(self, *, origin: str) -> Location:
        """A copy with another origin."""
        return dataclasses.replace(self, origin=origin)

    @property
    def prefix(self) -> str:
        """``file:line:col: `` and the file's origin, before a message."""
        return f"{self}: {self.origin}: " if self.origin else f"{self}: "

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


class RulekitError(Exception):
    """Base of every error rulekit raises on purpose."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        message = cut(message)
        super().__init__(message)
        self.message = message
        self.hint = None if hint is None else cut(hint)

    def __str__(self) -> str:
        text = self.message
        if self.hint:
            text += f"\nhint: {self.hint}"
        return text


class _Located(RulekitError):
    """An error that may have a location in a pack file."""

    label = ""  # put before the message: "warning: " for a warning
    expand_tabs = True  # in the quoted source line

    def __init__(
        self, message: str, location: Location | None = None, hint: str | None = None
    ) -> None:
        super().__init__(message, hint)
        self.location = location

    def __str__(self) -> str:
        """The message: where, what, the source line with a caret, a hint."""
        loc = self.location
        head = self.label + self.message if loc is None else \
            f"{loc.prefix}{self.label}{self.message}"
        lines = [head]
        if loc is not None and loc.source_line is not None:
            source = loc.source_line.rstrip("\n")
            source = source.expandtabs(1) if self.expand_tabs else source
            column = max(loc.column - 1, 0)
            if len(source) > 2 * LONGEST_WORD:  # the part around the caret
                start = max(0, column - LONGEST_WORD // 2)
                source = ("…" if start else "") + source[start:start + LONGEST_WORD] + "…"
                column -= start - (1 if start else 0)
            lines += ["    " + source, "    " + " " * column + "^"]
        return "\n".join(lines + ([f"hint: {self.hint}"] if self.hint else []))


class PackError(_Located):
    """A mistake in a pack, located in one of its files."""

    kind = "error"


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
    """A well-formed scenario that cannot be set up or played."""


class PackWarning(PackError):
    """Something in a working pack that is probably a mistake."""

    kind = "warning"
    label = "warning: "


class PackNote(PackError):
    """Something in a working pack worth a second look: a side channel, say."""

    kind = "note"
    label = "note: "


class PackErrors(RulekitError):
    """Several pack errors found in one pass, in file order."""

    def __init__(self, errors: Iterable[PackError]) -> None:
        self.errors = sorted(errors, key=_error_order)
        super().__init__(f"{len(self.errors)} error(s) in pack")

    def __reduce__(self) -> tuple[type[PackErrors], tuple[list[PackError]]]:
        """Pickle the errors themselves, so that they cross process boundaries."""
        return (PackErrors, (self.errors,))

    def __str__(self) -> str:
        return "\n".join(str(e) for e in self.errors)


def _error_order(error: PackError) -> tuple[str, int, int]:
    loc = error.location
    return ("", 0, 0) if loc is None else (loc.file, loc.line, loc.column)


class GameRuntimeError(_Located):
    """A pack failed while a game was running, as past the step budget."""

    expand_tabs = False


class IllegalActionError(RulekitError):
    """An action that is not a legal option of the decision."""


class UsageError(RulekitError):
    """A bad command-line argument, parameter value or agent name."""


class SaveFileError(RulekitError):
    """A save file that cannot be read, or is of another pack version."""


def near_name(name: str, candidates: Iterable[str]) -> str | None:
    """The candidate a typo away from ``name``: one edit (two in a long name), not digits alone.

    Names that differ only in their digits (``token_1``, ``token_2``) are siblings, not typos.
    """
    most = 2 if len(name) >= 8 else 1
    digits = str.maketrans("", "", "0123456789")
    near = sorted((_edits(name, c), abs(len(c) - len(name)), c) for c in set(candidates)
                  if c != name and abs(len(c) - len(name)) <= most
                  and c.translate(digits) != name.translate(digits))
    return near[0][2] if near and near[0][0] <= most else None


def _edits(a: str, b: str) -> int:
    """The edit distance of two texts, a swap of two neighbours counting as one edit."""
    rows = [list(range(len(b) + 1))]
    for i, x in enumerate(a, 1):
        row = [i]
        for j, y in enumerate(b, 1):
            best = min(rows[-1][j] + 1, row[j - 1] + 1, rows[-1][j - 1] + (x != y))
            if i > 1 and j > 1 and x == b[j - 2] and a[i - 2] == y:
                best = min(best, rows[-2][j - 2] + 1)
            row.append(best)
        rows.append(row)
    return rows[-1][-1]


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """A 'did you mean' hint for ``name`` among ``candidates``, or None."""
    import difflib  # most commands never need it

    matches = difflib.get_close_matches(name, sorted(set(candidates)), n=1, cutoff=0.6)
    return f"did you mean '{matches[0]}'?" if matches else None
