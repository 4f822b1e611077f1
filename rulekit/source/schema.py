"""Check loaded pack files against the JSON Schemas of ``schemas/``, with located errors."""

from __future__ import annotations

import functools
import itertools
import json
import re
from collections.abc import Iterable, Mapping, Sized
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
from rulekit.source.wording import (
    TYPE_NAMES,
    cut,
    either,
    got,
    pattern_message,
    plain,
    shown,
    type_hint,
)

__all__ = ["SCHEMA_DIR", "load_schema", "validate_document"]

Schema = dict[str, Any]
"""A JSON Schema, or a part of one: JSON data."""

SCHEMA_DIR = data_dir("schemas")

# What a failing bound says: "expected at least 3, got 2".
_BOUNDS = {"minimum": "at least", "maximum": "at most", "exclusiveMinimum": "more than",
           "exclusiveMaximum": "less than"}

# What a failing size says, and what it says when the least size is 1.
_SIZES = {
    "minItems": "the list needs at least {value} items, it has {count}",
    "maxItems": "the list may hold at most {value} items, it has {count}",
    "minLength": "the text must be at least {value} characters long",
    "maxLength": "the text must be at most {value} characters long",
    "minProperties": "expected at least {value} key(s), got {count}",
    "maxProperties": "expected at most {value} key(s), got {count}",
}
_NOT_EMPTY = {"minItems": "the list must not be empty", "minLength": "the text must not be empty"}


@functools.cache
def load_schema(name: str) -> Schema:
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


MAX_REPORTED = 100  # mistakes of one file reported at most: each costs a moment to explain


def validate_document(doc: YamlDocument, schema_name: str) -> list[SchemaError]:
    """The ways ``doc`` breaks schema ``schema_name`` (the first found), in file order."""
    errors = itertools.islice(_validator(schema_name).iter_errors(doc.data), MAX_REPORTED)
    findings = [finding for error in errors for finding in _explain(error, doc)]
    return _finish(findings)


@dataclass
class _Finding:
    """A mistake found, as it will be reported."""

    location: Location
    message: str
    hint: str | None = None
    path: JsonPath = ()
    # An unknown key may misspell a missing one of its mapping (see _missing_keys).
    missing: str | None = None
    unknown: str | None = None
    noun: str = ""
    description: str | None = None


def _finish(findings: list[_Finding]) -> list[SchemaError]:
    """The errors to report, once each, in file order."""
    unique: dict[tuple[int, int, str], _Finding] = {}
    for f in [f for f in findings if f.missing is None] + _missing_keys(findings):
        unique.setdefault((f.location.line, f.location.column, f.message), f)
    return [SchemaError(f.message, f.location, f.hint)
            for f in sorted(unique.values(), key=lambda f: (f.location.line, f.location.column))]


def _missing_keys(findings: list[_Finding]) -> list[_Finding]:
    """One finding per mapping that lacks keys, but for keys an unknown key may misspell."""
    unknown_keys: dict[JsonPath, list[str]] = {}
    for finding in findings:
        if finding.unknown is not None:
            unknown_keys.setdefault(finding.path, []).append(finding.unknown)
    missing: dict[JsonPath, list[_Finding]] = {}
    for finding in findings:
        name = finding.missing
        if name is None or any(did_you_mean(typo, [name])
                               for typo in unknown_keys.get(finding.path, [])):
            continue  # "unknown key 'dso' ... did you mean 'do'?" already says it
        group = missing.setdefault(finding.path, [])
        if all(f.missing != name for f in group):
            group.append(finding)
    return [_merged_missing(group) for group in missing.values()]


def _merged_missing(group: list[_Finding]) -> _Finding:
    first = group[0]
    names = [f"'{f.missing}'" for f in group]
    if len(names) > 1:
        listed = ", ".join(names[:-1]) + " and " + names[-1]
        first.message = f"missing required keys {listed} in {first.noun}"
        return first
    first.message = f"missing required key {names[0]} in {first.noun}"
    if first.description:
        first.hint = f"{names[0]}: {first.description}"
    return first


def _explain(error: ValidationError, doc: YamlDocument) -> list[_Finding]:
    path: JsonPath = tuple(error.absolute_path)
    keyword = str(error.validator)
    instance = error.instance
    if "propertyNames" in error.absolute_schema_path and isinstance(instance, str):
        return [_explain_key(error, doc, path, instance)]
    if keyword in ("anyOf", "oneOf"):
        return _explain_alternatives(error, doc, path)
    if keyword in _MAPPING_KEYWORDS and isinstance(instance, dict):
        return _MAPPING_KEYWORDS[keyword](error, doc, path, instance)
    return [_explain_value(error, doc, path)]


def _schema_of(error: ValidationError) -> Schema:
    return error.schema if isinstance(error.schema, dict) else {}


def _explain_value(error: ValidationError, doc: YamlDocument, path: JsonPath) -> _Finding:
    """A value that breaks a keyword, reported at the value."""
    schema = _schema_of(error)
    instance = error.instance
    location = _value_location(doc, path, instance)
    if schema.get("errorMessage"):
        return _Finding(location, str(schema["errorMessage"]), None, path)
    message, hint = _describe_error(error, doc, path, schema)
    if error.validator == "uniqueItems" and isinstance(instance, list):
        location = _duplicate_location(doc, path, instance) or location
    return _Finding(location, message, hint, path)


def _explain_missing(error: ValidationError, doc: YamlDocument, path: JsonPath,
                     instance: Mapping[str, object]) -> list[_Finding]:
    schema = _schema_of(error)
    custom = schema.get("errorMessage")
    properties = schema.get("properties", {})
    found = []
    for name in error.validator_value:
        if name in instance:
            continue
        description = properties.get(name, {}).get("description")
        found.append(_Finding(
            doc.location(path), str(custom or f"missing required key '{name}'"), None, path,
            None if custom else name, noun=_noun(schema, path),
            description=description if isinstance(description, str) else None))
    return found


def _describe_error(error: ValidationError, doc: YamlDocument, path: JsonPath,
                    schema: Schema) -> tuple[str, str | None]:
    """The message and hint of a value that breaks a keyword."""
    keyword = str(error.validator)
    value, instance = error.validator_value, error.instance
    if keyword == "type":
        types = [value] if isinstance(value, str) else list(value)
        return (f"expected {either(TYPE_NAMES.get(t, t) for t in types)}, "
                f"got {got(instance, doc, path)}", type_hint(types, instance, doc, path))
    if keyword == "enum":
        return (f"expected one of {', '.join(plain(v) for v in value)}, got {shown(instance)}",
                _close(instance, value))
    if keyword == "const":
        return f"expected {shown(value)}, got {shown(instance)}", _close(instance, [value])
    if keyword == "pattern" and isinstance(instance, str):
        return pattern_message(schema, instance, "value")
    return _describe_limit(keyword, value, instance) or (error.message, None)


def _describe_limit(keyword: str, value: object,
                    instance: object) -> tuple[str, str | None] | None:
    """The message of a bound, a size or a rule; None for other keywords."""
    if keyword in _BOUNDS:
        return f"expected {_BOUNDS[keyword]} {value}, got {shown(instance)}", None
    if keyword in _NOT_EMPTY and value == 1:
        return _NOT_EMPTY[keyword], None
    if keyword in _SIZES and isinstance(instance, Sized):
        return _SIZES[keyword].format(value=value, count=len(instance)), None
    if keyword == "uniqueItems" and isinstance(instance, list):
        return _duplicate_message(instance), "each item may appear only once"
    if keyword in ("False", "None", "not"):
        return "this value is not allowed here", None
    return None


def _explain_key(error: ValidationError, doc: YamlDocument, path: JsonPath,
                 key: str) -> _Finding:
    """A mapping key that breaks ``propertyNames``: an id with a bad character."""
    schema = _schema_of(error)
    location = doc.key_location((*path, key))
    noun = str(schema.get("title") or "key")
    if error.validator == "pattern":
        message, hint = pattern_message(schema, key, noun)
    else:
        message, hint = _describe_error(error, doc, (*path, key), schema)
        message = f"invalid {noun} '{cut(key)}': {message}"
    return _Finding(location, message, hint, path)


def _explain_unknown_keys(error: ValidationError, doc: YamlDocument, path: JsonPath,
                          instance: Mapping[str, object]) -> list[_Finding]:
    schema = _schema_of(error)
    properties = list(schema.get("properties", {}))
    patterns = [re.compile(p) for p in schema.get("patternProperties", {})]
    noun = _noun(schema, path)
    allowed = "allowed keys: " + ", ".join(properties) if properties else None
    return [_Finding(doc.key_location((*path, key)), f"unknown key '{cut(key)}' in {noun}",
                     did_you_mean(key, properties) or allowed, path, unknown=key)
            for key in instance
            if key not in properties and not any(p.search(key) for p in patterns)]


def _explain_alternatives(error: ValidationError, doc: YamlDocument,
                          path: JsonPath) -> list[_Finding]:
    """Report the alternative of an anyOf/oneOf the value was likely meant for."""
    context = list(error.context or [])
    if not context:  # oneOf matched more than once
        message = "this value matches more than one of the allowed forms"
        return [_Finding(_value_location(doc, path, error.instance), message, None, path)]
    branches = _branches(context)
    fitting = [errors for errors in branches  # those of the value's kind
               if not any(not e.relative_path and e.validator in ("type", "const", "enum")
                          for e in errors)]
    if fitting:
        return _explain_fitting(fitting, doc)
    return [_fits_none(error, doc, path, list(itertools.chain.from_iterable(branches)))]


def _explain_fitting(fitting: list[list[ValidationError]], doc: YamlDocument
                     ) -> list[_Finding]:
    """The errors of the one alternative that fits the value's kind, or the likeliest."""
    if len(fitting) == 1:
        return list(itertools.chain.from_iterable(_explain(sub, doc) for sub in fitting[0]))
    best = best_match(itertools.chain.from_iterable(fitting))
    return _explain(best, doc) if best is not None else []


def _branches(context: list[ValidationError]) -> list[list[ValidationError]]:
    branches: dict[object, list[ValidationError]] = {}
    for sub in context:
        branch = sub.relative_schema_path[0] if sub.relative_schema_path else None
        branches.setdefault(branch, []).append(sub)
    return list(branches.values())


def _fits_none(error: ValidationError, doc: YamlDocument, path: JsonPath,
               subs: list[ValidationError]) -> _Finding:
    """A value that fits none of the alternatives: what was expected."""
    expected: list[str] = []
    choices: list[object] = []
    for sub in subs:
        if not sub.relative_path:
            expected += _expected_forms(sub)
            choices += _choices(sub)
    instance = error.instance
    message = f"expected {either(expected)}, got {got(instance, doc, path)}"
    return _Finding(_value_location(doc, path, instance), message, _close(instance, choices),
                    path)


def _expected_forms(sub: ValidationError) -> list[str]:
    """What one alternative expects, as a message says it."""
    value = sub.validator_value
    if sub.validator == "type":
        types = [value] if isinstance(value, str) else list(value)
        return [TYPE_NAMES.get(t, t) for t in types]
    return [shown(choice) for choice in _choices(sub)]


def _choices(sub: ValidationError) -> list[object]:
    value = sub.validator_value
    return [value] if sub.validator == "const" else list(value) if sub.validator == "enum" \
        else []


_MAPPING_KEYWORDS = {"additionalProperties": _explain_unknown_keys,
                     "unevaluatedProperties": _explain_unknown_keys, "required": _explain_missing}


def _noun(schema: Schema, path: JsonPath) -> str:
    """What messages call a mapping: its schema title, else its key."""
    title = schema.get("title")
    if isinstance(title, str) and title:
        return title[0].lower() + title[1:]
    if not path:
        return "the file"
    last = path[-1]
    return f"'{last}'" if isinstance(last, str) else f"item {last + 1}"


def _close(value: object, options: Iterable[object]) -> str | None:
    if not isinstance(value, str):
        return None
    return did_you_mean(value, [o for o in options if isinstance(o, str)])


def _value_location(doc: YamlDocument, path: JsonPath, value: object) -> Location:
    """Where to point for a bad value: at it, or at its key if it is empty."""
    if value is None and path and doc.has_path(path) and not doc.raw_text(path):
        return doc.key_location(path)
    return doc.location(path)


def _first_repeat(items: list[object]) -> int | None:
    seen: set[str] = set()
    for index, item in enumerate(items):
        key = json.dumps(item, sort_keys=True, default=str)
        if key in seen:
            return index
        seen.add(key)
    return None


def _duplicate_message(items: list[object]) -> str:
    at = _first_repeat(items)
    return "the list holds the same item twice" if at is None else \
        f"{shown(items[at])} is listed twice"


def _duplicate_location(doc: YamlDocument, path: JsonPath, items: list[object]
                        ) -> Location | None:
    at = _first_repeat(items)
    return None if at is None else doc.location((*path, at))
