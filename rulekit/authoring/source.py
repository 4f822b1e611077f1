"""A loaded pack's sections as written, and the authors' comments.

The rules document shows the sections as the author wrote them, before copies are made.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any

from rulekit.pack.loader import LoadedPack
from rulekit.pack.merge import MergedDocument
from rulekit.source.document import YamlDocument

__all__ = ["CONTENT_SECTIONS", "PackSource"]

CONTENT_SECTIONS = ("cards", "card_types", "map", "zones", "variables", "functions", "procedures",
                    "anytime", "setup", "flow")

_COMMENT_LINE = re.compile(r"^\s*#\s?(.*)$")


class PackSource:
    """The sections of a loaded pack, each with its document."""

    def __init__(self, pack: LoadedPack) -> None:
        self.pack = pack
        self.sections: dict[str, tuple[YamlDocument, Any]] = {}
        content = pack.content
        if content is not None and isinstance(content.data, dict):
            for key in CONTENT_SECTIONS:
                if key in content.data:
                    self.sections[key] = (content, content.data[key])

    def get(self, key: str, default: Any = None) -> Any:
        """The value of section ``key``, or ``default`` if it has none."""
        found = self.sections.get(key)
        return default if found is None or found[1] is None else found[1]

    def comment(self, section: str, path: Sequence[str | int]) -> str:
        """The author's comment for the value at ``(section, *path)``, or ``""``.

        It is the comments above its key, else the comment on its line.
        """
        found = self.sections.get(section)
        if found is None:
            return ""
        doc, full = found[0], (section, *path)
        if isinstance(doc, MergedDocument):  # the file the value was read from
            doc, full = doc.resolve(full)
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
    """The comment at the end of a YAML line, if any."""
    for i in _outside_quotes(line):
        if line[i] == "#" and (i == 0 or line[i - 1] in " \t"):
            return line[i + 1:].strip()
    return ""


def _outside_quotes(line: str) -> Iterator[int]:
    """The positions in ``line`` of characters outside quotes."""
    quote = ""
    for i, char in enumerate(line):
        if quote:
            if char == quote:
                quote = ""
        elif char in "'\"":
            quote = char
        else:
            yield i
