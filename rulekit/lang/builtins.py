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
        Builtin("count", ("list",), "int", len),
        Builtin("sum", ("list",), "int", lambda numbers: checked(sum(numbers))),
        Builtin("max", ("any",), "int", _extreme(max), variadic=True),
        Builtin("min", ("any",), "int", _extreme(min), variadic=True),
        Builtin("abs", ("int",), "int", abs),
        Builtin("any", ("list",), "bool", any),
        Builtin("all", ("list",), "bool", all),
        Builtin("first", ("list",), _elem, lambda xs: xs[0] if xs else None),
        Builtin("top", ("list",), _elem, lambda xs: xs[-1] if xs else None),
        Builtin("reverse", ("list",), lambda t: t[0] if t else "list",
                lambda xs: list(reversed(xs))),
        Builtin("sorted", ("list",), lambda t: t[0] if t else "list", sorted),
        Builtin("range", ("int", "int"), "list:int", _range),
        Builtin("text", ("any",), "text", lambda value: checked(as_text(value))),
        # The value itself, made public on purpose: a public log line may print it.
        Builtin("reveal", ("any",), lambda t: t[0] if t else "any", lambda value: value),
    ]
}

# Built-ins that need the pack (roles, cards, the map), written by the compiler: the types of
# their parameters and of their result (docs/effect-language.md says what each does).
PACK_BUILTINS: dict[str, tuple[tuple[str, ...], str]] = {
    "other": (("role",), "role"),
    "roles": ((), "list:role"),
    "cards": ((), "list:card"),
    "nodes": ((), "list:node"),
    "edges": ((), "list:edge"),
    "regions": ((), "list:region"),
    "neighbors": (("node",), "list:node"),
    "edge": (("node", "node"), "edge"),
    "edges_of": (("node",), "list:edge"),
    "ends": (("edge",), "list:node"),
    "nodes_in": (("region",), "list:node"),
    "distance": (("node", "node"), "int"),
}
