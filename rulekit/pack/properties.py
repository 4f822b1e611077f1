"""Check the keys that cards, nodes, edges and regions carry against ``properties:``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal, NotRequired, TypedDict

from rulekit.errors import PackError, SchemaError, did_you_mean
from rulekit.source.document import JsonPath, YamlDocument

PropertyType = Literal["int", "text", "bool"]


class PropertyOptions(TypedDict):
    """A property declared with options: ``{type: bool, optional: true}``."""

    type: PropertyType
    optional: NotRequired[bool]


Declared = Mapping[str, PropertyType | PropertyOptions]
"""The properties declared for one kind of item, by name."""

# Where the items of each kind are, and the keys every item may give without declaring them.
_KINDS: dict[str, tuple[JsonPath, tuple[str, ...]]] = {
    "cards": (("cards",), ("id", "name", "copies", "effects", "anytime")),
    "nodes": (("map", "nodes"), ("id", "name", "region")),
    "edges": (("map", "edges"), ("id", "name", "from", "to")),
    "regions": (("map", "regions"), ("id", "name")),
}

_TYPES: dict[str, tuple[type, ...]] = {"int": (int,), "text": (str,), "bool": (bool,)}
_NAMES = {"int": "an integer", "text": "a text", "bool": "true or false"}
_SINGULAR = {"cards": "card", "nodes": "node", "edges": "edge", "regions": "region"}


def check_properties(doc: YamlDocument, errors: list[PackError]) -> None:
    """Check the items of every declared kind of ``doc``, a pack's merged sections."""
    for kind, spec in (doc.data.get("properties") or {}).items():
        _KindCheck(doc, kind, spec, errors).run()


@dataclass
class _KindCheck:
    """Checks the items of one declared kind."""

    doc: YamlDocument
    kind: str
    spec: Declared
    errors: list[PackError]

    def run(self) -> None:
        """Check each item of the kind."""
        path, builtin = _KINDS[self.kind]
        items: object = self.doc.data
        for key in path:
            items = items.get(key) if isinstance(items, dict) else None
        for i, item in enumerate(items if isinstance(items, list) else []):
            if isinstance(item, dict):
                self.item((*path, i), item, builtin)

    def item(self, path: JsonPath, item: Mapping[str, object], builtin: tuple[str, ...]
             ) -> None:
        """Check the properties of one item."""
        what = f"{_SINGULAR[self.kind]} '{item.get('id', path[-1])}'"
        for key, value in item.items():
            if key not in builtin:
                self.given(what, (*path, key), value, builtin)
        for key, prop in self.spec.items():
            if key not in item and not (isinstance(prop, dict) and prop.get("optional")):
                self.errors.append(SchemaError(
                    f"{what} has no '{key}'", self.doc.location(path),
                    f"every {_SINGULAR[self.kind]} gives it (properties: {self.kind}: {key}); "
                    "or declare it {type: ..., optional: true}"))

    def given(self, what: str, path: JsonPath, value: object, builtin: tuple[str, ...]) -> None:
        """Check a property an item gives: declared, and of its type."""
        key = str(path[-1])
        if key in self.spec:
            self.typed(what, path, value)
            return
        self.errors.append(SchemaError(
            f"{what} has a property '{key}' that the pack does not declare",
            self.doc.key_location(path),
            did_you_mean(key, [*self.spec, *builtin])
            or f"declare it in properties: {self.kind}: ..."))

    def typed(self, what: str, path: JsonPath, value: object) -> None:
        """Check that a property's value is of its type."""
        key = str(path[-1])
        prop = self.spec[key]
        wanted = prop["type"] if isinstance(prop, dict) else prop
        if not isinstance(value, _TYPES[wanted]) or (wanted == "int" and isinstance(value, bool)):
            self.errors.append(SchemaError(f"property '{key}' of {what} must be {_NAMES[wanted]}",
                                           self.doc.location(path)))
