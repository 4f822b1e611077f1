"""``@record``: a class with the ``__init__``, ``__eq__`` and ``__repr__`` of a dataclass, made
without writing and compiling Python source for each class as ``@dataclass`` does.

Creating a dataclass costs about a millisecond (its methods are written as text and compiled);
rulekit's modules declare dozens, which made every command slower to start. A record behaves as
a plain ``@dataclass`` (not frozen, no slots): fields from annotations, in order, base classes'
first; defaults and ``field(default_factory=..., init=False, repr=False, compare=False)``;
``__post_init__``; ``dataclasses.fields()`` works on it; equal when of the same class with equal
compared fields; not hashable. ``@record(frozen=True)`` behaves as ``@dataclass(frozen=True)``:
its fields cannot be assigned, and it is hashed by its compared fields. Type checkers read it
as a dataclass (``dataclass_transform``).
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable
from dataclasses import MISSING, Field, field
from typing import Any, TypeVar, dataclass_transform, overload

_T = TypeVar("_T")

__all__ = ["field", "record"]


@overload
def record(cls: type[_T], /) -> type[_T]: ...


@overload
def record(*, frozen: bool = False) -> Callable[[type[_T]], type[_T]]: ...


@dataclass_transform(field_specifiers=(field,))
def record(cls: type[_T] | None = None, /, *,
           frozen: bool = False) -> type[_T] | Callable[[type[_T]], type[_T]]:
    """Make ``cls`` a record (see the module's documentation); ``@record(frozen=True)``: one
    whose fields cannot be assigned, hashed by its compared fields."""
    if cls is None:
        return lambda made: _record(made, frozen)
    return _record(cls, frozen)


def _record(cls: type[_T], frozen: bool) -> type[_T]:
    fields: dict[str, Any] = dict(getattr(cls, "__dataclass_fields__", {}))
    for name, annotation in inspect.get_annotations(cls).items():
        value = cls.__dict__.get(name, MISSING)
        made: Any = value if isinstance(value, Field) else field(default=value)
        made.name, made.type = name, annotation
        made._field_type = dataclasses._FIELD  # type: ignore[attr-defined]  # what fields() reads
        fields[name] = made
        if made.default is MISSING:
            if name in cls.__dict__:
                delattr(cls, name)
        else:
            setattr(cls, name, made.default)
    names = tuple(name for name, f in fields.items() if f.init)
    later = [(name, f.default, f.default_factory) for name, f in fields.items() if not f.init]
    defaults: list[tuple[str, Any, Callable[[], Any] | None]] = [
        (f.name, f.default, None if f.default_factory is MISSING else f.default_factory)
        for f in fields.values() if f.init]
    compared = tuple(name for name, f in fields.items() if f.compare)
    shown = tuple(name for name, f in fields.items() if f.repr)
    post_init = getattr(cls, "__post_init__", None)
    plain = not later and post_init is None  # every field given by position: in short
    count = len(names)

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        if plain and len(args) == count and not kwargs:
            self.__dict__.update(zip(names, args, strict=True))
            return
        if len(args) > len(names):
            raise TypeError(f"{cls.__name__}() takes {len(names)} arguments, "
                            f"{len(args)} given")
        values = self.__dict__
        for name, value in zip(names, args, strict=False):
            values[name] = value
        for name, default, factory in defaults[len(args):]:
            if name in kwargs:
                values[name] = kwargs.pop(name)
            elif factory is not None:
                values[name] = factory()
            elif default is not MISSING:
                values[name] = default
            else:
                raise TypeError(f"{cls.__name__}() is missing the argument '{name}'")
        if kwargs:
            raise TypeError(f"{cls.__name__}() got an unexpected argument '{next(iter(kwargs))}'")
        for name, default, factory in later:
            if factory is not MISSING:
                values[name] = factory()
            elif default is not MISSING:
                values[name] = default
        if post_init is not None:
            self.__post_init__()

    def __eq__(self: Any, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine, theirs = self.__dict__, other.__dict__
        return all(mine[name] == theirs[name] for name in compared)

    def __repr__(self: Any) -> str:
        values = self.__dict__
        return f"{cls.__qualname__}({', '.join(f'{n}={values[n]!r}' for n in shown)})"

    cls.__dataclass_fields__ = fields  # type: ignore[attr-defined]
    cls.__init__ = __init__  # type: ignore[method-assign]
    cls.__eq__ = __eq__  # type: ignore[method-assign]
    cls.__repr__ = __repr__  # type: ignore[method-assign]
    cls.__hash__ = None  # type: ignore[assignment]
    cls.__match_args__ = names  # type: ignore[attr-defined,misc]
    if frozen:
        _freeze(cls, compared)
    return cls


def _freeze(cls: type[Any], compared: tuple[str, ...]) -> None:
    """Make the records of ``cls`` frozen, as ``@dataclass(frozen=True)`` makes its objects:
    no field assigned or deleted (``object.__setattr__`` still can, as in ``__post_init__``),
    a hash of the compared fields."""

    def __setattr__(self: Any, name: str, value: Any) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self: Any, name: str) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")

    def __hash__(self: Any) -> int:
        values = self.__dict__
        return hash(tuple(values[name] for name in compared))

    for name, method in (("__setattr__", __setattr__), ("__delattr__", __delattr__),
                         ("__hash__", __hash__)):
        setattr(cls, name, method)
