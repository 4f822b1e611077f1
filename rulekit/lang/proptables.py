"""Tables of the components' properties that generated code reads: one lookup by component.

Each table is made at compile time and bound in the namespace of generated code. Code reads
``table[x]`` rather than ``C[x][attr]``.
"""

from __future__ import annotations

import itertools

from rulekit.lang import nodes as n
from rulekit.model.symbols import Symbols


class Bindings:
    """The namespace of generated code, and the names it binds values to.

    Values without a literal are bound to ``_k0``, ``_k1``...; ``counter`` numbers them.
    """

    def __init__(self, ns: dict[str, object]) -> None:
        self.ns = ns
        self.counter = itertools.count()

    def bind(self, value: object) -> str:
        """A new name in the namespace, bound to ``value``."""
        name = f"_k{next(self.counter)}"
        self.ns[name] = value
        return name


class PropertyTables:
    """The tables of properties of one pack's components, made as code needs them."""

    def __init__(self, symbols: Symbols, bindings: Bindings) -> None:
        self.symbols = symbols
        self.constant = bindings.bind
        self._tables: dict[tuple[str, bool], str | None] = {}  # by property and strictness

    def of(self, e: n.Attr) -> str | None:
        """The name of the table of ``e``'s property (see :meth:`table`), if any.

        It is strict for ``id``, ``name`` and a property every card has.
        """
        strict = e.attr in ("id", "name") or (
            e.obj_kind == "card" and all(e.attr in card for card in self.symbols.cards.values())
        )
        return self.table(e.attr, strict)

    def table(self, attr: str, strict: bool) -> str | None:
        """The name of the table of property ``attr``, by component.

        It holds each component's value, none where a component lacks the property. If
        ``strict``, there is none unless every component has it. Then ``C[x][attr]`` fails
        as it should.
        """
        key = (attr, strict)
        if key not in self._tables:
            components = self.symbols.components()
            if strict and not all(attr in props for props in components.values()):
                self._tables[key] = None
            else:
                table = {ident: props.get(attr) for ident, props in components.items()}
                self._tables[key] = self.constant(table)
        return self._tables[key]
