"""Read-only plain data: lists and dicts that cannot be changed.

They equal plain ones and serialise as them. Observations are made of them, and so is every
event of a game with a log, so an observation can show a state's events themselves.
``list(...)``, ``dict(...)``, :func:`thaw`, ``copy.deepcopy``, JSON and ``pickle`` give plain
copies.
"""

from __future__ import annotations

from typing import Any, NoReturn

READ_ONLY = "an observation is read-only (copy it to change it)"

SCALARS = frozenset({str, int, bool, float, type(None)})


def _read_only(*_: Any, **__: Any) -> NoReturn:
    raise TypeError(READ_ONLY)


class FrozenList(list[Any]):
    """A list that cannot be changed; equal to (and serialised as) a plain list."""

    __slots__ = ()
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _read_only
    append = extend = insert = pop = remove = clear = sort = reverse = _read_only

    def __copy__(self) -> list[Any]:
        return list(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> list[Any]:
        return [thaw(v) for v in self]

    def __reduce__(self) -> tuple[Any, ...]:
        return (list, (list(self),))


class FrozenDict(dict[str, Any]):
    """A dict that cannot be changed; equal to (and serialised as) a plain dict. One made by
    rulekit is read-only at every depth (:func:`freeze` takes it as its own copy)."""

    __slots__ = ()
    __setitem__ = __delitem__ = __ior__ = _read_only
    clear = pop = popitem = setdefault = update = _read_only

    def __copy__(self) -> dict[str, Any]:
        return dict(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, Any]:
        return {k: thaw(v) for k, v in self.items()}

    def __reduce__(self) -> tuple[Any, ...]:
        return (dict, (dict(self),))


EMPTY = FrozenList()


def freeze(value: Any) -> Any:
    """A read-only copy of a plain-data value (a read-only value is its own copy)."""
    if value.__class__ in SCALARS or isinstance(value, (FrozenDict, FrozenList)):
        return value
    if isinstance(value, dict):
        return FrozenDict({key: freeze(item) for key, item in value.items()})
    if isinstance(value, list):
        return FrozenList([freeze(item) for item in value])
    return value


def thaw(value: Any) -> Any:
    """A plain, changeable copy of a plain-data value."""
    if isinstance(value, dict):
        return {key: thaw(item) for key, item in value.items()}
    if isinstance(value, list):
        return [thaw(item) for item in value]
    return value
