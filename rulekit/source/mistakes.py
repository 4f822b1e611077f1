"""Two YAML mistakes of code authors: a value starting with ``@`` or a bracket; a dedented line."""

from __future__ import annotations

import re
from collections.abc import Callable

import yaml

from rulekit.errors import Location, YamlSyntaxError

# A key whose value is a block of text: ``do: |``, ``- when: >-``, with a comment perhaps.
_BLOCK_HEADER = re.compile(r"^(\s*(?:-\s+)*)([^\s#:][^:#]*):\s*([|>])[-+0-9]*\s*(#.*)?$")
# A line that may end a block of text as YAML means it to: a key, a list item, a comment.
_YAML_LINE = re.compile(r"^\s*(#|-(\s|$)|[^\s#'\"{\[][^:]*:(\s|$)|\.\.\.|---)")

_RESERVED = {"@": "'@'", "`": "'`'", "%": "'%'"}
_QUOTE_HINT = ("put the code in quotes (key: \"@id in hand\"), or write it on the next lines "
               "after 'key: |'")


def explain(text: str, error: yaml.MarkedYAMLError,
            at: Callable[[int, int], Location]) -> YamlSyntaxError | None:
    """A better-placed error for ``error`` in ``text`` (``at`` locates 0-based positions)."""
    mark = error.problem_mark or error.context_mark
    reserved = _reserved_start(text, error, mark, at)
    if reserved is not None:
        return reserved
    if error.context_mark is not None and mark is not None and _in_brackets(error):
        return _code_in_brackets(text, error, error.context_mark, mark, at)
    return _ended_block(text, mark, at)


def _in_brackets(error: yaml.MarkedYAMLError) -> bool:
    """Whether the mistake is inside a ``[...]`` list or a ``{...}`` mapping."""
    context = error.context or ""
    return "flow sequence" in context or "flow mapping" in context


def _reserved_start(text: str, error: yaml.MarkedYAMLError, mark: yaml.Mark | None,
                    at: Callable[[int, int], Location]) -> YamlSyntaxError | None:
    """A value that starts with a reserved character, such as ``@``."""
    if mark is None or "cannot start any token" not in (error.problem or ""):
        return None
    char = text.splitlines()[mark.line][mark.column:mark.column + 1]
    if char not in _RESERVED:
        return None
    return YamlSyntaxError(f"a YAML value cannot start with {_RESERVED[char]}",
                           at(mark.line, mark.column), _QUOTE_HINT)


def _code_in_brackets(text: str, error: yaml.MarkedYAMLError, start: yaml.Mark,
                      mark: yaml.Mark, at: Callable[[int, int], Location]
                      ) -> YamlSyntaxError | None:
    """Code that starts with a bracket: YAML reads a list or a mapping."""
    line = text.splitlines()[start.line]
    opener = line[start.column:start.column + 1]
    closer = {"[": "]", "{": "}"}.get(opener, "")
    # Code such as '[x for x in xs][0]' or '[c for c in hand[p]]': the list closes and
    # text goes on after it, or a bracket follows a word.
    code = line[start.column:mark.column].rstrip().endswith(closer) or \
        (error.problem or "").endswith(("got '['", "got '{'"))
    if mark.line != start.line or not closer or not code:
        return None
    what = "list" if opener == "[" else "mapping"
    return YamlSyntaxError(
        f"YAML reads a value that starts with '{opener}' as a {what}, and this code is "
        "not one", at(start.line, start.column), _QUOTE_HINT)


def _ended_block(text: str, mark: yaml.Mark | None,
                 at: Callable[[int, int], Location]) -> YamlSyntaxError | None:
    """A line less indented than its block of text."""
    lines = text.splitlines()
    dedented = _dedented_line(lines, mark.line if mark is not None else len(lines))
    if dedented is None:
        return None
    line0, header0, indent = dedented
    key = _BLOCK_HEADER.match(lines[header0])
    block = f"{key.group(2).strip()}: {key.group(3)}" if key else "|"
    return YamlSyntaxError(
        f"the block under '{block}' ended early: this line is less indented than the lines "
        "above it",
        at(line0, _indent(lines[line0])),
        f"indent it by {indent} spaces, like the lines of the block")


def _dedented_line(lines: list[str], until: int) -> tuple[int, int, int] | None:
    """The first line up to ``until`` that ends a block too early, its header and indent."""
    i = 0
    while i < len(lines) and i <= until:
        header = _BLOCK_HEADER.match(lines[i])
        if header is None:
            i += 1
            continue
        key_column = len(header.group(1))
        first = next((j for j in range(i + 1, len(lines)) if lines[j].strip()), None)
        if first is None:
            return None
        indent = _indent(lines[first])
        if indent <= key_column:  # an empty block
            i += 1
            continue
        end = _block_end(lines, first, indent)
        if end > min(until, len(lines) - 1):
            return None
        if _indent(lines[end]) > key_column or not _YAML_LINE.match(lines[end]):
            return end, i, indent
        i = end
    return None


def _block_end(lines: list[str], first: int, indent: int) -> int:
    j = first
    while j < len(lines) and (not lines[j].strip() or _indent(lines[j]) >= indent):
        j += 1
    return j


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))
