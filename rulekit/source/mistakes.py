"""Two YAML mistakes of people who write effect code in YAML, said in their words.

PyYAML reports them in its own terms, and the second one far from where it was made:

- a value that starts with a character YAML reserves (``when: @key in hand``): "found
  character '@' that cannot start any token"; or code that starts with a bracket, which YAML
  reads as a list (``when: [c for c in hand[p]] == []``);
- a line less indented than the lines above it inside a ``do: |`` block: the block ends
  there, and YAML reads the line as something else ("could not find expected ':'" a few lines
  further, or "expected the end of the indented block").

:func:`explain` gives the error at the place of the mistake, or None for any other one.
"""

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
    problem = error.problem or ""
    if mark is not None and "cannot start any token" in problem:
        char = text.splitlines()[mark.line][mark.column:mark.column + 1]
        if char in _RESERVED:
            return YamlSyntaxError(f"a YAML value cannot start with {_RESERVED[char]}",
                                   at(mark.line, mark.column), _QUOTE_HINT)
    start = error.context_mark
    context = error.context or ""
    if start is not None and mark is not None and ("flow sequence" in context or
                                                    "flow mapping" in context):
        line = text.splitlines()[start.line]
        opener = line[start.column:start.column + 1]
        closer = {"[": "]", "{": "}"}.get(opener, "")
        # Code such as '[x for x in xs][0]' or '[c for c in hand[p]]': the list closes and
        # text goes on after it, or a bracket follows a word.
        code = line[start.column:mark.column].rstrip().endswith(closer) or \
            problem.endswith(("got '['", "got '{'"))
        if mark.line != start.line or not closer or not code:
            return None
        what = "list" if opener == "[" else "mapping"
        return YamlSyntaxError(
            f"YAML reads a value that starts with '{opener}' as a {what}, and this code is "
            "not one", at(start.line, start.column), _QUOTE_HINT)
    error_line = mark.line if mark is not None else len(text.splitlines())
    dedented = _dedented_line(text.splitlines(), error_line)
    if dedented is None:
        return None
    line0, header0, indent = dedented
    lines = text.splitlines()
    key = _BLOCK_HEADER.match(lines[header0])
    block = f"{key.group(2).strip()}: {key.group(3)}" if key else "|"
    return YamlSyntaxError(
        f"the block under '{block}' ended early: this line is less indented than the lines "
        "above it",
        at(line0, _indent(lines[line0])),
        f"indent it by {indent} spaces, like the lines of the block")


def _dedented_line(lines: list[str], until: int) -> tuple[int, int, int] | None:
    """The first line (0-based) at or before ``until`` that ends a block of text without
    being YAML that may follow one, with the line of the block's header and the indentation
    of its text."""
    i = 0
    while i < len(lines) and i <= until:
        header = _BLOCK_HEADER.match(lines[i])
        if header is None:
            i += 1
            continue
        key_column = len(header.group(1))
        body = [j for j in range(i + 1, len(lines)) if lines[j].strip()]
        if not body:
            return None
        indent = _indent(lines[body[0]])
        if indent <= key_column:  # an empty block
            i += 1
            continue
        j = body[0]
        while j < len(lines) and (not lines[j].strip() or _indent(lines[j]) >= indent):
            j += 1
        if j >= len(lines) or j > until:
            return None
        if _indent(lines[j]) > key_column or not _YAML_LINE.match(lines[j]):
            return j, i, indent
        i = j
    return None


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))
