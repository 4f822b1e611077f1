"""Pickle a compiled game: the functions the compiler made, by value.

:mod:`pickle` keeps a function as the name it is found by in its module, which a function
made by the compiler (``exec`` of generated code), a closure or a lambda does not have. Here
such a function is kept by value: its bytecode (:mod:`marshal`), its name, its defaults, the
contents of its closure's cells and its attributes; its globals are either a namespace the
generated code runs in (kept once, with every name in it) or, for a function written in a
module of rulekit, the few names of that module its code reads (so loading it does not import
the module: a compiled game loads without the modules that read and compile packs). Every
function and namespace is kept once, so that what was shared stays shared.

Where the text of a piece of effect code lies in its pack file (:class:`Snippet`'s ``locate``)
is needed only to report a mistake found by a check; it is kept apart and loaded on first use.

Loading runs the code it holds: only load what this user wrote (:mod:`rulekit.sim.gamecache`
checks who wrote a file before reading it).
"""

from __future__ import annotations

import builtins
import io
import marshal
import pickle
import sys
from types import CellType, CodeType, FunctionType
from typing import Any

from rulekit.errors import Location
from rulekit.source.snippet import Snippet

FORMAT = 1


def _names(code: CodeType) -> set[str]:
    """The global names ``code`` (and the functions defined in it) may read."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, CodeType):
            names |= _names(const)
    return names


def _by_name(fn: FunctionType) -> bool:
    """Whether pickle can keep ``fn`` as a name in its module (a module's own function)."""
    module = sys.modules.get(fn.__module__ or "")
    return module is not None and "<" not in fn.__qualname__ and getattr(
        module, fn.__name__, None) is fn and fn.__globals__ is module.__dict__


class _Later:
    """A snippet's ``locate``, loaded from its side section on first call."""

    def __init__(self, side: _Side, index: int) -> None:
        self.side = side
        self.index = index

    def __call__(self, line: int, column: int) -> Location:
        located: Location = self.side.functions()[self.index](line, column)
        return located


class _Side:
    """The pickled ``locate`` functions of the snippets of one game."""

    def __init__(self) -> None:
        self.data = b""
        self._loaded: list[Any] | None = None

    def functions(self) -> list[Any]:
        if self._loaded is None:
            self._loaded = loads(self.data)
        return self._loaded


class _Pickler(pickle.Pickler):
    def __init__(self, file: io.BytesIO) -> None:
        super().__init__(file, pickle.HIGHEST_PROTOCOL)
        self.spaces: dict[int, tuple[int, dict[str, Any], str | None]] = {}  # by id
        self.functions: dict[int, tuple[int, FunctionType]] = {}  # by id
        self.given: dict[int, set[str]] = {}  # by space: the names of a module given
        self.filled_functions = 0
        self.locates: list[Any] = []

    def _space(self, fn: FunctionType) -> int:
        module = sys.modules.get(fn.__module__ or "")
        found = self.spaces.get(id(fn.__globals__))
        if found is None:
            snapshot = module.__name__ if module is not None and (
                fn.__globals__ is module.__dict__) else None
            found = (len(self.spaces), fn.__globals__, snapshot)
            self.spaces[id(fn.__globals__)] = found
        return found[0]

    def persistent_id(self, obj: Any) -> Any:
        kind = type(obj)
        if kind is FunctionType and not _by_name(obj):
            found = self.functions.get(id(obj))
            if found is not None:
                return ("fn", found[0])
            number = len(self.functions)
            self.functions[id(obj)] = (number, obj)
            return ("fn", number, marshal.dumps(obj.__code__), self._space(obj), obj.__name__,
                    obj.__qualname__, obj.__module__, len(obj.__closure__ or ()))
        if kind is dict:
            found_space = self.spaces.get(id(obj))
            if found_space is not None and found_space[1] is obj and found_space[2] is None:
                return ("space", found_space[0])
        if kind is Snippet and type(obj.locate) is not _Later:
            self.locates.append(obj.locate)
            return ("snippet", obj.text, len(self.locates) - 1)
        if kind is _Side:
            raise pickle.PicklingError("a game loaded from a cache is not cached again")
        return None

    def fills(self) -> list[tuple[Any, ...]]:
        """What the namespaces and functions met since the last call hold."""
        found: list[tuple[Any, ...]] = []
        for number, space, module in sorted(self.spaces.values(), key=lambda item: item[0]):
            given = self.given.get(number)
            if module is None:
                if given is None:
                    found.append(("space", number, dict(space)))
                    self.given[number] = set()
                continue
            # the names of the module its functions read (more as more of them are met)
            wanted = set().union(*(_names(fn.__code__) for _, fn in self.functions.values()
                                   if fn.__globals__ is space)) & space.keys()
            new = wanted - (given or set())
            if given is None or new:
                given_now = {name: space[name] for name in sorted(new)}
                found.append(("module", number, module, given_now))
                self.given[number] = wanted
        functions = sorted(self.functions.values(), key=lambda item: item[0])
        for number, fn in functions[self.filled_functions:]:
            cells = tuple(cell.cell_contents for cell in fn.__closure__ or ())
            found.append(("fn", number, fn.__defaults__, fn.__kwdefaults__, cells,
                          dict(fn.__dict__)))
        self.filled_functions = len(functions)
        return found


class _Unpickler(pickle.Unpickler):
    def __init__(self, file: io.BytesIO, side: _Side) -> None:
        super().__init__(file)
        self.spaces: dict[int, dict[str, Any]] = {}
        self.functions: dict[int, FunctionType] = {}
        self.side = side

    def persistent_load(self, pid: Any) -> Any:
        kind = pid[0]
        if kind == "space":
            return self.spaces.setdefault(pid[1], {})
        if kind == "snippet":
            return Snippet(pid[1], _Later(self.side, pid[2]))
        if kind != "fn":
            raise pickle.UnpicklingError(f"unknown reference {kind!r}")
        found = self.functions.get(pid[1])
        if found is not None:
            return found
        _, number, code, space, name, qualname, module, cells = pid
        fn = FunctionType(marshal.loads(code), self.spaces.setdefault(space, {}), name, None,
                          tuple(CellType() for _ in range(cells)) or None)
        fn.__qualname__, fn.__module__ = qualname, module
        self.functions[number] = fn
        return fn

    def fill(self, found: list[tuple[Any, ...]]) -> None:
        for item in found:
            if item[0] == "space":
                self.spaces.setdefault(item[1], {}).update(item[2])
            elif item[0] == "module":
                space = self.spaces.setdefault(item[1], {})
                space.update(item[3], __name__=item[2], __builtins__=builtins)
            else:
                _, number, defaults, kwdefaults, cells, attributes = item
                fn = self.functions[number]
                fn.__defaults__, fn.__kwdefaults__ = defaults, kwdefaults
                for cell, value in zip(fn.__closure__ or (), cells, strict=True):
                    cell.cell_contents = value
                fn.__dict__.update(attributes)


def dumps(obj: Any) -> bytes:
    """``obj`` pickled, with the functions it reaches by value (see the module)."""
    file = io.BytesIO()
    pickler = _Pickler(file)
    pickler.dump((FORMAT, obj))
    while found := pickler.fills():
        pickler.dump(found)
    pickler.dump(None)
    side = io.BytesIO()
    if pickler.locates:
        side.write(dumps(pickler.locates))
    pickler.dump(side.getvalue())
    return file.getvalue()


def loads(data: bytes) -> Any:
    """The object pickled by :func:`dumps` (which runs code: trust the data)."""
    side = _Side()
    unpickler = _Unpickler(io.BytesIO(data), side)
    head = unpickler.load()
    if not (isinstance(head, tuple) and len(head) == 2 and head[0] == FORMAT):
        raise pickle.UnpicklingError("not a compiled game of this format")
    while (found := unpickler.load()) is not None:
        unpickler.fill(found)
    side.data = unpickler.load()
    return head[1]


__all__ = ["dumps", "loads"]
