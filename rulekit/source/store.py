"""Results kept on disk between runs, keyed by what they are computed from.

A :class:`Store` maps a key (texts: say, a piece of effect code and the rule of the grammar it
was parsed with) to bytes (say, the pickled syntax tree). The store of one kind of result is one
file in the user's cache folder (:func:`cache_dir`), tied to a stamp of this rulekit
(:func:`code_stamp`: its version, and the size and time of each of its code and schema files):
an edit of rulekit makes every stored result a miss. Only results free of errors are put in a
store, so that a stored result never hides an error. A store that cannot be read (missing,
corrupt, of another rulekit, writable by other users) is empty; one that cannot be written is
not kept. With
``RULEKIT_NO_CACHE=1`` nothing is read nor written: results are kept in memory for the run only.
What a process stored can be handed to another (:func:`added`, :func:`add`: a forked process
that works ahead, :mod:`rulekit.scenarios.ahead`).

This module imports no other part of rulekit but its version, so that any phase can use it;
it imports :mod:`pickle` only when a store is read or written.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulekit.version import __version__

if TYPE_CHECKING:
    from hashlib import sha256
else:
    try:  # SHA-256 built into Python: hashlib loads OpenSSL, which takes longer than the rest
        from _sha256 import sha256  # of validating an unchanged pack
    except ImportError:  # another Python
        from hashlib import sha256

CACHE_ENV = "RULEKIT_CACHE_DIR"
NO_CACHE_ENV = "RULEKIT_NO_CACHE"
FORMAT = 1
MAX_ENTRIES = 20_000  # per store: the results last added or used are kept
MEMORY_ENTRIES = 2_000  # per store, without a cache folder (kept for one process only)
MAX_FILE_BYTES = 64 * 1024 * 1024  # a bigger file is not read
KEPT_BYTES = 4 * 1024 * 1024  # per store file: the results last added or used are kept (a
# run that adds a result reads and writes the whole file: each edit adds the new version of a
# file, which must not make every later run slower; 4 MB is read and written in ~15 ms)
_PACKAGE = Path(__file__).resolve().parent.parent  # rulekit/


_switched_off = False  # within switched_off()


@contextlib.contextmanager
def switched_off() -> Iterator[None]:
    """Within: no stored result is read, and none is stored (``validate --no-cache``)."""
    global _switched_off
    before, _switched_off = _switched_off, True
    try:
        yield
    finally:
        _switched_off = before


def cache_dir() -> Path | None:
    """The user's cache folder for rulekit, or None when caching is turned off."""
    if _switched_off:
        return None
    environ = os.environ
    key = (environ.get(NO_CACHE_ENV, ""), environ.get(CACHE_ENV), environ.get("XDG_CACHE_HOME"),
           environ.get("HOME"))
    if key != _last_dir[0]:  # asked at every use of a store: found again only on a change
        _last_dir[:] = [key, _find_cache_dir(*key[:3])]
    found: Path | None = _last_dir[1]
    return found


_last_dir: list[Any] = [None, None]  # the environment cache_dir() last saw, and its answer


def _find_cache_dir(no_cache: str, explicit: str | None, xdg: str | None) -> Path | None:
    if no_cache not in ("", "0"):
        return None
    if explicit:
        return Path(explicit)
    if xdg and Path(xdg).is_absolute():
        return Path(xdg) / "rulekit"
    try:
        return Path.home() / ".cache" / "rulekit"
    except (RuntimeError, KeyError, OSError):  # no home folder to be found
        return None


@cache
def code_stamp() -> str:
    """The version of rulekit, with the size and time of each of its code and schema files,
    and the version of Python (whose bytecode and pickles a store may hold)."""
    parts = [__version__, sys.version, str(sys.implementation.cache_tag)]
    from rulekit.source.datafiles import data_dir

    try:
        for folder in (_PACKAGE, data_dir("schemas")):
            for top, dirs, names in os.walk(folder):
                dirs[:] = sorted(d for d in dirs if d not in ("__pycache__", "games"))
                for name in sorted(names):
                    if name.endswith((".py", ".lark", ".json")):
                        info = os.stat(os.path.join(top, name))
                        parts.append(f"{name}:{info.st_size}:{info.st_mtime_ns}")
    except OSError:
        parts.append("?")
    return sha256("\n".join(parts).encode()).hexdigest()


def _digest(key: tuple[str, ...]) -> bytes:
    hasher = sha256()
    for part in key:
        encoded = part.encode("utf-8", "surrogatepass")
        hasher.update(len(encoded).to_bytes(8, "big") + encoded)
    return hasher.digest()


def trusted(info: os.stat_result) -> bool:
    """Whether a store file may be read: not too big and, where files have owners, written by
    this user alone (a pickle runs code as it loads: nobody else may have put it there)."""
    if info.st_size > MAX_FILE_BYTES:
        return False
    getuid = getattr(os, "getuid", None)
    return getuid is None or (info.st_uid == getuid() and not info.st_mode & 0o022)


class Store:
    """Stored results of one kind (``name``): the file is read at first use (and again if the
    cache folder changes), and written at exit if a result was added."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._entries: dict[bytes, bytes] = {}
        self._root: Path | None = None
        self._loaded = False
        self._dirty = False
        self._added: set[bytes] = set()  # the results put by this process
        _named[name] = self

    def _current(self) -> dict[bytes, bytes]:
        """The entries, read from the file of the cache folder in use."""
        root = cache_dir()
        if self._loaded and root == self._root:
            return self._entries
        self._root, self._loaded, self._entries, self._dirty = root, True, {}, False
        self._added = set()
        if root is not None:
            import pickle

            path = self._path(root)
            with contextlib.suppress(Exception):  # missing, corrupt, unreadable: start afresh
                if trusted(path.stat()):
                    found = pickle.loads(path.read_bytes())
                    if (isinstance(found, dict) and found.get("format") == FORMAT
                            and found.get("stamp") == code_stamp()
                            and isinstance(found.get("entries"), dict)):
                        self._entries = found["entries"]
        return self._entries

    def _path(self, root: Path) -> Path:
        return root / "stored" / f"{self.name}.pickle"

    def get(self, key: tuple[str, ...]) -> bytes | None:
        """The result stored for ``key``, or None."""
        if _switched_off:
            return None
        entries = self._current()
        digest = _digest(key)
        found = entries.pop(digest, None)
        if not isinstance(found, bytes):
            return None
        entries[digest] = found  # last in order: a result in use is the last to go
        return found

    def put(self, key: tuple[str, ...], value: bytes) -> None:
        """Store a result (free of errors) for ``key``."""
        if _switched_off:
            return
        self._put(_digest(key), value)

    def _put(self, digest: bytes, value: bytes) -> None:
        entries = self._current()
        entries.pop(digest, None)
        entries[digest] = value
        self._added.add(digest)
        while len(entries) > (MAX_ENTRIES if self._root is not None else MEMORY_ENTRIES):
            del entries[next(iter(entries))]
        if self._root is not None and not self._dirty:
            self._dirty = True
            if not _stores:
                atexit.register(save_all)
            _stores.add(self)

    def get_object(self, key: tuple[str, ...]) -> Any:
        """The object pickled for ``key``, or None (also if it cannot be unpickled)."""
        found = self.get(key)
        if found is None:
            return None
        import pickle

        try:
            return pickle.loads(found)
        except Exception:  # a stored result that does not load is a miss
            return None

    def put_object(self, key: tuple[str, ...], value: Any) -> None:
        """Store ``value`` pickled, if it can be."""
        import pickle

        try:
            data = pickle.dumps(value, pickle.HIGHEST_PROTOCOL)
        except Exception:  # not picklable: nothing stored
            return
        self.put(key, data)

    def save(self) -> None:
        """Write the store's file if something was added (a failure to write is ignored)."""
        if not self._dirty or self._root is None:
            return
        self._dirty = False
        _stores.discard(self)
        path = self._path(self._root)
        temporary = path.with_name(f"{path.stem}.{os.getpid()}.tmp")
        entries = self._entries
        size = sum(map(len, entries.values()))
        while size > KEPT_BYTES and entries:
            size -= len(entries.pop(next(iter(entries))))
        import pickle

        try:
            data = pickle.dumps({"format": FORMAT, "stamp": code_stamp(),
                                 "entries": self._entries}, pickle.HIGHEST_PROTOCOL)
            path.parent.mkdir(parents=True, exist_ok=True)
            temporary.write_bytes(data)
            os.replace(temporary, path)
        except OSError:
            with contextlib.suppress(OSError):
                temporary.unlink()


_stores: set[Store] = set()  # the stores with results to write
_named: dict[str, Store] = {}  # every store, by name


def added() -> dict[str, dict[bytes, bytes]]:
    """The results this process put in each store (by its name), still kept."""
    found: dict[str, dict[bytes, bytes]] = {}
    for name, store in _named.items():
        entries = store._entries
        kept = {digest: entries[digest] for digest in store._added if digest in entries}
        if kept:
            found[name] = kept
    return found


def added_from_now() -> None:
    """From now on, :func:`added` gives only what this process puts after this call (in a
    forked process: not what the process it was forked from had put)."""
    for store in _named.values():
        store._added = set()


def add(found: dict[str, dict[bytes, bytes]]) -> None:
    """Put results that another process stored (:func:`added`) in the stores of their names
    (those a store of this process already holds are left as they are)."""
    if _switched_off:
        return
    for name, entries in found.items():
        store = _named.get(name)
        if store is None:
            continue
        known = store._current()
        for digest, value in entries.items():
            if digest not in known and isinstance(digest, bytes) and isinstance(value, bytes):
                store._put(digest, value)


def save_all() -> None:
    """Write every store to which a result was added (done at exit in any case)."""
    for store in list(_stores):
        store.save()


__all__ = ["CACHE_ENV", "NO_CACHE_ENV", "Store", "add", "added", "added_from_now", "cache_dir",
           "code_stamp", "save_all", "sha256", "switched_off"]
