"""Read-only plain data: lists and dicts that cannot be changed, equal to (and serialised as)
plain ones.

An observation is made of them (``engine/observe``), and so is every log event of a game with
a log, from the moment it is made (generated code, ``decisions.logged_choice_event``, the end of
the game): an observation then shows the events of the state themselves, which nobody can
change. ``list(...)``, ``dict(...)``, :func:`thaw`, ``copy.deepcopy``, JSON and ``pickle`` give
plain copies.
"""

from __future__ import annotations

from typing import Any, NoReturn

READ_ONLY = "an observation is read-only (copy it to change it)"

SCALARS = frozenset({str, int, bool, float, type(None)})
_all_scalars = SCALARS.issuperset  # of an iterable of types, in C
_set = dict.__setitem__


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
    cls = type(value)
    if cls is dict:
        frozen = FrozenDict(value)
        for key, item in value.items():
            cls = type(item)
            if cls is list:
                _set(frozen, key, FrozenList(item) if _all_scalars(map(type, item))
                     else _freeze_items(item))
            elif cls not in SCALARS:
                _set(frozen, key, freeze(item))
        return frozen
    if cls is list:
        return FrozenList(value) if _all_scalars(map(type, value)) else _freeze_items(value)
    if cls in SCALARS or cls is FrozenDict or cls is FrozenList:
        return value
    if isinstance(value, dict):
        return freeze(dict(value))
    if isinstance(value, list):
        return freeze(list(value))
    return value


def _freeze_items(value: list[Any]) -> FrozenList:
    """``freeze`` of a list holding other lists or dicts (lists of lists, as a decision's
    refused candidates with their reasons, frozen here without a call per list)."""
    items: list[Any] = []
    push = items.append
    for item in value:
        cls = type(item)
        if cls is list:
            push(FrozenList(item) if _all_scalars(map(type, item)) else _freeze_items(item))
        elif cls in SCALARS:
            push(item)
        else:
            push(freeze(item))
    return FrozenList(items)


def thaw(value: Any) -> Any:
    """A plain, changeable copy of a plain-data value."""
    if isinstance(value, dict):
        for item in value.values():
            if item.__class__ not in SCALARS:
                return {k: v if v.__class__ in SCALARS else thaw(v) for k, v in value.items()}
        return dict(value)
    if isinstance(value, list):
        for item in value:
            if item.__class__ not in SCALARS:
                return [v if v.__class__ in SCALARS else thaw(v) for v in value]
        return list(value)
    return value
