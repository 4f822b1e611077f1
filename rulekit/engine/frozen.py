"""Read-only lists and dicts, equal to plain ones: observations and logged events.

``list(...)``, ``dict(...)``, :func:`thaw`, ``copy`` (by ``__reduce__``), JSON and ``pickle``
give plain copies.
"""

from __future__ import annotations

from typing import Any, NoReturn, TypeVar, cast

READ_ONLY = "an observation is read-only (copy it to change it)"

SCALARS = frozenset({str, int, bool, float, type(None)})
_T = TypeVar("_T")


def _read_only(*_: object, **__: object) -> NoReturn:
    raise TypeError(READ_ONLY)


class FrozenList(list[Any]):
    """A list that cannot be changed; it equals and serialises as a plain list."""

    __slots__ = ()
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _read_only
    append = extend = insert = pop = remove = clear = sort = reverse = _read_only

    def __reduce__(self) -> tuple[type, tuple[list[object]]]:
        return (list, (list(self),))


class FrozenDict(dict[str, Any]):
    """A dict that cannot be changed; it equals and serialises as a plain dict."""

    __slots__ = ()
    __setitem__ = __delitem__ = __ior__ = _read_only
    clear = pop = popitem = setdefault = update = _read_only

    def __reduce__(self) -> tuple[type, tuple[dict[str, object]]]:
        return (dict, (dict(self),))


def freeze(value: _T) -> _T:
    """A read-only copy of a plain-data value (a read-only value is its own)."""
    if value.__class__ in SCALARS or isinstance(value, (FrozenDict, FrozenList)):
        return value
    if isinstance(value, dict):
        return cast(_T, FrozenDict({key: freeze(item) for key, item in value.items()}))
    if isinstance(value, list):
        return cast(_T, FrozenList([freeze(item) for item in value]))
    return value


def thaw(value: _T) -> _T:
    """A plain, changeable copy of a plain-data value."""
    if isinstance(value, dict):
        return cast(_T, {key: thaw(item) for key, item in value.items()})
    if isinstance(value, list):
        return cast(_T, [thaw(item) for item in value])
    return value
