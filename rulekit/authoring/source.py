"""A loaded pack's sections as written, and the comments authors put next to them.

The rules document shows what the author wrote: the sections of the content files (``cards``,
``flow``...) with copies not yet expanded, and the YAML comments beside a declaration (on its
line) or above it (the lines just before its key), which are the pack's prose.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from rulekit.pack.loader import LoadedPack
from rulekit.pack.merge import MergedDocument
from rulekit.source.document import YamlDocument

__all__ = ["CONTENT_SECTIONS", "PackSource"]

CONTENT_SECTIONS = ("cards", "map", "zones", "variables", "functions", "procedures",
                    "anytime", "setup", "flow")

_COMMENT_LINE = re.compile(r"^\s*#\s?(.*)$")


class PackSource:
    """The sections of a loaded pack, each with the document it was read from."""

    def __init__(self, pack: LoadedPack) -> None:
        self.pack = pack
        self.sections: dict[str, tuple[YamlDocument, Any]] = {}
        content = pack.content
        if content is not None and isinstance(content.data, dict):
            for key in CONTENT_SECTIONS:
                if key in content.data:
                    self.sections[key] = (content, content.data[key])

    def get(self, key: str, default: Any = None) -> Any:
        """The value of section ``key`` (``default`` if the pack has none)."""
        found = self.sections.get(key)
        return default if found is None or found[1] is None else found[1]

    def comment(self, section: str, path: Sequence[str | int]) -> str:
        """The author's comment for the value at ``(section, *path)``: the comment lines just
        above its key, else the comment at the end of its line; ``""`` if there is none."""
        found = self.sections.get(section)
        if found is None:
            return ""
        doc, full = found[0], (section, *path)
        if isinstance(doc, MergedDocument):  # the file the value was read from
            doc, full = doc.resolve(full)
        if not doc.has_path(full):
            return ""
        line = doc.key_location(full).line
        above: list[str] = []
        number = line - 1
        while (text := doc.source_line(number)) is not None and (
                match := _COMMENT_LINE.match(text)) and not text.lstrip().startswith("# ---"):
            above.insert(0, match.group(1).strip())
            number -= 1
        if above:
            return " ".join(above)
        return trailing_comment(doc.source_line(line) or "")


def trailing_comment(line: str) -> str:
    """The comment at the end of a YAML line (a ``#`` after a space, outside quotes)."""
    quote = ""
    for i, char in enumerate(line):
        if quote:
            if char == quote:
                quote = ""
        elif char in "'\"":
            quote = char
        elif char == "#" and (i == 0 or line[i - 1] in " \t"):
            return line[i + 1:].strip()
    return ""
