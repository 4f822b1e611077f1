"""A quick check that a document conforms to one of rulekit's JSON Schemas (``schemas/``,
read by :func:`load_schema`).

:func:`conforms` answers True, False, or raises :class:`Unsure` for a schema it does not
understand (a keyword it does not know, a ``$ref`` outside the schema). It knows the keywords
rulekit's schemas use, with the meaning JSON Schema 2020-12 gives them, and needs no import of
jsonschema: a document that conforms (nearly always) is checked in a few milliseconds. When a
document does not conform, :mod:`rulekit.source.schema` asks jsonschema what is wrong, to explain
it.

Each schema is read once per process into a tree of functions, one per subschema (its keywords
worked out then: the target of a ``$ref``, the patterns compiled, the known keys a set), which
then checks any number of documents without reading the schema again.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from rulekit.source.datafiles import data_dir

SCHEMA_DIR = data_dir("schemas")

# keywords that say nothing about validity
_ANNOTATIONS = frozenset({"description", "title", "default", "$schema", "$id", "$defs",
                          "$comment", "examples", "patternErrorMessage", "errorMessage",
                          "deprecated", "readOnly", "writeOnly"})


# whether an instance is valid against one subschema (or one of its keywords)
Check = Callable[[Any], bool]


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
    return _checker(schema, root)(instance)


def _checker(schema: Any, root: dict[str, Any]) -> Check:
    """The check of ``schema`` (a part of ``root``), made at its first use in this process."""
    key = (id(schema), id(root))
    found = _made.get(key)
    if found is None or found[0] is not schema or found[1] is not root:
        found = _made[key] = (schema, root, _Compiler(root).check(schema))
    return found[2]


# checks made, by the ids of schema and root (kept with them, so that the ids stay theirs)
_made: dict[tuple[int, int], tuple[Any, dict[str, Any], Check]] = {}


def _true(instance: Any) -> bool:
    return True


def _false(instance: Any) -> bool:
    return False


class _Compiler:
    """Makes the checks of the subschemas of one root schema."""

    def __init__(self, root: dict[str, Any]) -> None:
        self.root = root
        self.made: dict[int, Check] = {}  # by id of a subschema of root
        self.pending: dict[int, list[Check]] = {}  # subschemas being made (a $ref cycle)

    def check(self, schema: Any) -> Check:
        if schema is True:
            return _true
        if schema is False:
            return _false
        if not isinstance(schema, dict):
            raise Unsure("a schema that is not an object")
        found = self.made.get(id(schema))
        if found is not None:
            return found
        if id(schema) in self.pending:  # a $ref back to a schema being made: called later
            box = self.pending[id(schema)]
            return lambda instance: box[0](instance)
        self.pending[id(schema)] = box = []
        checks = []
        for keyword, value in schema.items():
            if keyword in _ANNOTATIONS or keyword in ("then", "else"):
                continue
            make = _KEYWORDS.get(keyword)
            if make is None:
                raise Unsure(keyword)
            checks.append(make(self, value, schema))
        made = _all_checks(checks)
        box.append(made)
        del self.pending[id(schema)]
        self.made[id(schema)] = made
        return made

    def target(self, ref: Any) -> Any:
        """The subschema a ``$ref`` names."""
        if not isinstance(ref, str) or not ref.startswith("#/"):
            raise Unsure(f"$ref {ref}")
        target: Any = self.root
        for part in ref[2:].split("/"):
            part = part.replace("~1", "/").replace("~0", "~")
            if not isinstance(target, dict) or part not in target:
                raise Unsure(f"$ref {ref}")
            target = target[part]
        return target


def _all_checks(checks: list[Check]) -> Check:
    if not checks:
        return _true
    if len(checks) == 1:
        return checks[0]
    if len(checks) == 2:
        first, second = checks
        return lambda instance: first(instance) and second(instance)
    return lambda instance: all(check(instance) for check in checks)


Make = Callable[[_Compiler, Any, dict[str, Any]], Check]

_CLASSES: dict[str, type | tuple[type, ...]] = {
    "string": str, "object": dict, "array": list, "boolean": bool}


def _type(compiler: _Compiler, value: Any, schema: dict[str, Any]) -> Check:
    names = [value] if isinstance(value, str) else list(value)
    tests = [_type_test(name) for name in names]
    if len(tests) == 1:
        return tests[0]
    return lambda instance: any(test(instance) for test in tests)


def _type_test(name: str) -> Check:
    kind = _CLASSES.get(name)
    if kind is not None:
        return lambda instance: isinstance(instance, kind)
    if name == "null":
        return lambda instance: instance is None
    if name == "integer":
        return lambda instance: (type(instance) is not bool and isinstance(instance, int)) or (
            isinstance(instance, float) and instance.is_integer())
    if name == "number":
        return lambda instance: type(instance) is not bool and isinstance(instance, int | float)
    raise Unsure(f"type {name}")


def _ref(compiler: _Compiler, value: Any, schema: dict[str, Any]) -> Check:
    return compiler.check(compiler.target(value))


def _properties(compiler: _Compiler, value: Any, schema: dict[str, Any]) -> Check:
    subs = [(key, compiler.check(sub)) for key, sub in value.items()]

    def check(instance: Any) -> bool:
        return not isinstance(instance, dict) or all(
            sub(instance[key]) for key, sub in subs if key in instance)
    return check


def _pattern_properties(compiler: _Compiler, value: Any, schema: dict[str, Any]) -> Check:
    subs = [(_compiled(pattern).search, compiler.check(sub)) for pattern, sub in value.items()]

    def check(instance: Any) -> bool:
        if not isinstance(instance, dict):
            return True
        for search, sub in subs:
            for key, item in instance.items():
                if search(key) is not None and not sub(item):
                    return False
        return True
    return check


def _additional(compiler: _Compiler, value: Any, schema: dict[str, Any]) -> Check:
    known = frozenset(schema.get("properties", {}))
    searches = [_compiled(p).search for p in schema.get("patternProperties", {})]
    sub = compiler.check(value)

    def check(instance: Any) -> bool:
        if not isinstance(instance, dict):
            return True
        for key, item in instance.items():
            if key not in known and not any(search(key) is not None for search in searches) \
                    and not sub(item):
                return False
        return True
    return check


def _property_names(compiler: _Compiler, value: Any, schema: dict[str, Any]) -> Check:
    sub = compiler.check(value)
    return lambda instance: not isinstance(instance, dict) or all(map(sub, instance))


def _required(compiler: _Compiler, value: Any, schema: dict[str, Any]) -> Check:
    names = list(value)
    return lambda instance: not isinstance(instance, dict) or all(
        name in instance for name in names)


def _items(compiler: _Compiler, value: Any, schema: dict[str, Any]) -> Check:
    if "prefixItems" in schema:
        raise Unsure("prefixItems")
    sub = compiler.check(value)
    return lambda instance: not isinstance(instance, list) or all(map(sub, instance))


def _unique(compiler: _Compiler, value: Any, schema: dict[str, Any]) -> Check:
    if not value:
        return _true
    return lambda instance: not isinstance(instance, list) or not any(
        _equal(a, b) for i, a in enumerate(instance) for b in instance[i + 1:])


def _enum(compiler: _Compiler, value: Any, schema: dict[str, Any]) -> Check:
    options = list(value)
    return lambda instance: any(_equal(instance, option) for option in options)


def _const(compiler: _Compiler, value: Any, schema: dict[str, Any]) -> Check:
    return lambda instance: _equal(instance, value)


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


def _any_of(compiler: _Compiler, value: Any, schema: dict[str, Any]) -> Check:
    subs = [compiler.check(sub) for sub in value]
    return lambda instance: any(sub(instance) for sub in subs)


def _all_of(compiler: _Compiler, value: Any, schema: dict[str, Any]) -> Check:
    return _all_checks([compiler.check(sub) for sub in value])


def _one_of(compiler: _Compiler, value: Any, schema: dict[str, Any]) -> Check:
    subs = [compiler.check(sub) for sub in value]
    return lambda instance: sum(1 for sub in subs if sub(instance)) == 1


def _not(compiler: _Compiler, value: Any, schema: dict[str, Any]) -> Check:
    sub = compiler.check(value)
    return lambda instance: not sub(instance)


def _if(compiler: _Compiler, value: Any, schema: dict[str, Any]) -> Check:
    test = compiler.check(value)
    then, otherwise = (compiler.check(schema.get(branch, True)) for branch in ("then", "else"))
    return lambda instance: then(instance) if test(instance) else otherwise(instance)


def _sized(kind: type[str] | type[list[Any]] | type[dict[str, Any]],
           test: Callable[[int, Any], bool]) -> Make:
    def make(compiler: _Compiler, value: Any, schema: dict[str, Any]) -> Check:
        return lambda instance: not isinstance(instance, kind) or test(len(instance), value)
    return make


def _bound(test: Callable[[Any, Any], bool]) -> Make:
    def make(compiler: _Compiler, value: Any, schema: dict[str, Any]) -> Check:
        return lambda instance: (not isinstance(instance, int | float)
                                 or isinstance(instance, bool) or bool(test(instance, value)))
    return make


def _pattern(compiler: _Compiler, value: Any, schema: dict[str, Any]) -> Check:
    search = _compiled(value).search
    return lambda instance: not isinstance(instance, str) or search(instance) is not None


@cache
def _compiled(pattern: str) -> re.Pattern[str]:
    try:
        return re.compile(pattern)
    except (re.error, TypeError):
        raise Unsure(f"pattern {pattern}") from None


_KEYWORDS: dict[str, Make] = {
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
