"""Results kept on disk between runs, keyed by what they are computed from.

A :class:`Store` maps a key (texts: say, a piece of effect code and the rule of the grammar it
was parsed with) to bytes (say, the pickled syntax tree). Each result is one file of its store's
folder in the user's cache folder (:func:`cache_dir`), named by the digest of its key, so that a
run reads only the results it asks for, however many earlier runs added. A file holds a stamp of
this rulekit (:func:`code_stamp`: its version, and the size and time of each of its code and
schema files: an edit of rulekit makes every stored result a miss) and a checksum of the result.
Only results free of errors are put in a store, so that a stored result never hides an error. A
file that cannot be trusted (corrupt, of another rulekit, writable by other users, too big) is a
miss; one that cannot be written is not kept. A store keeps the results last written or used,
up to :data:`MAX_ENTRIES` files and :data:`KEPT_BYTES` bytes. With ``RULEKIT_NO_CACHE=1`` nothing
is read nor written: results are kept in memory for the run only.

This module imports no other part of rulekit but its version, so that any phase can use it;
it imports :mod:`pickle` only when an object is stored or read.
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

from rulekit import __version__

if TYPE_CHECKING:
    from hashlib import sha256
else:
    try:  # SHA-256 built into Python: hashlib loads OpenSSL, which takes longer than the rest
        from _sha256 import sha256  # of validating an unchanged pack
    except ImportError:  # another Python
        from hashlib import sha256

CACHE_ENV = "RULEKIT_CACHE_DIR"
NO_CACHE_ENV = "RULEKIT_NO_CACHE"
FORMAT = 2
MAGIC = b"rulekit-stored-%d\n" % FORMAT
MAX_ENTRIES = 5_000  # per store: the results last written or used are kept
MEMORY_ENTRIES = 2_000  # per store, kept in memory (read or added) for one process
MAX_FILE_BYTES = 64 * 1024 * 1024  # a bigger file is not read
KEPT_BYTES = 64 * 1024 * 1024  # per store
_PACKAGE = Path(__file__).resolve().parent


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
    from rulekit.datafiles import data_dir

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


def _trusted(info: os.stat_result) -> bool:
    """Whether a stored file may be read: not too big and, where files have owners, written by
    this user alone (a pickle runs code as it loads: nobody else may have put it there)."""
    if info.st_size > MAX_FILE_BYTES:
        return False
    getuid = getattr(os, "getuid", None)
    return getuid is None or (info.st_uid == getuid() and not info.st_mode & 0o022)


def _read_entry(path: Path, stamp: bytes) -> bytes | None:
    """The result kept in the file ``path``, if it can be trusted and is of this rulekit."""
    try:
        with open(path, "rb") as file:
            if not _trusted(os.fstat(file.fileno())):
                return None
            data = file.read()
    except OSError:
        return None
    head = len(MAGIC) + len(stamp)
    if data[:head] != MAGIC + stamp or len(data) < head + 4:
        return None
    from binascii import crc32

    value = data[head + 4:]
    return value if crc32(value).to_bytes(4, "big") == data[head:head + 4] else None


def _entry(stamp: bytes, value: bytes) -> bytes:
    from binascii import crc32

    return MAGIC + stamp + crc32(value).to_bytes(4, "big") + value


class Store:
    """Stored results of one kind (``name``): each read from its file at first use, and the
    results added written at exit."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._entries: dict[bytes, bytes] = {}  # read or added (the last ones), in order of use
        self._missing: set[bytes] = set()  # asked for and not found there
        self._added: dict[bytes, bytes] = {}  # to write
        self._root: Path | None = None
        self._ready = False

    def _folder(self) -> Path | None:
        """The store's folder in the cache folder in use (None: no cache folder)."""
        root = cache_dir()
        if not self._ready or root != self._root:
            self._root, self._ready = root, True
            self._entries, self._missing, self._added = {}, set(), {}
        return None if root is None else root / "stored" / self.name

    def get(self, key: tuple[str, ...]) -> bytes | None:
        """The result stored for ``key``, or None."""
        if _switched_off:
            return None
        folder = self._folder()
        digest = _digest(key)
        found = self._entries.get(digest)
        if found is None and folder is not None and digest not in self._missing:
            found = _read_entry(folder / digest.hex(), code_stamp().encode())
            if found is None:
                self._missing.add(digest)
            else:
                self._remember(digest, found)
        return found

    def _remember(self, digest: bytes, value: bytes) -> None:
        entries = self._entries
        entries.pop(digest, None)
        entries[digest] = value
        while len(entries) > MEMORY_ENTRIES:
            del entries[next(iter(entries))]

    def put(self, key: tuple[str, ...], value: bytes) -> None:
        """Store a result (free of errors) for ``key``."""
        if _switched_off:
            return
        folder = self._folder()
        digest = _digest(key)
        self._remember(digest, value)
        self._missing.discard(digest)
        if folder is None:
            return
        if not self._added:
            if not _stores:
                atexit.register(save_all)
            _stores.add(self)
        self._added[digest] = value

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
        """Write the results added (a failure to write is ignored), then keep the store within
        its bounds."""
        _stores.discard(self)
        added, self._added = self._added, {}
        folder = self._folder()
        if not added or folder is None or _switched_off:
            return
        stamp = code_stamp().encode()
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError:
            return
        for digest, value in added.items():
            path = folder / digest.hex()
            temporary = folder / f"{digest.hex()}.{os.getpid()}.tmp"
            try:
                temporary.write_bytes(_entry(stamp, value))
                os.replace(temporary, path)
            except OSError:
                with contextlib.suppress(OSError):
                    temporary.unlink()
        with contextlib.suppress(OSError):  # the single file of a store of rulekit 0.1.0
            folder.with_suffix(".pickle").unlink()
        self._prune(folder)

    def _prune(self, folder: Path) -> None:
        """Delete the files least recently written or used beyond the store's bounds (those
        of this run last)."""
        files: list[tuple[str, int, int]] = []  # name, time, size
        try:
            for entry in os.scandir(folder):
                info = entry.stat(follow_symlinks=False)
                files.append((entry.name, info.st_mtime_ns, info.st_size))
        except OSError:
            return
        count, size = len(files), sum(f[2] for f in files)
        if count <= MAX_ENTRIES and size <= KEPT_BYTES:
            return
        used = {digest.hex(): i for i, digest in enumerate(self._entries)}
        files.sort(key=lambda f: (f[0] in used, used.get(f[0], 0), f[1]))
        for name, _, length in files:
            if count <= MAX_ENTRIES and size <= KEPT_BYTES:
                break
            with contextlib.suppress(OSError):
                os.unlink(folder / name)
            count, size = count - 1, size - length


_stores: set[Store] = set()  # the stores with results to write


def save_all() -> None:
    """Write every store to which a result was added (done at exit in any case)."""
    for store in list(_stores):
        store.save()


__all__ = ["CACHE_ENV", "NO_CACHE_ENV", "Store", "cache_dir", "code_stamp", "save_all", "sha256",
           "switched_off"]
