"""Tables of the components' properties that generated code reads: one lookup by component.

A table is made at compile time, one per property, and bound in the namespace of the
generated code: ``table[x]`` rather than ``C[x][attr]``.
"""

from __future__ import annotations

import itertools
from typing import Any

from rulekit.lang import nodes as n
from rulekit.model.symbols import Symbols


class Bindings:
    """The namespace of generated code, and the names it binds values to (``_k0``, ``_k1``,
    ...: for objects without a literal); ``counter`` numbers them."""

    def __init__(self, ns: dict[str, Any]) -> None:
        self.ns = ns
        self.counter = itertools.count()

    def bind(self, value: Any) -> str:
        """A new name in the namespace, bound to ``value``."""
        name = f"_k{next(self.counter)}"
        self.ns[name] = value
        return name


class PropertyTables:
    """The tables of properties of one pack's components (``C`` in the namespace), made as
    code needs them, bound in ``bindings``."""

    def __init__(self, symbols: Symbols, bindings: Bindings) -> None:
        self.symbols = symbols
        self.ns = bindings.ns
        self.constant = bindings.bind
        self._tables: dict[tuple[str, bool], str | None] = {}  # by property and strictness

    def of(self, e: n.Attr) -> str | None:
        """The name of the table of ``e``'s property (:meth:`table`), if any: strict for
        ``id`` and ``name``, and for a property every card has, read of a card."""
        strict = e.attr in ("id", "name") or (
            e.obj_kind == "card" and all(e.attr in card for card in self.symbols.cards.values())
        )
        return self.table(e.attr, strict)

    def table(self, attr: str, strict: bool) -> str | None:
        """The name of a table of property ``attr`` by component: each component's value,
        none where it has no such property; if ``strict``, None unless every component has it
        (``C[x][attr]`` then fails as before)."""
        key = (attr, strict)
        name = self._tables.get(key)
        if name is None and key not in self._tables:
            components: dict[str, dict[str, Any]] = self.ns["C"]
            if strict and not all(attr in props for props in components.values()):
                self._tables[key] = None
                return None
            table = {ident: props.get(attr) for ident, props in components.items()}
            name = self._tables[key] = self.constant(table)
        return name


__all__ = ["Bindings", "PropertyTables"]
