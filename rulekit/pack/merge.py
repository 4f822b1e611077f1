"""Merge the sections of several pack files, or of a variant and its base, into one document."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from rulekit.errors import Location, PackError, SchemaError, did_you_mean, near_name
from rulekit.source.document import JsonPath, YamlDocument

Route = tuple[YamlDocument, JsonPath]
"""The document a merged value comes from, and its path there."""


class Item(NamedTuple):
    """A value, the document it comes from and its path there."""

    value: object
    doc: YamlDocument
    path: JsonPath

    @property
    def route(self) -> Route:
        return self.doc, self.path


# What an entry of each part is called, in the order ``rulekit docs`` lists a variant's changes.
ENTRY_NAMES: dict[JsonPath, str] = {
    ("cards",): "card", ("card_types",): "card type", ("anytime",): "anytime action",
    ("zones",): "zone", ("variables",): "variable", ("functions",): "function",
    ("procedures",): "procedure", ("flow", "phases"): "phase", ("map", "regions"): "region",
    ("map", "nodes"): "node", ("map", "edges"): "edge",
    ("properties", "cards"): "card property", ("properties", "nodes"): "node property",
    ("properties", "edges"): "edge property", ("properties", "regions"): "region property"}

# The parts that are lists of items with ids (the others with entries map names to entries),
# and the groups of parts; any other value a later file replaces whole.
_LISTS = {("cards",), ("anytime",), ("flow", "phases"), ("map", "regions"), ("map", "nodes"),
          ("map", "edges")}
_GROUPS = {path[:1] for path in ENTRY_NAMES if len(path) > 1}

# What ``remove:`` names (the last key of a part's path), and where it lives.
REMOVABLE: dict[str, JsonPath] = {str(path[-1]): path for path in ENTRY_NAMES
                                  if path[0] not in ("card_types", "properties")}

_EDGES: JsonPath = ("map", "edges")

# The keys of a manifest that a variant never takes from its base.
_VARIANT_OWN = ("id", "name", "version", "description", "extends", "include", "scenarios",
                "rules")


def item_keys(path: JsonPath, value: object) -> set[str]:
    """The names an item of a list section answers to (an edge without an id: FROM-TO, TO-FROM)."""
    keys: set[str] = set()
    if path == _EDGES and not (isinstance(value, dict) and "id" in value):
        ends = _edge_ends(value)
        if len(ends) == 2:
            keys |= {f"{ends[0]}-{ends[1]}", f"{ends[1]}-{ends[0]}"}
    if isinstance(value, dict) and isinstance(value.get("id"), str):
        keys.add(value["id"])
    return keys


def _edge_ends(edge: object) -> list[object]:
    """The ends of an edge: ``[A, B]``, or ``{from: A, to: B}``."""
    if isinstance(edge, dict):
        return [edge.get("from"), edge.get("to")]
    return edge if isinstance(edge, list) else []


def _index_of(items: Sequence[Item], path: JsonPath, name: object) -> int | None:
    return next((k for k, item in enumerate(items) if name in item_keys(path, item.value)), None)


def _known_names(items: Sequence[Item], path: JsonPath) -> list[str]:
    return [key for item in items for key in sorted(item_keys(path, item.value))]


class MergedDocument(YamlDocument):
    """Data merged from several documents; a position is looked up where its value came from."""

    def __init__(self, name: str, data: object, routes: dict[JsonPath, Route]) -> None:
        super().__init__(path=Path(name), display_name=name, text="", data=data)
        self.routes = routes

    def resolve(self, path: Sequence[str | int]) -> Route:
        """The document and path that the value at ``path`` comes from."""
        path = tuple(path)
        for n in range(len(path), -1, -1):
            hit = self.routes.get(path[:n])
            if hit is not None:
                return hit[0].resolve(hit[1] + path[n:])
        # nothing merged at all: positions are those of an empty file of this name
        return YamlDocument(self.path, self.display_name, "", None), path


class Merger:
    """Collects the sections of content files: the same pack's, or a variant's changes."""

    def __init__(self, errors: list[PackError]) -> None:
        self.errors = errors
        self.order: list[JsonPath] = []  # parts in the order they were first given
        self.first: dict[JsonPath, Item] = {}  # where each part was first given
        self.values: dict[JsonPath, Item] = {}
        self.maps: dict[JsonPath, dict[str, Item]] = {}
        self.lists: dict[JsonPath, list[Item]] = {}
        self.base_id: str | None = None  # for a variant's changes: the base, and its names
        self.base: dict[JsonPath, set[str]] = {}

    def start_changes(self, base_id: str) -> None:
        """Take what follows as a variant's changes to what is merged so far (its base)."""
        self.base_id = base_id
        self.base = {path: set(self._known(path)) for path in ENTRY_NAMES}

    def _addition(self, path: JsonPath, name: object, value: object, where: Location,
                  replaces: bool) -> object:
        """An entry without its ``new`` mark; an error if a variant's looks like a typo."""
        value, new = _unmarked(value)
        if self.base_id is not None and path != _EDGES and isinstance(name, str):
            check_addition(ENTRY_NAMES[path], name, self.base[path], self.base_id, new,
                           replaces, where, self.errors)
        return value

    def add(self, doc: YamlDocument, changes: bool = False) -> None:
        """Merge the sections of ``doc``; with ``changes``, its items replace those of their id."""
        data = doc.data
        if "remove" in data and changes:
            self._remove(doc, data["remove"])
        elif "remove" in data:
            self.errors.append(SchemaError(
                "'remove' is for a variant: this pack extends no other pack",
                doc.key_location(("remove",)),
                "add extends: BASE to pack.yaml, or delete what you want to remove"))
        for key, value in data.items():
            if key != "remove":
                self._merge((key,), value, doc, changes)

    def _merge(self, path: JsonPath, value: object, doc: YamlDocument, changes: bool) -> None:
        if path not in self.first:
            self.first[path] = Item(value, doc, path)
            self.order.append(path)
        match value:
            case dict() if path in _GROUPS:
                for key, part in value.items():
                    self._merge((*path, key), part, doc, changes)
            case dict() if path in ENTRY_NAMES and path not in _LISTS:
                self._merge_entries(path, value, doc, changes)
            case list() if path in _LISTS:
                items = self.lists.setdefault(path, [])
                for i, entry in enumerate(value):
                    self._place(items, path, Item(entry, doc, (*path, i)), changes)
            case _:
                self._merge_value(path, value, doc, changes)

    def _merge_entries(self, path: JsonPath, value: dict[str, object], doc: YamlDocument,
                       changes: bool) -> None:
        """Merge named entries; only a variant may give a name again."""
        entries = self.maps.setdefault(path, {})
        for name, entry in value.items():
            if name in entries and not changes:
                first = entries[name]
                self.errors.append(SchemaError(
                    f"{ENTRY_NAMES[path]} '{name}' is already given at "
                    f"{first.doc.key_location(first.path)}",
                    doc.key_location((*path, name)), "give each one once, in one file"))
                continue
            entry = self._addition(path, name, entry, doc.key_location((*path, name)),
                                   name in entries)
            if name in entries and path == ("procedures",):
                _keep_base(entries, name)
            entries[name] = Item(entry, doc, (*path, name))

    def _merge_value(self, path: JsonPath, value: object, doc: YamlDocument,
                     changes: bool) -> None:
        """Merge a value; only a variant may replace it."""
        if path in self.values and not changes:
            first = self.values[path].doc
            self.errors.append(SchemaError(
                f"'{'.'.join(map(str, path))}' is already given in {first.display_name}",
                doc.key_location(path), "give it once, in one file"))
            return
        self.values[path] = Item(value, doc, path)

    def _place(self, items: list[Item], path: JsonPath, item: Item, changes: bool) -> None:
        """Put an item in place of its id's, at its anchor, or last."""
        keys = item_keys(path, item.value) if changes else set()
        at = next((k for k, old in enumerate(items) if keys & item_keys(path, old.value)),
                  None) if keys else None
        if isinstance(item.value, dict):
            value = self._addition(path, item.value.get("id"), item.value,
                                   item.doc.location(item.path), at is not None)
            item = item._replace(value=value)
        anchor = self._anchor(items, path, item)
        if at is not None and anchor is None:
            items[at] = item  # replaced where it was
            return
        if at is not None:
            del items[at]
            anchor = self._anchor(items, path, item)
        items.insert(len(items) if anchor is None else anchor, item)

    def _anchor(self, items: list[Item], path: JsonPath, item: Item) -> int | None:
        """Where ``before: ID`` or ``after: ID`` of an item puts it, or None."""
        if not isinstance(item.value, dict):
            return None
        for word, shift in (("before", 0), ("after", 1)):
            name = item.value.get(word)
            if name is None:
                continue
            found = _index_of(items, path, name)
            if found is not None:
                return found + shift
            self.errors.append(SchemaError(
                f"no {ENTRY_NAMES[path]} '{name}' to put this one {word}",
                item.doc.location((*item.path, word)),
                did_you_mean(str(name), _known_names(items, path))))
        return None

    def _remove(self, doc: YamlDocument, spec: dict[str, list[str]]) -> None:
        for section, names in spec.items():
            path = REMOVABLE[section]
            for i, name in enumerate(names):
                if not self._remove_one(path, name):
                    self.errors.append(SchemaError(
                        f"there is no {ENTRY_NAMES[path]} '{name}' to remove",
                        doc.location(("remove", section, i)),
                        did_you_mean(name, self._known(path))))
            if section == "nodes":  # routes cannot outlive their ends
                edges = self.lists.get(_EDGES, [])
                edges[:] = [edge for edge in edges
                            if not set(names) & {str(end) for end in _edge_ends(edge.value)}]

    def _known(self, path: JsonPath) -> list[str]:
        """The names the entries or items of a section answer to."""
        if path in self.maps:
            return list(self.maps[path])
        return _known_names(self.lists.get(path, []), path)

    def _remove_one(self, path: JsonPath, name: str) -> bool:
        if path in self.maps:
            return self.maps[path].pop(name, None) is not None
        items = self.lists.get(path, [])
        at = _index_of(items, path, name)
        if at is not None:
            del items[at]
        return at is not None

    def document(self, name: str) -> MergedDocument:
        """The merged sections, as one document."""
        data: dict[str, object] = {}
        routes: dict[JsonPath, Route] = {}
        for path in self.order:
            routes[path] = self.first[path].route
            _put(data, path, self._merged(path, routes))
        if self.order:
            routes[()] = routes[self.order[0][:1]]
        return MergedDocument(name, data, routes)

    def _merged(self, path: JsonPath, routes: dict[JsonPath, Route]) -> object:
        if path in self.values:
            routes[path] = self.values[path].route
            return self.values[path].value
        if path in self.maps:
            entries = self.maps[path]
            routes.update({(*path, key): entry.route for key, entry in entries.items()})
            return {key: entry.value for key, entry in entries.items()}
        items = self.lists.get(path, [])
        routes.update({(*path, i): item.route for i, item in enumerate(items)})
        return [item.value for item in items] if path in self.lists else {}


def _keep_base(entries: dict[str, Item], name: str) -> None:
    """Keep a replaced procedure as ``NAME@base``, which ``base(...)`` calls."""
    kept = f"{name}@base"
    if kept in entries:
        _keep_base(entries, kept)
    entries[kept] = entries[name]


def _put(data: dict[str, object], path: JsonPath, value: object) -> None:
    target = data
    for key in path[:-1]:
        group = target.setdefault(str(key), {})
        target = group if isinstance(group, dict) else {}
    if path[-1] not in target or not isinstance(target[str(path[-1])], dict):
        target[str(path[-1])] = value


def _unmarked(value: object) -> tuple[object, bool]:
    """A value without its ``new`` mark, and whether it said ``new: true``."""
    if not isinstance(value, dict) or "new" not in value:
        return value, False
    return {key: part for key, part in value.items() if key != "new"}, value["new"] is True


def check_addition(what: str, name: str, base: set[str], base_id: str, new: bool,
                   replaces: bool, where: Location, errors: list[PackError]) -> None:
    """An error if a variant's entry looks like a typo, or says new in vain."""
    close = None if new or replaces else near_name(name, base)
    if new and replaces and name in base:
        errors.append(SchemaError(
            f"{what} '{name}' is in the base pack {base_id}: this replaces it, it adds nothing",
            where, "remove new: true to replace it, or give the new one a name of its own"))
    elif close is not None:
        errors.append(SchemaError(
            f"{what} '{name}' is not in the base pack {base_id}, so it would be added", where,
            f"did you mean to replace '{close}'? If it is an addition, say so with new: true"))


def merge_manifest(base: YamlDocument, variant: YamlDocument, base_id: str,
                   errors: list[PackError]) -> MergedDocument:
    """A variant's manifest: its own id, name, version and files, the rest from its base."""
    data = {key: value for key, value in base.data.items() if key not in _VARIANT_OWN}
    routes: dict[JsonPath, Route] = {(key,): (base, (key,)) for key in data}
    routes[()] = (variant, ())
    base_params = set(base.data.get("parameters") or {})
    params = {}
    for name, spec in (variant.data.get("parameters") or {}).items():
        params[name], new = _unmarked(spec)
        check_addition("parameter", name, base_params, base_id, new, name in base_params,
                       variant.key_location(("parameters", name)), errors)
    for key, value in variant.data.items():
        value = params if key == "parameters" else value
        entries = data.get(key)
        if key in ("parameters", "display") and isinstance(entries, dict):
            data[key] = _changed_entries(key, entries, value, variant, routes)
        else:
            data[key] = value
            routes[(key,)] = (variant, (key,))
    return MergedDocument(variant.display_name, data, routes)


def _changed_entries(key: str, entries: dict[str, object], changes: dict[str, object],
                     variant: YamlDocument, routes: dict[JsonPath, Route]) -> dict[str, object]:
    """A base's ``parameters`` (key by key) or ``display`` (whole entries), as changed."""
    merged = dict(entries)
    for name, spec in changes.items():
        old = merged.get(name)
        if key == "parameters" and isinstance(old, dict) and isinstance(spec, dict):
            merged[name] = {**old, **spec}
            routes.update({(key, name, part): (variant, (key, name, part)) for part in spec})
        else:
            merged[name] = spec
            routes[(key, name)] = (variant, (key, name))
    return merged
