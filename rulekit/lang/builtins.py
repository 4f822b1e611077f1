"""The built-in functions of the effect language: their signatures and implementations."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rulekit.engine.helpers import LIST_LIMIT, LimitExceeded, as_text, checked
from rulekit.engine.state import Value


@dataclass(frozen=True)
class Builtin:
    """One built-in function: its parameters' types, its result's type, what it does."""

    name: str
    params: tuple[str, ...]  # the type of each argument
    result: str | Callable[[list[str]], str]
    doc: str
    impl: Callable[..., Value]
    variadic: bool = False

    def result_type(self, arg_types: list[str]) -> str:
        """The type of the result, given the types of the arguments."""
        return self.result if isinstance(self.result, str) else self.result(arg_types)


def element_type(kind: str) -> str:
    """The type of an item of a list of type ``kind``: ``card`` for ``list:card``."""
    return kind.split(":", 1)[1] if kind.startswith("list:") else "any"


def _elem(types: list[str]) -> str:
    """The type of an item of the first argument, a list."""
    return element_type(types[0] if types else "any")


def _extreme(pick: Callable[..., Value]) -> Callable[..., Value]:
    """``max`` or ``min`` of a list (0 if empty), or of several numbers."""
    def extreme(*args: Value) -> Value:
        if len(args) == 1:
            return pick(args[0]) if args[0] else 0
        return pick(args)
    return extreme


def _range(a: int, b: int) -> list[int]:
    """The numbers from ``a`` to ``b``, both included."""
    if b - a + 1 > LIST_LIMIT:
        raise LimitExceeded(f"range({a}, {b}) is too long: lists hold at most {LIST_LIMIT:,} "
                            "items")
    return list(range(a, b + 1))


BUILTINS: dict[str, Builtin] = {
    b.name: b
    for b in [
        Builtin("count", ("list",), "int", "Number of items in a list or cards in a zone.", len),
        Builtin("sum", ("list",), "int", "Sum of a list of integers (0 for an empty list).",
                lambda numbers: checked(sum(numbers))),
        Builtin("max", ("any",), "int",
                "Largest of a list of integers (0 if empty), or of several integers.",
                _extreme(max), variadic=True),
        Builtin("min", ("any",), "int",
                "Smallest of a list of integers (0 if empty), or of several integers.",
                _extreme(min), variadic=True),
        Builtin("abs", ("int",), "int", "Absolute value.", abs),
        Builtin("any", ("list",), "bool", "True if some item of the list is true.", any),
        Builtin("all", ("list",), "bool", "True if every item of the list is true.", all),
        Builtin("first", ("list",), _elem, "First item of a list (the bottom card of a zone), "
                "or none if empty.", lambda xs: xs[0] if xs else None),
        Builtin("top", ("list",), _elem, "Top card of a zone (last item of a list), "
                "or none if empty.", lambda xs: xs[-1] if xs else None),
        Builtin("reverse", ("list",), lambda t: t[0] if t else "list",
                "The list in reverse order.", lambda xs: list(reversed(xs))),
        Builtin("sorted", ("list",), lambda t: t[0] if t else "list",
                "The list sorted in increasing order.", sorted),
        Builtin("range", ("int", "int"), "list:int",
                "The integers from the first up to the second, both included.", _range),
        Builtin("text", ("any",), "text", "The value written as text.",
                lambda value: checked(as_text(value))),
        Builtin("reveal", ("any",), lambda t: t[0] if t else "any",
                "The value itself, made public on purpose: the rules tell it to every player "
                "here (the lint then does not warn of a public log line that prints it).",
                lambda value: value),
    ]
}

# Built-ins that need the pack (roles, cards) are implemented by the compiler.
PACK_BUILTINS: dict[str, tuple[tuple[str, ...], str, str]] = {
    "other": (("role",), "role", "The next role in seating order (the opponent in a "
              "two-player game)."),
    "roles": ((), "list:role", "Every role, in seating order."),
    "cards": ((), "list:card", "Every card of the pack."),
    "nodes": ((), "list:node", "Every node of the map, in declaration order."),
    "edges": ((), "list:edge", "Every edge of the map, in declaration order."),
    "regions": ((), "list:region", "Every region of the map, in declaration order."),
    "neighbors": (("node",), "list:node", "The nodes joined to a node by an edge."),
    "edge": (("node", "node"), "edge", "The edge between two nodes, or none."),
    "edges_of": (("node",), "list:edge", "The edges that touch a node."),
    "ends": (("edge",), "list:node", "The two nodes an edge joins."),
    "nodes_in": (("region",), "list:node", "The nodes of a region."),
    "distance": (("node", "node"), "int", "The fewest edges between two nodes "
                 "(-1 if there is no path)."),
}
