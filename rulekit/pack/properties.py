"""Check the keys that cards, nodes, edges and regions carry against ``properties:``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, NotRequired, TypedDict

from rulekit.errors import PackError, SchemaError, did_you_mean
from rulekit.source.document import JsonPath, YamlDocument

PropertyType = Literal["int", "text", "bool"]


class PropertyOptions(TypedDict):
    """A property declared with options: ``{type: bool, optional: true}``."""

    type: PropertyType
    optional: NotRequired[bool]


Declared = Mapping[str, PropertyType | PropertyOptions]  # one kind's properties, by name

# Where the items of each kind are, and the keys every item may give without declaring them.
_KINDS: dict[str, tuple[JsonPath, tuple[str, ...]]] = {
    "cards": (("cards",), ("id", "name", "copies", "effects", "anytime")),
    "nodes": (("map", "nodes"), ("id", "name", "region")),
    "edges": (("map", "edges"), ("id", "name", "from", "to")),
    "regions": (("map", "regions"), ("id", "name")),
}

_TYPES: dict[str, type] = {"int": int, "text": str, "bool": bool}
_NAMES = {"int": "an integer", "text": "a text", "bool": "true or false"}
_SINGULAR = {"cards": "card", "nodes": "node", "edges": "edge", "regions": "region"}


def check_properties(doc: YamlDocument, errors: list[PackError]) -> None:
    """Check the items of every declared kind of ``doc``, a pack's merged sections."""
    for kind, spec in (doc.data.get("properties") or {}).items():
        path = _KINDS[kind][0]
        items: object = doc.data
        for key in path:
            items = items.get(key) if isinstance(items, dict) else None
        for i, item in enumerate(items if isinstance(items, list) else []):
            if isinstance(item, dict):
                _check_item(doc, kind, spec, (*path, i), item, errors)


def _check_item(doc: YamlDocument, kind: str, spec: Declared, path: JsonPath,
                item: Mapping[str, object], errors: list[PackError]) -> None:
    """Check the properties of one item: declared, each of its type, none missing."""
    builtin = _KINDS[kind][1]
    what = f"{_SINGULAR[kind]} '{item.get('id', path[-1])}'"
    for key, value in item.items():
        if key in builtin:
            continue
        prop = spec.get(key)
        if prop is None:
            errors.append(SchemaError(
                f"{what} has a property '{key}' that the pack does not declare",
                doc.key_location((*path, key)),
                did_you_mean(key, [*spec, *builtin]) or f"declare it in properties: {kind}: ..."))
            continue
        wanted = prop["type"] if isinstance(prop, dict) else prop
        if not isinstance(value, _TYPES[wanted]) or (wanted == "int" and isinstance(value, bool)):
            errors.append(SchemaError(f"property '{key}' of {what} must be {_NAMES[wanted]}",
                                      doc.location((*path, key))))
    for key, prop in spec.items():
        if key not in item and not (isinstance(prop, dict) and prop.get("optional")):
            errors.append(SchemaError(
                f"{what} has no '{key}'", doc.location(path),
                f"every {_SINGULAR[kind]} gives it (properties: {kind}: {key}); "
                "or declare it {type: ..., optional: true}"))
