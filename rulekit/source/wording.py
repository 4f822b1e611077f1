"""How schema messages say values, types and patterns, in an author's words."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from rulekit.source.document import JsonPath, YamlDocument

TYPE_NAMES = {
    "string": "text",
    "integer": "an integer",
    "number": "a number",
    "boolean": "true/false",
    "array": "a list",
    "object": "a mapping",
    "null": "null",
}

# What the patterns of the schemas mean, for schemas without a patternErrorMessage.
_PATTERN_MEANINGS = {
    "^[a-z][a-z0-9_-]*$": "use lower-case letters, digits, '_' and '-', starting with a letter",
    "^[A-Za-z_][A-Za-z0-9_]*$": "use letters, digits and '_', not starting with a digit",
}

_SHOWN_LIMIT = 40  # longest text quoted in full in a message


def either(items: Iterable[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``: each item once."""
    names = list(dict.fromkeys(items))
    if len(names) <= 1:
        return names[0] if names else "something else"
    return ", ".join(names[:-1]) + " or " + names[-1]


def cut(text: str) -> str:
    """A text on one line, cut short if it is long."""
    text = text.replace("\n", "\\n")
    return text if len(text) <= _SHOWN_LIMIT else text[: _SHOWN_LIMIT - 3] + "..."


def plain(value: object) -> str:
    """A value as written in YAML, unquoted (``public``, ``3``, ``true``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return "null" if value is None else str(value)


def shown(value: object) -> str:
    """A value quoted for a message: ``'secret'``, ``3``, ``true``, ``a list``."""
    if isinstance(value, str):
        return f"'{cut(value)}'"
    if isinstance(value, bool) or value is None:
        return plain(value)
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, list):
        return "a list"
    return "a mapping" if isinstance(value, dict) else repr(value)


def got(value: object, doc: YamlDocument, path: JsonPath) -> str:
    """What a value is, for "expected X, got Y" messages."""
    raw = doc.raw_text(path)
    if isinstance(value, str):
        return f"text '{cut(value)}'"
    if isinstance(value, bool):
        return _got_bool(value, raw)
    if value is None:
        return _got_null(raw, path)
    if isinstance(value, int | float):
        return f"the number {raw if raw else value}"
    return _got_collection(value)


def _got_collection(value: object) -> str:
    """A list or a mapping, saying whether it is empty."""
    kind = "list" if isinstance(value, list) else "mapping"
    return f"a {kind}" if value else f"an empty {kind}"


def _got_bool(value: bool, raw: str | None) -> str:
    written = plain(value)
    if raw is not None and raw.lower() != written:
        return f"'{raw}', which YAML reads as {written}"
    return written


def _got_null(raw: str | None, path: JsonPath) -> str:
    if raw:
        return f"'{raw}', which YAML reads as null"
    return "nothing" if path else "nothing (the file is empty)"


def type_hint(types: Sequence[str], value: object, doc: YamlDocument,
              path: JsonPath) -> str | None:
    """How to write a value of the expected ``types``, for common slips."""
    raw = doc.raw_text(path)
    hint = _text_hint(value, raw) if "string" in types else None
    if hint is None and "array" in types and isinstance(value, str):
        hint = f"write a list: [{value}]" if "\n" not in value else "write a list: [a, b]"
    return hint


def _text_hint(value: object, raw: str | None) -> str | None:
    """How to write text where YAML read something else."""
    if isinstance(value, bool | int | float) and raw:
        return f'put it in quotes to make it text: "{raw}"'
    if value is None and not raw:
        return "the value is empty"
    return None


def pattern_message(schema: Mapping[str, object], value: str,
                    default_noun: str) -> tuple[str, str | None]:
    """The message and hint for a text that breaks its ``pattern``."""
    noun = str(schema.get("title") or default_noun)
    pattern = str(schema.get("pattern", ""))
    meaning = schema.get("patternErrorMessage") or _PATTERN_MEANINGS.get(pattern)
    if not meaning:
        meaning = f"it must match the pattern {pattern}"
    fixed = _suggest_fix(value, pattern)
    hint = f"try '{fixed}'" if fixed is not None else None
    return f"invalid {noun} '{cut(value)}': {meaning}", hint


def _suggest_fix(value: str, pattern: str) -> str | None:
    """An obvious spelling of ``value`` that matches ``pattern``, if any."""
    try:
        compiled = re.compile(pattern)
    except re.error:
        return None
    underscored = re.sub(r"[^A-Za-z0-9_]+", "_", value.strip()).strip("_")
    candidates = (value.lower(), underscored, underscored.lower())
    return next((candidate for candidate in candidates
                 if candidate and candidate != value and compiled.search(candidate)), None)
