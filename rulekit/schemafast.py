"""A quick check that a document conforms to one of rulekit's JSON Schemas (``schemas/``,
read by :func:`load_schema`).

:func:`conforms` answers True, False, or raises :class:`Unsure` for a schema it does not
understand (a keyword it does not know, a ``$ref`` outside the schema). It knows the keywords
rulekit's schemas use, with the meaning JSON Schema 2020-12 gives them, and needs no import of
jsonschema: a document that conforms (nearly always) is checked in a few milliseconds. When a
document does not conform, :mod:`rulekit.schema` asks jsonschema what is wrong, to explain it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from rulekit.datafiles import data_dir

SCHEMA_DIR = data_dir("schemas")

# keywords that say nothing about validity
_ANNOTATIONS = frozenset({"description", "title", "default", "$schema", "$id", "$defs",
                          "$comment", "examples", "patternErrorMessage", "errorMessage",
                          "deprecated", "readOnly", "writeOnly"})


# a keyword's check: (instance, the keyword's value, the schema holding it, the root schema)
Check = Callable[[Any, Any, dict[str, Any], dict[str, Any]], bool]


class Unsure(Exception):
    """The schema uses something this check does not know."""


def _schema_file(name: str) -> Path:
    if name.endswith(".json"):
        return SCHEMA_DIR / name
    return SCHEMA_DIR / f"{name.removesuffix('.schema')}.schema.json"


@cache
def load_schema(name: str) -> dict[str, Any]:
    """The JSON Schema ``name`` of ``schemas/`` (``"pack"`` or ``"pack.schema.json"``)."""
    file = _schema_file(name)
    try:
        schema = json.loads(file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        known = sorted(p.name for p in SCHEMA_DIR.glob("*.schema.json"))
        raise ValueError(f"no schema {name!r} in {SCHEMA_DIR} (known: {known})") from None
    if not isinstance(schema, dict):
        raise ValueError(f"{file} does not hold a JSON Schema object")
    return schema


def passes(data: Any, schema_name: str) -> bool:
    """Whether ``data`` surely conforms to the schema ``schema_name`` (false when unsure)."""
    schema = load_schema(schema_name)
    try:
        return conforms(data, schema, schema)
    except Unsure:
        return False


def conforms(instance: Any, schema: Any, root: dict[str, Any]) -> bool:
    """Whether ``instance`` is valid against ``schema`` (a part of ``root``)."""
    if schema is True:
        return True
    if schema is False:
        return False
    if not isinstance(schema, dict):
        raise Unsure("a schema that is not an object")
    for keyword, value in schema.items():
        if keyword in _ANNOTATIONS or keyword in ("then", "else"):
            continue
        check = _KEYWORDS.get(keyword)
        if check is None:
            raise Unsure(keyword)
        if not check(instance, value, schema, root):
            return False
    return True


def _type(instance: Any, value: Any, schema: dict[str, Any], root: dict[str, Any]) -> bool:
    types = [value] if isinstance(value, str) else value
    return any(_is_type(instance, name) for name in types)


def _is_type(instance: Any, name: str) -> bool:
    if name == "string":
        return isinstance(instance, str)
    if name == "object":
        return isinstance(instance, dict)
    if name == "array":
        return isinstance(instance, list)
    if name == "boolean":
        return isinstance(instance, bool)
    if name == "null":
        return instance is None
    if isinstance(instance, bool):
        return False
    if name == "integer":
        return isinstance(instance, int) or (isinstance(instance, float)
                                             and instance.is_integer())
    if name == "number":
        return isinstance(instance, int | float)
    raise Unsure(f"type {name}")


def _ref(instance: Any, value: Any, schema: dict[str, Any], root: dict[str, Any]) -> bool:
    if not isinstance(value, str) or not value.startswith("#/"):
        raise Unsure(f"$ref {value}")
    target: Any = root
    for part in value[2:].split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        if not isinstance(target, dict) or part not in target:
            raise Unsure(f"$ref {value}")
        target = target[part]
    return conforms(instance, target, root)


def _properties(instance: Any, value: Any, schema: dict[str, Any], root: dict[str, Any]) -> bool:
    if not isinstance(instance, dict):
        return True
    return all(conforms(instance[key], sub, root) for key, sub in value.items()
               if key in instance)


def _pattern_properties(instance: Any, value: Any, schema: dict[str, Any],
                        root: dict[str, Any]) -> bool:
    if not isinstance(instance, dict):
        return True
    for pattern, sub in value.items():
        for key, item in instance.items():
            if _search(pattern, key) and not conforms(item, sub, root):
                return False
    return True


def _additional(instance: Any, value: Any, schema: dict[str, Any], root: dict[str, Any]) -> bool:
    if not isinstance(instance, dict):
        return True
    known = schema.get("properties", {})
    patterns = list(schema.get("patternProperties", {}))
    return all(conforms(item, value, root) for key, item in instance.items()
               if key not in known and not any(_search(p, key) for p in patterns))


def _property_names(instance: Any, value: Any, schema: dict[str, Any],
                    root: dict[str, Any]) -> bool:
    return not isinstance(instance, dict) or all(conforms(key, value, root) for key in instance)


def _required(instance: Any, value: Any, schema: dict[str, Any], root: dict[str, Any]) -> bool:
    return not isinstance(instance, dict) or all(name in instance for name in value)


def _items(instance: Any, value: Any, schema: dict[str, Any], root: dict[str, Any]) -> bool:
    if "prefixItems" in schema:
        raise Unsure("prefixItems")
    return not isinstance(instance, list) or all(conforms(item, value, root) for item in instance)


def _unique(instance: Any, value: Any, schema: dict[str, Any], root: dict[str, Any]) -> bool:
    if not value or not isinstance(instance, list):
        return True
    return not any(_equal(a, b) for i, a in enumerate(instance) for b in instance[i + 1:])


def _enum(instance: Any, value: Any, schema: dict[str, Any], root: dict[str, Any]) -> bool:
    return any(_equal(instance, option) for option in value)


def _const(instance: Any, value: Any, schema: dict[str, Any], root: dict[str, Any]) -> bool:
    return _equal(instance, value)


def _equal(one: Any, two: Any) -> bool:
    """Equality as JSON Schema means it: true is not 1; lists and objects item by item."""
    if isinstance(one, bool) or isinstance(two, bool):
        return isinstance(one, bool) and isinstance(two, bool) and one == two
    if isinstance(one, list) and isinstance(two, list):
        return len(one) == len(two) and all(_equal(a, b) for a, b in zip(one, two, strict=True))
    if isinstance(one, dict) and isinstance(two, dict):
        return one.keys() == two.keys() and all(_equal(one[k], two[k]) for k in one)
    if isinstance(one, list | dict) or isinstance(two, list | dict):
        return False
    return bool(one == two)


def _any_of(instance: Any, value: Any, schema: dict[str, Any], root: dict[str, Any]) -> bool:
    return any(conforms(instance, sub, root) for sub in value)


def _all_of(instance: Any, value: Any, schema: dict[str, Any], root: dict[str, Any]) -> bool:
    return all(conforms(instance, sub, root) for sub in value)


def _one_of(instance: Any, value: Any, schema: dict[str, Any], root: dict[str, Any]) -> bool:
    return sum(1 for sub in value if conforms(instance, sub, root)) == 1


def _not(instance: Any, value: Any, schema: dict[str, Any], root: dict[str, Any]) -> bool:
    return not conforms(instance, value, root)


def _if(instance: Any, value: Any, schema: dict[str, Any], root: dict[str, Any]) -> bool:
    branch = "then" if conforms(instance, value, root) else "else"
    return conforms(instance, schema.get(branch, True), root)


def _sized(kind: type[str] | type[list[Any]] | type[dict[str, Any]],
           test: Callable[[int, Any], bool]) -> Check:
    def check(instance: Any, value: Any, schema: dict[str, Any], root: dict[str, Any]) -> bool:
        if not isinstance(instance, kind):
            return True
        return test(len(instance), value)
    return check


def _bound(test: Callable[[Any, Any], bool]
           ) -> Check:
    def check(instance: Any, value: Any, schema: dict[str, Any], root: dict[str, Any]) -> bool:
        if not isinstance(instance, int | float) or isinstance(instance, bool):
            return True
        return bool(test(instance, value))
    return check


def _pattern(instance: Any, value: Any, schema: dict[str, Any], root: dict[str, Any]) -> bool:
    return not isinstance(instance, str) or _search(value, instance)


def _search(pattern: str, text: str) -> bool:
    return _compiled(pattern).search(text) is not None


@cache
def _compiled(pattern: str) -> re.Pattern[str]:
    try:
        return re.compile(pattern)
    except re.error:
        raise Unsure(f"pattern {pattern}") from None


_KEYWORDS: dict[str, Check] = {
    "type": _type, "$ref": _ref, "properties": _properties,
    "patternProperties": _pattern_properties, "additionalProperties": _additional,
    "propertyNames": _property_names, "required": _required, "items": _items,
    "uniqueItems": _unique, "enum": _enum, "const": _const, "anyOf": _any_of,
    "allOf": _all_of, "oneOf": _one_of, "not": _not, "if": _if, "pattern": _pattern,
    "minLength": _sized(str, lambda size, limit: size >= limit),
    "maxLength": _sized(str, lambda size, limit: size <= limit),
    "minItems": _sized(list, lambda size, limit: size >= limit),
    "maxItems": _sized(list, lambda size, limit: size <= limit),
    "minProperties": _sized(dict, lambda size, limit: size >= limit),
    "maxProperties": _sized(dict, lambda size, limit: size <= limit),
    "minimum": _bound(lambda number, limit: number >= limit),
    "maximum": _bound(lambda number, limit: number <= limit),
    "exclusiveMinimum": _bound(lambda number, limit: number > limit),
    "exclusiveMaximum": _bound(lambda number, limit: number < limit),
}

__all__ = ["Unsure", "conforms"]
