"""Read-only plain data: lists and dicts that cannot be changed.

They equal plain ones and serialise as them. Observations and logged events are made of them.
So an observation can show a state's events themselves. ``list(...)``, ``dict(...)``,
:func:`thaw`, ``copy.deepcopy``, JSON and ``pickle`` give plain copies.
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

    def __copy__(self) -> list[object]:
        return list(self)

    def __deepcopy__(self, memo: dict[int, object]) -> list[object]:
        return [thaw(v) for v in self]

    def __reduce__(self) -> tuple[type, tuple[list[object]]]:
        return (list, (list(self),))


class FrozenDict(dict[str, Any]):
    """A dict that cannot be changed; it equals and serialises as a plain dict.

    One that rulekit makes is read-only at every depth.
    """

    __slots__ = ()
    __setitem__ = __delitem__ = __ior__ = _read_only
    clear = pop = popitem = setdefault = update = _read_only

    def __copy__(self) -> dict[str, object]:
        return dict(self)

    def __deepcopy__(self, memo: dict[int, object]) -> dict[str, object]:
        return {k: thaw(v) for k, v in self.items()}

    def __reduce__(self) -> tuple[type, tuple[dict[str, object]]]:
        return (dict, (dict(self),))


def freeze(value: _T) -> _T:
    """A read-only copy of a plain-data value; a read-only value is its own.

    Its dicts and lists become FrozenDicts and FrozenLists.
    """
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
