"""A loaded pack's sections as written, and the authors' comments.

The rules document shows the sections as the author wrote them, before copies are made.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from rulekit.pack.loader import LoadedPack
from rulekit.source.document import YamlDocument

__all__ = ["PackSource"]

_COMMENT_LINE = re.compile(r"^\s*#\s?(.*)$")


class PackSource:
    """The merged sections of a loaded pack, and the comments their authors wrote."""

    def __init__(self, pack: LoadedPack) -> None:
        self.content = pack.content
        data = None if self.content is None else self.content.data
        self.data: dict[str, Any] = data if isinstance(data, dict) else {}

    def get(self, key: str, default: Any = None) -> Any:
        """The value of section ``key``, or ``default`` if it has none."""
        value = self.data.get(key)
        return default if value is None else value

    def comment(self, section: str, path: Sequence[str | int]) -> str:
        """The author's comment for the value at ``(section, *path)``, or ``""``.

        It is the comments above its key, else the comment on its line.
        """
        if self.content is None:
            return ""
        doc, full = self.content.resolve((section, *path))  # the file it was read from
        if not doc.has_path(full):
            return ""
        line = doc.key_location(full).line
        above = _comments_above(doc, line)
        if above:
            return " ".join(above)
        return trailing_comment(doc.source_line(line) or "")


def _comments_above(doc: YamlDocument, line: int) -> list[str]:
    """The comments just above ``line``, up to a ``# ---`` rule."""
    found: list[str] = []
    number = line - 1
    while (text := doc.source_line(number)) is not None and (
            match := _COMMENT_LINE.match(text)) and not text.lstrip().startswith("# ---"):
        found.insert(0, match.group(1).strip())
        number -= 1
    return found


def trailing_comment(line: str) -> str:
    """The comment at the end of a YAML line, if any: a ``#`` outside quotes, after a space."""
    quote = ""
    for i, char in enumerate(line):
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and (i == 0 or line[i - 1] in " \t"):
            return line[i + 1:].strip()
    return ""
