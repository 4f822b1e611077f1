"""The properties of components read through tables, in generated code: one lookup of a dict
made at compile time, by component, rather than two and a call (``C[x][attr]``).

:class:`PropertyTables` is the part of :class:`~rulekit.lang.pyexpr.ExprWriter` that makes
these tables, one per property, bound in the namespace of the generated code, and the lookups
(``table.__getitem__``) that playout versions ``map`` over a list.
"""

from __future__ import annotations

import itertools
from typing import Any

from rulekit.lang import nodes as n
from rulekit.lang.exprfacts import reads_local
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
        self._getters: dict[str, str] = {}  # the lookup of a table, by the table's name

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

    def getter(self, item: n.Expr, slot: int) -> str | None:
        """The name of the lookup of the table of ``item``'s property, if ``item`` reads a
        property of local ``slot`` (``x.p``, with a table: :meth:`of`), else None."""
        if not (isinstance(item, n.Attr) and reads_local(item.obj, slot)):
            return None
        table = self.of(item)
        if table is None:
            return None
        getter = self._getters.get(table)
        if getter is None:
            getter = self._getters[table] = self.constant(self.ns[table].__getitem__)
        return getter


__all__ = ["Bindings", "PropertyTables"]
