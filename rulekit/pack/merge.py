"""Merge the sections of several pack files into one view that still knows where each value is.

A section (``cards``, ``procedures``, the phases of ``flow``...) may be split over several files
of one pack, and a variant changes the sections of the pack it extends: items of a list section
are replaced by id, or added (``before``/``after`` a named item); entries of a mapping section
are replaced by name, or added; ``remove:`` takes items away by id. :class:`Merger` does both;
:meth:`Merger.document` returns a :class:`MergedDocument` whose positions are those of the file
each value came from, so later errors point at the right file and line.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rulekit.errors import Location, PackError, SchemaError, did_you_mean
from rulekit.source.document import JsonPath, YamlDocument

Item = tuple[Any, YamlDocument, JsonPath]
"""A value, the document it comes from and its path there."""

# How each part of a content file merges: a list of items with ids, a mapping of named entries,
# a group of parts, or a value that a later file replaces whole.
_LAYOUT: dict[JsonPath, str] = {
    ("cards",): "list", ("anytime",): "list",
    ("zones",): "map", ("variables",): "map", ("functions",): "map", ("procedures",): "map",
    ("flow",): "group", ("flow", "phases"): "list",
    ("map",): "group", ("map", "regions"): "list", ("map", "nodes"): "list",
    ("map", "edges"): "list",
    ("properties",): "group", ("properties", "cards"): "map", ("properties", "nodes"): "map",
    ("properties", "edges"): "map", ("properties", "regions"): "map",
}

# What ``remove:`` names, and where it lives in the merged sections.
REMOVABLE: dict[str, JsonPath] = {
    "cards": ("cards",), "anytime": ("anytime",), "zones": ("zones",),
    "variables": ("variables",), "functions": ("functions",), "procedures": ("procedures",),
    "phases": ("flow", "phases"), "regions": ("map", "regions"), "nodes": ("map", "nodes"),
    "edges": ("map", "edges"),
}

_WHAT: dict[JsonPath, str] = {
    ("properties", "cards"): "card property", ("properties", "nodes"): "node property",
    ("properties", "edges"): "edge property", ("properties", "regions"): "region property",
    ("cards",): "card", ("anytime",): "anytime action", ("zones",): "zone",
    ("variables",): "variable", ("functions",): "function", ("procedures",): "procedure",
    ("flow", "phases"): "phase", ("map", "regions"): "region", ("map", "nodes"): "node",
    ("map", "edges"): "edge"}


def item_keys(path: JsonPath, value: Any) -> set[str]:
    """The names an item of a list section answers to (an edge: its id, and FROM-TO both ways)."""
    keys: set[str] = set()
    if path == ("map", "edges"):
        ends = value if isinstance(value, list) else [value.get("from"), value.get("to")]
        if len(ends) == 2:
            keys |= {f"{ends[0]}-{ends[1]}", f"{ends[1]}-{ends[0]}"}
    if isinstance(value, dict) and isinstance(value.get("id"), str):
        keys.add(value["id"])
    return keys


class MergedDocument(YamlDocument):
    """Data merged from several documents; each position is looked up in the document (and at
    the path) its value came from."""

    def __init__(self, name: str, data: Any, routes: dict[JsonPath, tuple[YamlDocument,
                                                                           JsonPath]]) -> None:
        super().__init__(path=Path(name), display_name=name, text="", data=data)
        self.routes = routes

    def resolve(self, path: Sequence[str | int]) -> tuple[YamlDocument, JsonPath]:
        """The document the value at ``path`` comes from, and its path there."""
        doc, real = self._hop(tuple(path))
        return doc.resolve(real)

    def _hop(self, path: JsonPath) -> tuple[YamlDocument, JsonPath]:
        for n in range(len(path), -1, -1):
            hit = self.routes.get(path[:n])
            if hit is not None:
                return hit[0], hit[1] + path[n:]
        # nothing merged at all: positions are those of an empty file of this name
        return YamlDocument(self.path, self.display_name, "", None), path

    def location(self, path: Sequence[str | int]) -> Location:
        doc, real = self.resolve(path)
        return doc.location(real)

    def key_location(self, path: Sequence[str | int]) -> Location:
        doc, real = self.resolve(path)
        return doc.key_location(real)

    def text_location(self, path: Sequence[str | int], line: int, column: int) -> Location:
        doc, real = self.resolve(path)
        return doc.text_location(real, line, column)

    def has_path(self, path: Sequence[str | int]) -> bool:
        doc, real = self.resolve(path)
        return doc.has_path(real)

    def scalar_origin(self, path: Sequence[str | int]) -> tuple[Location, str]:
        doc, real = self.resolve(path)
        return doc.scalar_origin(real)

    def raw_text(self, path: Sequence[str | int]) -> str | None:
        doc, real = self.resolve(path)
        return doc.raw_text(real)


class Merger:
    """Collects the sections of content files, merging them as files of one pack (``add``) or
    as the changes of a variant to the pack it extends (``change``)."""

    def __init__(self, errors: list[PackError]) -> None:
        self.errors = errors
        self.order: list[JsonPath] = []  # parts in the order they were first given
        self.first: dict[JsonPath, Item] = {}  # where each part was first given
        self.values: dict[JsonPath, Item] = {}
        self.maps: dict[JsonPath, dict[str, Item]] = {}
        self.lists: dict[JsonPath, list[Item]] = {}

    def add(self, doc: YamlDocument, changes: bool = False) -> None:
        """Merge the sections of ``doc``: another file of the same pack, or (``changes``) a file
        of a variant, whose items replace those of the same id."""
        data = doc.data
        if "remove" in data:
            if changes:
                self._remove(doc, data["remove"])
            else:
                self.errors.append(SchemaError(
                    "'remove' is for a variant: this pack extends no other pack",
                    doc.key_location(("remove",)),
                    "add extends: BASE to pack.yaml, or delete what you want to remove"))
        for key, value in data.items():
            if key != "remove":
                self._merge((key,), value, doc, changes)

    def _merge(self, path: JsonPath, value: Any, doc: YamlDocument, changes: bool) -> None:
        kind = _LAYOUT.get(path, "value")
        if path not in self.first:
            self.first[path] = (value, doc, path)
            self.order.append(path)
        if kind == "group" and isinstance(value, dict):
            for key, part in value.items():
                self._merge((*path, key), part, doc, changes)
        elif kind == "map" and isinstance(value, dict):
            entries = self.maps.setdefault(path, {})
            for name, entry in value.items():
                if name in entries and not changes:
                    self.errors.append(SchemaError(
                        f"{_WHAT[path]} '{name}' is already given at "
                        f"{entries[name][1].key_location((*entries[name][2],))}",
                        doc.key_location((*path, name)),
                        "give each one once, in one file"))
                    continue
                entries[name] = (entry, doc, (*path, name))
        elif kind == "list" and isinstance(value, list):
            items = self.lists.setdefault(path, [])
            for i, entry in enumerate(value):
                self._list_item(items, path, (entry, doc, (*path, i)), changes)
        else:
            if path in self.values and not changes:
                first = self.values[path][1]
                self.errors.append(SchemaError(
                    f"'{'.'.join(map(str, path))}' is already given in {first.display_name}",
                    doc.key_location(path), "give it once, in one file"))
                return
            self.values[path] = (value, doc, path)

    def _list_item(self, items: list[Item], path: JsonPath, item: Item, changes: bool) -> None:
        keys = item_keys(path, item[0])
        at = next((k for k, old in enumerate(items) if changes and keys & item_keys(path,
                                                                                  old[0])), None)
        anchor = self._anchor(items, path, item)
        if at is not None and anchor is None:
            items[at] = item  # replaced where it was
            return
        if at is not None:
            del items[at]
            anchor = self._anchor(items, path, item)
        if anchor is None:
            items.append(item)
        else:
            items.insert(anchor, item)

    def _anchor(self, items: list[Item], path: JsonPath, item: Item) -> int | None:
        """Where ``before: ID`` or ``after: ID`` of an item puts it, or None."""
        entry, doc, real = item
        if not isinstance(entry, dict):
            return None
        for word, shift in (("before", 0), ("after", 1)):
            name = entry.get(word)
            if name is None:
                continue
            for k, old in enumerate(items):
                if name in item_keys(path, old[0]):
                    return k + shift
            known = [key for old in items for key in sorted(item_keys(path, old[0]))]
            self.errors.append(SchemaError(f"no {_WHAT[path]} '{name}' to put this one {word}",
                                           doc.location((*real, word)),
                                           did_you_mean(str(name), known)))
        return None

    def _remove(self, doc: YamlDocument, spec: dict[str, list[str]]) -> None:
        for section, names in spec.items():
            path = REMOVABLE[section]
            for i, name in enumerate(names):
                if not self._remove_one(path, name):
                    known = (self.maps.get(path, {}).keys() if path in self.maps else
                             [k for it in self.lists.get(path, []) for k in item_keys(path, it[0])])
                    self.errors.append(SchemaError(
                        f"there is no {_WHAT[path]} '{name}' to remove",
                        doc.location(("remove", section, i)), did_you_mean(name, known)))
            if section == "nodes":  # routes cannot outlive their ends
                gone = set(names)
                edges = self.lists.get(("map", "edges"), [])
                edges[:] = [e for e in edges if not gone & _ends(e[0])]

    def _remove_one(self, path: JsonPath, name: str) -> bool:
        if path in self.maps:
            return self.maps[path].pop(name, None) is not None
        items = self.lists.get(path, [])
        for k, item in enumerate(items):
            if name in item_keys(path, item[0]):
                del items[k]
                return True
        return False

    def document(self, name: str) -> MergedDocument:
        """The merged sections, as one document."""
        data: dict[str, Any] = {}
        routes: dict[JsonPath, tuple[YamlDocument, JsonPath]] = {}
        for path in self.order:
            _, doc, real = self.first[path]
            routes[path] = (doc, real)
            if path in self.values:
                value, doc, real = self.values[path]
                routes[path] = (doc, real)
            elif path in self.maps:
                value = {}
                for key, (entry, doc, real) in self.maps[path].items():
                    value[key] = entry
                    routes[(*path, key)] = (doc, real)
            elif path in self.lists:
                value = []
                for i, (entry, doc, real) in enumerate(self.lists[path]):
                    value.append(entry)
                    routes[(*path, i)] = (doc, real)
            else:
                value = {}
            _put(data, path, value)
        if self.order:
            routes[()] = routes[self.order[0][:1]]
        return MergedDocument(name, data, routes)


def _ends(edge: Any) -> set[str]:
    ends = edge if isinstance(edge, list) else [edge.get("from"), edge.get("to")]
    return {str(end) for end in ends}


def _put(data: dict[str, Any], path: JsonPath, value: Any) -> None:
    target = data
    for key in path[:-1]:
        target = target.setdefault(str(key), {})
    if path[-1] not in target or not isinstance(target[path[-1]], dict):
        target[str(path[-1])] = value


def merge_manifest(base: YamlDocument, variant: YamlDocument) -> MergedDocument:
    """The manifest of a variant: its own id, name, version, files; the roles, parameters and
    display of its base, changed where it gives them."""
    own = ("id", "name", "version", "description", "extends", "include", "scenarios", "rules")
    data: dict[str, Any] = {}
    routes: dict[JsonPath, tuple[YamlDocument, JsonPath]] = {(): (variant, ())}
    for key, value in base.data.items():
        if key not in own:
            data[key] = value
            routes[(key,)] = (base, (key,))
    for key, value in variant.data.items():
        if key in ("parameters", "display") and isinstance(data.get(key), dict):
            merged = dict(data[key])
            for name, spec in value.items():
                old = merged.get(name)
                if key == "parameters" and isinstance(old, dict):
                    merged[name] = {**old, **spec}
                    for part in spec:
                        routes[(key, name, part)] = (variant, (key, name, part))
                else:
                    merged[name] = spec
                    routes[(key, name)] = (variant, (key, name))
            data[key] = merged
        else:
            data[key] = value
            routes[(key,)] = (variant, (key,))
    return MergedDocument(variant.display_name, data, routes)
