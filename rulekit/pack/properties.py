"""Declared properties: the keys a pack's cards, nodes, edges and regions carry, with types.

A pack may declare them in a ``properties`` section::

    properties:
      cards: {type: text, score: int}
      nodes: {lat: int, lon: int, harbour: {type: bool, optional: true}}

Once a kind is declared, every item of that kind must give exactly its declared properties
(optional ones may be left out), each of its type: a misspelt key (``copise: 12``) is an error
with a did-you-mean, a missing one too. A kind that is not declared is not checked.
"""

from __future__ import annotations

from typing import Any

from rulekit.errors import PackError, SchemaError, did_you_mean
from rulekit.source.document import JsonPath, YamlDocument

# Where the items of each kind are, and the keys every item may give without declaring them.
_KINDS: dict[str, tuple[JsonPath, tuple[str, ...]]] = {
    "cards": (("cards",), ("id", "name", "copies")),
    "nodes": (("map", "nodes"), ("id", "name", "region")),
    "edges": (("map", "edges"), ("id", "name", "from", "to")),
    "regions": (("map", "regions"), ("id", "name")),
}

_TYPES: dict[str, tuple[type, ...]] = {"int": (int,), "text": (str,), "bool": (bool,)}
_SINGULAR = {"cards": "card", "nodes": "node", "edges": "edge", "regions": "region"}


def check_properties(doc: YamlDocument | None, errors: list[PackError]) -> None:
    """Check the items of every declared kind of ``doc`` (a pack's merged sections)."""
    if doc is None or not isinstance(doc.data, dict):
        return
    declared = doc.data.get("properties") or {}
    for kind, spec in declared.items():
        path, builtin = _KINDS[kind]
        items: Any = doc.data
        for key in path:
            items = items.get(key) if isinstance(items, dict) else None
        for i, item in enumerate(items or []):
            if isinstance(item, dict):
                _check_item(doc, (*path, i), item, kind, spec, builtin, errors)


def _check_item(doc: YamlDocument, path: JsonPath, item: dict[str, Any], kind: str,
                spec: dict[str, Any], builtin: tuple[str, ...], errors: list[PackError]) -> None:
    what = f"{_SINGULAR[kind]} '{item.get('id', path[-1])}'"
    for key, value in item.items():
        if key in builtin:
            continue
        if key not in spec:
            errors.append(SchemaError(
                f"{what} has a property '{key}' that the pack does not declare",
                doc.key_location((*path, key)),
                did_you_mean(key, [*spec, *builtin]) or f"declare it in properties: {kind}: ..."))
            continue
        wanted = _type_of(spec[key])
        if not isinstance(value, _TYPES[wanted]) or (wanted == "int" and isinstance(value,
                                                                                    bool)):
            errors.append(SchemaError(f"property '{key}' of {what} must be {_NAMES[wanted]}",
                                      doc.location((*path, key))))
    for key, prop in spec.items():
        if key not in item and not (isinstance(prop, dict) and prop.get("optional")):
            errors.append(SchemaError(
                f"{what} has no '{key}'", doc.location(path),
                f"every {_SINGULAR[kind]} gives it (properties: {kind}: {key}); "
                "or declare it {type: ..., optional: true}"))


_NAMES = {"int": "an integer", "text": "a text", "bool": "true or false"}


def _type_of(prop: Any) -> str:
    return str(prop["type"] if isinstance(prop, dict) else prop)
