"""Check loaded pack files against the JSON Schemas of ``schemas/``, with messages for people.

Every jsonschema error becomes a :class:`~rulekit.errors.SchemaError` located in the YAML file:
an unknown key is reported at that key (with a "did you mean" hint), a wrong value at the value,
a missing key at the mapping that lacks it. For ``anyOf``/``oneOf`` the alternative the value
was most likely meant to match is reported.

Two extra keywords of the schemas (ignored by validators, understood by editors such as VS Code)
are used for messages: ``patternErrorMessage`` says what a ``pattern`` means, and
``errorMessage`` replaces the message of a failing subschema.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from jsonschema import Draft202012Validator  # type: ignore[import-untyped, unused-ignore]
from jsonschema.exceptions import (  # type: ignore[import-untyped, unused-ignore]
    ValidationError,
    best_match,
)

from rulekit.errors import Location, SchemaError, did_you_mean
from rulekit.source.datafiles import data_dir
from rulekit.source.document import JsonPath, YamlDocument

__all__ = ["SCHEMA_DIR", "load_schema", "validate_document"]

# What the patterns of the schemas mean, for schemas without a patternErrorMessage.
_PATTERN_MEANINGS = {
    "^[a-z][a-z0-9_-]*$": "use lower-case letters, digits, '_' and '-', starting with a letter",
    "^[A-Za-z_][A-Za-z0-9_]*$": "use letters, digits and '_', not starting with a digit",
}

_TYPE_NAMES = {
    "string": "text",
    "integer": "an integer",
    "number": "a number",
    "boolean": "true/false",
    "array": "a list",
    "object": "a mapping",
    "null": "null",
}

_SHOWN_LIMIT = 40  # longest text quoted in full in a message


SCHEMA_DIR = data_dir("schemas")


@functools.cache
def load_schema(name: str) -> dict[str, Any]:
    """The JSON Schema ``name`` of ``schemas/`` (``"pack"`` or ``"pack.schema.json"``)."""
    file = SCHEMA_DIR / (name if name.endswith(".json")
                         else f"{name.removesuffix('.schema')}.schema.json")
    try:
        schema = json.loads(file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        known = sorted(p.name for p in SCHEMA_DIR.glob("*.schema.json"))
        raise ValueError(f"no schema {name!r} in {SCHEMA_DIR} (known: {known})") from None
    if not isinstance(schema, dict):
        raise ValueError(f"{file} does not hold a JSON Schema object")
    return schema


@functools.cache
def _validator(name: str) -> Draft202012Validator:
    """The validator of schema ``name``, made once per process."""
    return Draft202012Validator(load_schema(name))


def validate_document(doc: YamlDocument, schema_name: str) -> list[SchemaError]:
    """Every way ``doc`` breaks schema ``schema_name``, in file order (empty if none)."""
    findings = [finding for error in _validator(schema_name).iter_errors(doc.data)
                for finding in _explain(error, doc)]
    return _finish(findings)


# -- findings -------------------------------------------------------------------------------


@dataclass
class _Finding:
    location: Location
    message: str
    hint: str | None = None
    # For merging "missing required key" findings of one mapping and dropping them when an
    # unknown key of the same mapping is obviously the missing one misspelled.
    path: JsonPath = ()
    missing: str | None = None
    unknown: str | None = None
    noun: str = ""
    description: str | None = None


def _finish(findings: list[_Finding]) -> list[SchemaError]:
    unknown_keys: dict[JsonPath, list[str]] = {}
    for finding in findings:
        if finding.unknown is not None:
            unknown_keys.setdefault(finding.path, []).append(finding.unknown)

    missing: dict[JsonPath, list[_Finding]] = {}
    result: list[_Finding] = []
    for finding in findings:
        if finding.missing is None:
            result.append(finding)
            continue
        typos = unknown_keys.get(finding.path, [])
        if any(did_you_mean(typo, [finding.missing]) for typo in typos):
            continue  # "unknown key 'dso' ... did you mean 'do'?" already says it
        group = missing.setdefault(finding.path, [])
        if all(f.missing != finding.missing for f in group):
            group.append(finding)
    for group in missing.values():
        first = group[0]
        names = [f"'{f.missing}'" for f in group]
        if len(names) == 1:
            first.message = f"missing required key {names[0]} in {first.noun}"
            if first.description:
                first.hint = f"{names[0]}: {first.description}"
        else:
            listed = ", ".join(names[:-1]) + " and " + names[-1]
            first.message = f"missing required keys {listed} in {first.noun}"
        result.append(first)

    seen: set[tuple[int, int, str]] = set()
    unique: list[_Finding] = []
    for finding in result:
        key = (finding.location.line, finding.location.column, finding.message)
        if key not in seen:
            seen.add(key)
            unique.append(finding)
    unique.sort(key=lambda f: (f.location.line, f.location.column))
    return [SchemaError(f.message, f.location, f.hint) for f in unique]


def _expected(error: ValidationError) -> Any:
    """The value of the failing keyword (typed loosely, as with or without jsonschema stubs)."""
    return error.validator_value


def _instance(error: ValidationError) -> Any:
    """The value that failed."""
    return error.instance


def _explain(error: ValidationError, doc: YamlDocument) -> list[_Finding]:
    """The findings that describe one jsonschema error (and its context)."""
    path: JsonPath = tuple(error.absolute_path)
    keyword = str(error.validator)
    schema = error.schema if isinstance(error.schema, dict) else {}
    instance = _instance(error)
    custom = schema.get("errorMessage")

    if "propertyNames" in error.absolute_schema_path and isinstance(instance, str):
        return _explain_key(error, doc, path, instance)
    if keyword in ("anyOf", "oneOf"):
        return _explain_alternatives(error, doc, path)
    if keyword in ("additionalProperties", "unevaluatedProperties") and isinstance(instance, dict):
        return _explain_unknown_keys(error, doc, path, schema, instance)
    if keyword == "required" and isinstance(instance, dict):
        properties = schema.get("properties", {})
        found = []
        for name in _expected(error):
            if name in instance:
                continue
            description = properties.get(name, {}).get("description")
            finding = _Finding(
                doc.location(path),
                str(custom or f"missing required key '{name}'"),
                None,
                path,
                None if custom else name,
                noun=_noun(schema, path),
                description=description if isinstance(description, str) else None,
            )
            found.append(finding)
        return found

    location = _value_location(doc, path, instance)
    if custom:
        return [_Finding(location, str(custom), None, path)]
    message, hint = _describe_error(error, doc, path, schema)
    if keyword == "uniqueItems" and isinstance(instance, list):
        location = _duplicate_location(doc, path, instance) or location
    return [_Finding(location, message, hint, path)]


def _describe_error(
    error: ValidationError, doc: YamlDocument, path: JsonPath, schema: dict[str, Any]
) -> tuple[str, str | None]:
    keyword = str(error.validator)
    value = _expected(error)
    instance = _instance(error)
    got = _got(instance, doc, path)
    if keyword == "type":
        types = [value] if isinstance(value, str) else list(value)
        return f"expected {_either(_TYPE_NAMES.get(t, t) for t in types)}, got {got}", _type_hint(
            types, instance, doc, path
        )
    if keyword == "enum":
        options = ", ".join(_plain(v) for v in value)
        return f"expected one of {options}, got {_shown(instance)}", _close(instance, value)
    if keyword == "const":
        return f"expected {_shown(value)}, got {_shown(instance)}", _close(instance, [value])
    if keyword == "pattern" and isinstance(instance, str):
        return _pattern_message(schema, instance, "value")
    if keyword == "minimum":
        return f"expected at least {value}, got {_shown(instance)}", None
    if keyword == "maximum":
        return f"expected at most {value}, got {_shown(instance)}", None
    if keyword == "exclusiveMinimum":
        return f"expected more than {value}, got {_shown(instance)}", None
    if keyword == "exclusiveMaximum":
        return f"expected less than {value}, got {_shown(instance)}", None
    if keyword == "minItems":
        if value == 1:
            return "the list must not be empty", None
        return f"the list needs at least {value} items, it has {len(instance)}", None
    if keyword == "maxItems":
        return f"the list may hold at most {value} items, it has {len(instance)}", None
    if keyword == "minLength":
        if value == 1:
            return "the text must not be empty", None
        return f"the text must be at least {value} characters long", None
    if keyword == "maxLength":
        return f"the text must be at most {value} characters long", None
    if keyword == "uniqueItems":
        return _duplicate_message(instance), "each item may appear only once"
    if keyword == "minProperties":
        return f"expected at least {value} key(s), got {len(instance)}", None
    if keyword == "maxProperties":
        return f"expected at most {value} key(s), got {len(instance)}", None
    if keyword in ("False", "None", "not"):
        return "this value is not allowed here", None
    return error.message, None


def _explain_key(
    error: ValidationError, doc: YamlDocument, path: JsonPath, key: str
) -> list[_Finding]:
    """A mapping key that breaks ``propertyNames`` (usually an id with a bad character)."""
    schema = error.schema if isinstance(error.schema, dict) else {}
    location = doc.key_location((*path, key))
    noun = str(schema.get("title") or "key")
    if error.validator == "pattern":
        message, hint = _pattern_message(schema, key, noun)
    else:
        message, hint = _describe_error(error, doc, (*path, key), schema)
        message = f"invalid {noun} '{_cut(key)}': {message}"
    return [_Finding(location, message, hint, path)]


def _explain_unknown_keys(
    error: ValidationError,
    doc: YamlDocument,
    path: JsonPath,
    schema: dict[str, Any],
    instance: dict[str, Any],
) -> list[_Finding]:
    properties = list(schema.get("properties", {}))
    patterns = [re.compile(p) for p in schema.get("patternProperties", {})]
    noun = _noun(schema, path)
    found = []
    for key in instance:
        if key in properties or any(p.search(key) for p in patterns):
            continue
        hint = did_you_mean(key, properties)
        if hint is None and properties:
            hint = "allowed keys: " + ", ".join(properties)
        message = f"unknown key '{_cut(key)}' in {noun}"
        found.append(_Finding(doc.key_location((*path, key)), message, hint, path, unknown=key))
    return found


def _explain_alternatives(
    error: ValidationError, doc: YamlDocument, path: JsonPath
) -> list[_Finding]:
    """Report the alternative of an anyOf/oneOf that the value was most likely meant for."""
    context = list(error.context or [])
    if not context:  # oneOf matched more than once
        message = "this value matches more than one of the allowed forms"
        return [_Finding(_value_location(doc, path, _instance(error)), message, None, path)]
    branches: dict[Any, list[ValidationError]] = {}
    for sub in context:
        branch = sub.relative_schema_path[0] if sub.relative_schema_path else None
        branches.setdefault(branch, []).append(sub)

    def wrong_kind(errors: list[ValidationError]) -> bool:
        """Whether the value is not even of the kind this alternative describes."""
        return any(not e.relative_path and e.validator in ("type", "const", "enum") for e in errors)

    fitting = [errors for errors in branches.values() if not wrong_kind(errors)]
    if len(fitting) == 1:
        return [finding for sub in fitting[0] for finding in _explain(sub, doc)]
    if fitting:
        best = best_match([e for errors in fitting for e in errors])
        return _explain(best, doc) if best is not None else []
    # The value fits none of the alternatives: list what was expected.
    expected: list[str] = []
    choices: list[Any] = []
    for errors in branches.values():
        for sub in errors:
            if sub.relative_path:
                continue
            if sub.validator == "type":
                value = _expected(sub)
                types = [value] if isinstance(value, str) else list(value)
                expected.extend(_TYPE_NAMES.get(t, t) for t in types)
            elif sub.validator == "const":
                expected.append(_shown(_expected(sub)))
                choices.append(_expected(sub))
            elif sub.validator == "enum":
                expected.extend(_shown(v) for v in _expected(sub))
                choices.extend(_expected(sub))
    instance = _instance(error)
    unique = list(dict.fromkeys(expected))
    message = f"expected {_either(unique)}, got {_got(instance, doc, path)}"
    hint = _close(instance, choices)
    return [_Finding(_value_location(doc, path, instance), message, hint, path)]


# -- wording --------------------------------------------------------------------------------


def _noun(schema: dict[str, Any], path: JsonPath) -> str:
    """What a mapping is called in messages: its schema title, else its key."""
    title = schema.get("title")
    if isinstance(title, str) and title:
        return title[0].lower() + title[1:]
    if path and isinstance(path[-1], str):
        return f"'{path[-1]}'"
    if path:
        return f"item {path[-1] + 1}" if isinstance(path[-1], int) else "this mapping"
    return "the file"


def _pattern_message(
    schema: dict[str, Any], value: str, default_noun: str
) -> tuple[str, str | None]:
    noun = str(schema.get("title") or default_noun)
    pattern = str(schema.get("pattern", ""))
    meaning = schema.get("patternErrorMessage") or _PATTERN_MEANINGS.get(pattern)
    if not meaning:
        meaning = f"it must match the pattern {pattern}"
    fixed = _suggest_fix(value, pattern)
    hint = f"try '{fixed}'" if fixed is not None else None
    return f"invalid {noun} '{_cut(value)}': {meaning}", hint


def _suggest_fix(value: str, pattern: str) -> str | None:
    """A corrected spelling of ``value`` that matches ``pattern``, if an obvious one exists."""
    try:
        compiled = re.compile(pattern)
    except re.error:
        return None
    underscored = re.sub(r"[^A-Za-z0-9_]+", "_", value.strip()).strip("_")
    for candidate in (value.lower(), underscored, underscored.lower()):
        if candidate and candidate != value and compiled.search(candidate):
            return candidate
    return None


def _either(items: Iterable[str]) -> str:
    names = list(dict.fromkeys(items))
    if len(names) <= 1:
        return names[0] if names else "something else"
    return ", ".join(names[:-1]) + " or " + names[-1]


def _cut(text: str) -> str:
    text = text.replace("\n", "\\n")
    return text if len(text) <= _SHOWN_LIMIT else text[: _SHOWN_LIMIT - 3] + "..."


def _plain(value: Any) -> str:
    """An enum option as written in YAML, unquoted (``public``, ``3``, ``true``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    return str(value)


def _shown(value: Any) -> str:
    """A value quoted for a message: ``'secret'``, ``3``, ``true``, ``a list``."""
    if isinstance(value, str):
        return f"'{_cut(value)}'"
    if isinstance(value, bool) or value is None:
        return _plain(value)
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return repr(value)


def _got(value: Any, doc: YamlDocument, path: JsonPath) -> str:
    """What a value is, for 'expected X, got Y' messages."""
    raw = doc.raw_text(path) if doc.has_path(path) else None
    if isinstance(value, str):
        return f"text '{_cut(value)}'"
    if isinstance(value, bool):
        written = _plain(value)
        if raw is not None and raw.lower() != written:
            return f"'{raw}', which YAML reads as {written}"
        return written
    if value is None:
        if raw:
            return f"'{raw}', which YAML reads as null"
        if not path:
            return "nothing (the file is empty)"
        return "nothing"
    if isinstance(value, int | float):
        return f"the number {raw if raw else value}"
    if isinstance(value, list):
        return "an empty list" if not value else "a list"
    if isinstance(value, dict):
        return "an empty mapping" if not value else "a mapping"
    return repr(value)


def _type_hint(types: Sequence[str], value: Any, doc: YamlDocument, path: JsonPath) -> str | None:
    raw = doc.raw_text(path) if doc.has_path(path) else None
    if "string" in types and isinstance(value, bool | int | float) and raw:
        return f'put it in quotes to make it text: "{raw}"'
    if "string" in types and value is None and not raw:
        return "the value is empty"
    if "array" in types and isinstance(value, str):
        return f"write a list: [{value}]" if "\n" not in value else "write a list: [a, b]"
    return None


def _close(value: Any, options: Iterable[Any]) -> str | None:
    if not isinstance(value, str):
        return None
    return did_you_mean(value, [o for o in options if isinstance(o, str)])


def _value_location(doc: YamlDocument, path: JsonPath, value: Any) -> Location:
    """Where to point for a bad value: the value itself, or its key when the value is empty."""
    if value is None and path and doc.has_path(path) and not doc.raw_text(path):
        return doc.key_location(path)
    return doc.location(path)


def _duplicate_message(items: list[Any]) -> str:
    seen: list[Any] = []
    for item in items:
        if item in seen:
            return f"{_shown(item)} is listed twice"
        seen.append(item)
    return "the list holds the same item twice"


def _duplicate_location(doc: YamlDocument, path: JsonPath, items: list[Any]) -> Location | None:
    seen: list[Any] = []
    for index, item in enumerate(items):
        if item in seen:
            return doc.location((*path, index))
        seen.append(item)
    return None
