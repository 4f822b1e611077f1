"""Write a checked expression as Python source: the compiler's expression phase."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from rulekit.engine.helpers import INT_LIMIT, LIST_LIMIT
from rulekit.lang import nodes as n
from rulekit.lang.analysis import (
    SMALL,
    counted_against_zero,
    fits,
    int_bound,
    invariant,
    is_pile,
    is_range,
    is_simple,
    is_zone,
    node_count,
    reads_local,
)
from rulekit.model.program import IndexedKeys, zone_key
from rulekit.model.symbols import Symbols

# In fast mode, a function of the pack whose body has at most this many nodes is written in
# place of its calls.
INLINE_NODES = 60


class ExprWriter:
    """Python source of expressions, over one pack's symbols."""

    def __init__(self, symbols: Symbols, ns: dict[str, Any]) -> None:
        self.symbols = symbols
        self.ns = ns  # the namespace of the generated code
        self._counter = itertools.count()  # numbers the names bound and the generated files
        self._bound: dict[int, str] = {}  # local slots compiled as Python names (binding)
        self.function_trees: dict[str, n.Expr] = {}  # pack function -> its body
        self.function_params: dict[str, int] = {}  # pack function -> number of parameters
        self._tables: dict[tuple[str, bool], str | None] = {}  # by property and strictness
        self.fast = False  # writing the code of playouts (see the module's docstring)
        self._inlining: list[str] = []  # functions written in place now, innermost last
        self._keys: dict[str, str] = {}  # bound names of IndexedKeys, by zone or variable

    @contextmanager
    def fast_code(self) -> Iterator[None]:
        """While writing the code of playouts."""
        saved, self.fast = self.fast, True
        try:
            yield
        finally:
            self.fast = saved

    def constant(self, value: Any) -> str:
        """A new namespace name (``_k0``, ``_k1``...) bound to ``value``, which has no literal."""
        name = f"_k{next(self._counter)}"
        self.ns[name] = value
        return name

    def property_table(self, e: n.Attr) -> str | None:
        """The name of a table of ``e``'s property by component; None if it must fail."""
        attr, cards = e.attr, self.symbols.cards.values()
        strict = attr in ("id", "name") or (e.obj_kind == "card" and all(attr in c for c in cards))
        if (attr, strict) not in self._tables:
            components = self.symbols.components()
            whole = all(attr in props for props in components.values())
            self._tables[attr, strict] = None if strict and not whole else self.constant(
                {ident: props.get(attr) for ident, props in components.items()})
        return self._tables[attr, strict]

    def zone(self, e: n.Expr) -> str:
        """Python source of the key of a zone expression (``deck``, ``hand[p]``)."""
        if isinstance(e, n.Index):
            assert isinstance(e.obj, n.Name)
            return self._indexed_zone(e.obj.ident, e.index)
        assert isinstance(e, n.Name)
        return repr(e.ident)

    def _indexed_zone(self, name: str, index: n.Expr) -> str:
        if isinstance(index, n.Name) and index.ref and index.ref[0] == "const":
            return repr(zone_key(name, str(index.ref[1])))
        if isinstance(index, n.Literal):
            return repr(zone_key(name, str(index.value)))
        decl = self.symbols.zones.get(name) or self.symbols.variables[name]
        assert decl.per is not None  # (the checker refuses an index of a single pile)
        return f"{self._indexed_keys(name, decl.per)}[{self.py(index)}]"

    def _indexed_keys(self, name: str, per: str | int) -> str:
        """The name bound to the keys of the indexed zone or variable ``name``."""
        if name not in self._keys:
            ids = self.symbols.index_domain(per)
            self._keys[name] = self.constant(IndexedKeys(name, per, ids))
        return self._keys[name]

    def py(self, e: n.Expr) -> str:
        """Python source of an expression, reading locals ``L``, zones ``Z``, variables ``V``."""
        method: Callable[[Any], str] = getattr(self, "_x_" + type(e).__name__.lower())
        return method(e)

    def _x_literal(self, e: n.Literal) -> str:
        return repr(e.value)

    def _x_cardlit(self, e: n.CardLit) -> str:
        return repr(e.card_id)

    def _x_name(self, e: n.Name) -> str:
        ref = e.ref
        kind = ref[0]
        if kind == "local":
            return self.local(ref[1])
        if kind == "var":
            return f"V[{ref[1]!r}]"
        if kind == "zone":
            return f"list(Z[{ref[1]!r}])"
        if kind == "const":
            return repr(ref[1])
        name = ref[1]
        return {
            "round": "S['round']",
            "phase": "S['phase']",
            "winner": "(S['result'] or {}).get('winner')",
            "finished": "(S['result'] is not None)",
        }[name]

    def _x_listlit(self, e: n.ListLit) -> str:
        listed = "[" + ", ".join(self.py(i) for i in e.items) + "]"
        return f"_each(rt, {listed})" if len(e.items) > SHORT_LIST else listed

    def read(self, e: n.Expr) -> str:
        """Python source of a value only read: a zone is its list itself."""
        return f"Z[{self.zone(e)}]" if is_zone(e) else self.py(e)

    def walked(self, e: n.Expr, copied: bool = False) -> str:
        """Python source of a list that is only walked, never kept."""
        fixed = self._written_range(e) or self._fixed(e)
        if fixed is not None:
            return fixed
        return self.py(e) if copied else self.read(e)  # (a zone, copied: a list of its cards)

    def _written_range(self, e: n.Expr) -> str | None:
        """Python's range for a ``range`` of two written numbers; else None."""
        if not is_range(e):
            return None
        assert isinstance(e, n.Call)
        low, high = e.args
        if isinstance(low, n.Literal) and isinstance(high, n.Literal) \
                and low.value.__class__ is int and high.value.__class__ is int \
                and high.value - low.value + 1 <= LIST_LIMIT:
            return f"range({low.value}, {high.value + 1})"
        return None

    def _fixed(self, e: n.Expr) -> str | None:
        """Python source of a list no game changes, read in place; else None."""
        if not (isinstance(e, n.Call) and e.ref and e.ref[0] == "pack_builtin"):
            return None
        name = e.ref[1]
        if not e.args:
            return _PACK_LISTS.get(name) or (f"_GW_{name}" if name in _WALKS else None)
        if name in _WALKS and len(e.args) == 1:
            return f"_GW_{name}({self.py(e.args[0])})"
        return None

    def _x_comprehension(self, e: n.Comprehension) -> str:
        mapped = self._property_map(e)
        if mapped is not None:
            return f"list({mapped})"
        iterable = self.walked(e.iterable)  # (Python evaluates it outside the comprehension)
        with self.binding(e.slot) as var:
            if e.condition is not None and invariant(e.condition, e.slot):
                # Worked out once rather than once per item (counted as once per item).
                cond = self.py(e.condition)
                return f"[{self.py(e.element)} for {var} in _each_if(rt, {iterable}, " \
                       f"lambda: {cond})]"
            cond = f" if {self.py(e.condition)}" if e.condition is not None else ""
            # each item counts against the budget
            return f"[{self.py(e.element)} for {var} in _each(rt, {iterable}){cond}]"

    @contextmanager
    def names(self, names: dict[int, str], *, only: bool = False) -> Iterator[None]:
        """While it lasts, these local slots (``only`` these) compile to these Python names."""
        saved = self._bound
        self._bound = names if only else {**saved, **names}
        try:
            yield
        finally:
            self._bound = saved

    def local(self, slot: int) -> str:
        """Python source of a local slot: ``L[slot]`` or a Python name."""
        name = self._bound.get(slot)
        if name is None:
            assert not self._inlining, "a function written in place reads only its own names"
            return f"L[{slot}]"
        return name

    @contextmanager
    def binding(self, slot: int) -> Iterator[str]:
        """While it lasts, local ``slot`` compiles to a new Python name."""
        name = f"_v{len(self._inlining)}_{slot}"
        with self.names({slot: name}):
            yield name

    def _x_attr(self, e: n.Attr) -> str:
        obj = self.py(e.obj)
        table = self.property_table(e)
        if table is not None:
            return f"{table}[{obj}]"
        return f"C[{obj}][{e.attr!r}]"

    def _x_index(self, e: n.Index) -> str:
        obj = e.obj
        if is_pile(obj):
            key = self.zone(e)
            return f"list(Z[{key}])" if obj.ref[0] == "zone" else f"V[{key}]"
        return f"({self.py(obj)})[{self.py(e.index)}]"

    def _x_call(self, e: n.Call) -> str:
        kind, name = e.ref
        if kind == "func":
            inlined = self._inline(name, e.args) if self.fast else None
            args = ", ".join(self.py(a) for a in e.args)
            return inlined or f"_F[{name!r}](rt, [{args}])"
        if kind == "pack_builtin":
            return self._pack_builtin(name, [self.py(a) for a in e.args])
        return self._builtin(name, e.args)

    def _pack_builtin(self, name: str, args: list[str]) -> str:
        """A call of a built-in that needs the pack's roles, cards or map."""
        if name == "other":
            return f"_OTHER[{args[0]}]"
        if name in _PACK_LISTS:
            return f"list({_PACK_LISTS[name]})"
        return f"_G_{name}({', '.join(args)})"

    def _builtin(self, name: str, exprs: list[n.Expr]) -> str:
        """A call of a built-in function; Python's own where it agrees."""
        reading = name in _READING_BUILTINS
        args = [self.read(a) if reading else self.py(a) for a in exprs]
        if name == "count" and is_zone(exprs[0]):
            return f"len(Z[{self.zone(exprs[0])}])"
        if name in ("min", "max") and len(args) > 1:
            return f"{name}({', '.join(args)})"  # Python's own, for two or more numbers
        found = self._property_in(exprs[0]) if name == "any" else None
        if found is not None:
            return found
        if name == "sum" and self._sum_fits(exprs[0]):
            mapped = self._property_map(exprs[0])
            # Python's own: the total cannot outgrow the limits (a comprehension is counted)
            return f"sum({args[0] if mapped is None else mapped})"
        if name == "range":
            return f"_each(rt, _b_range({', '.join(args)}))"
        if name in _WALKING_BUILTINS and len(args) == 1:
            return f"_b_{name}(_each(rt, {args[0]}))"  # the list's size counted
        return f"_b_{name}({', '.join(args)})"

    def _sum_fits(self, e: n.Expr) -> bool:
        """Whether the sum of list ``e`` cannot outgrow the size limits."""
        if not isinstance(e, n.Comprehension):
            return False
        item = e.element
        if isinstance(item, n.Attr):
            values = [props.get(item.attr) for props in self.ns["C"].values()]
            small = all(v.__class__ is int and -SMALL < v < SMALL for v in values)
            return small and bool(values)
        limit = int_bound(item)
        return limit is not None and limit < SMALL

    def _x_unary(self, e: n.Unary) -> str:
        operand = self.py(e.operand)
        return f"(not {operand})" if e.op == "not" else f"(-{operand})"

    def _x_binary(self, e: n.Binary) -> str:
        pile = counted_against_zero(e)
        if pile is not None:  # (a zone is a list: empty when its count is 0)
            zone, empty = pile
            return f"(not Z[{self.zone(zone)}])" if empty else f"(not not Z[{self.zone(zone)}])"
        left = self.py(e.left)
        right = self.read(e.right) if e.op in ("in", "not in") else self.py(e.right)
        if e.walks:  # the size of a list (or text) walked or built is counted
            if e.op == "+":
                return f"_each(rt, _add({left}, {right}))"
            if e.op in ("in", "not in"):
                right = f"_each(rt, {right})"
            else:
                left = f"_each(rt, {left})"
        if e.op in SIZED_OPS and not fits(e):
            if self.fast and is_simple(e.left) and is_simple(e.right):
                return checked_inline(e.op, left, right)
            return f"{SIZED_OPS[e.op]}({left}, {right})"  # within the size limits
        return f"({left} {e.op} {right})"

    def _x_conditional(self, e: n.Conditional) -> str:
        return f"({self.py(e.then)} if {self.py(e.test)} else {self.py(e.otherwise)})"

    # ------------------------------------------------------------ fast forms

    def _property_map(self, e: n.Expr) -> str | None:
        """In fast mode, ``[x.p for x in xs]`` as a map of p's table."""
        if not (self.fast and isinstance(e, n.Comprehension) and e.condition is None):
            return None
        table = self._table_of_local(e.element, e.slot)
        return None if table is None else \
            f"map({table}.__getitem__, _each(rt, {self.walked(e.iterable)}))"

    def _property_in(self, e: n.Expr) -> str | None:
        """In fast mode, ``any([x.p == v for x in xs])`` as ``v in map(<p's table>, xs)``."""
        if not (self.fast and isinstance(e, n.Comprehension) and e.condition is None
                and isinstance(e.element, n.Binary) and e.element.op == "=="):
            return None
        compared = e.element
        for item, value in ((compared.left, compared.right), (compared.right, compared.left)):
            if not is_simple(value) or reads_local(value, e.slot):
                continue
            table = self._table_of_local(item, e.slot)
            if table is not None:
                return (f"({self.py(value)} in map({table}.__getitem__, "
                        f"_each(rt, {self.walked(e.iterable)})))")
        return None

    def _table_of_local(self, item: n.Expr, slot: int) -> str | None:
        """The table of ``item``'s property of local ``slot``, if any."""
        if not (isinstance(item, n.Attr) and reads_local(item.obj, slot)):
            return None
        return self.property_table(item)

    def _inline(self, name: str, args: list[n.Expr]) -> str | None:
        """In fast mode, the body of the pack's small function ``name`` for a call."""
        body = self.function_trees.get(name)
        if body is None or name in self._inlining or node_count(body) > INLINE_NODES \
                or not all(is_simple(a) for a in args) \
                or self.function_params.get(name) != len(args):
            return None
        params = {slot: f"({self.py(a)})" for slot, a in enumerate(args)}
        self._inlining.append(name)
        try:
            with self.names(params, only=True):
                return f"({self.py(body)})"
        finally:
            self._inlining.pop()


def checked_inline(op: str, left: str, right: str) -> str:
    """``left op right`` for names or numbers, checked against the size limits in place."""
    half = INT_LIMIT // 2 if op != "*" else 3_037_000_499  # (the square root of the limit)
    helper = f"{SIZED_OPS[op]}({left}, {right})"
    tests = []
    for side in (left, right):
        digits = side.strip("()").lstrip("-")
        if not digits.isdigit():
            tests.append(f"{side}.__class__ is _INT and -{half} <= {side} <= {half}")
        elif int(digits) > half:
            return helper
    return f"({left} {op} {right} if {' and '.join(tests) or 'True'} else {helper})"


# Operators whose result may outgrow the size limits, and the helpers that check them. Adding
# or taking away a small number cannot: the step budget runs out long before.
SIZED_OPS = {"+": "_add", "-": "_sub", "*": "_mul"}


# The names bound to the roles and the cards, for the built-ins that list them.
_PACK_LISTS = {"roles": "_ROLES", "cards": "_CARD_IDS"}

# The map built-ins whose lists code that only walks them reads in place (engine/graph).
_WALKS = frozenset({"nodes", "edges", "regions", "neighbors", "edges_of", "nodes_in"})

# Built-ins that only read their list (they return an item or a number, never the list).
_READING_BUILTINS = frozenset({"top", "first", "any", "all"})
# Built-ins that walk the list they are given, counted by its size.
_WALKING_BUILTINS = frozenset({"sum", "max", "min", "any", "all", "reverse", "sorted", "text"})
SHORT_LIST = 16  # a written list of more items is counted by its size
