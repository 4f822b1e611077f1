"""The report of ``rulekit validate``, kept for a pack whose files have not changed.

A report is plain data: what each diagnostic says, and a summary of the pack. The cache keeps
one JSON file per pack folder and working folder, in the user's cache folder. An entry holds
the folders the pack reads (its own, then its bases'), a key and the report. The key is a
digest of every file under those folders, of rulekit's own files, of the working folder
(messages show paths relative to it) and of ``$RULEKIT_PACKS``. Only a report free of errors
is kept: an error may come from a file that is missing, which no digest of files can see.

``RULEKIT_NO_CACHE=1`` (or ``validate --no-cache``) turns the cache off. A cache file that
cannot be read, or is damaged, is a miss; one that cannot be written is not kept.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import TypedDict

from rulekit.errors import PackError
from rulekit.pack.installed import PACKS_ENV
from rulekit.source.datafiles import data_dir
from rulekit.version import __version__

CACHE_ENV = "RULEKIT_CACHE_DIR"
NO_CACHE_ENV = "RULEKIT_NO_CACHE"
FORMAT = 5
MAX_BYTES = 64 * 1024 * 1024  # in the folders a pack reads; a pack with more is not cached
# folders of version control and tools, which change without the pack changing
SKIPPED = frozenset({".git", ".hg", ".svn", "__pycache__", ".venv", ".mypy_cache",
                     ".pytest_cache", ".ruff_cache", "node_modules"})
_PACKAGE = Path(__file__).resolve().parent.parent  # rulekit/


class Diagnostic(TypedDict):
    """One mistake or warning: the fields of ``--format json``, and the text printed."""

    file: str | None
    line: int | None
    column: int | None
    severity: str
    message: str
    hint: str | None
    text: str


class Report(TypedDict):
    """What a validation found in one pack."""

    summary: str  # "78 cards, 58 scenarios"; empty when the pack could not be loaded
    failure: str | None  # an error that belongs to no file
    diagnostics: list[Diagnostic]


class Entry(TypedDict):
    """A cache file."""

    format: int
    key: str
    roots: list[str]
    report: Report


def diagnostic(error: PackError) -> Diagnostic:
    """``error`` as a report holds it."""
    loc = error.location
    message = f"{loc.origin}: {error.message}" if loc and loc.origin else error.message
    return Diagnostic(file=loc.file if loc else None, line=loc.line if loc else None,
                      column=loc.column if loc else None, severity=error.kind,
                      message=message, hint=error.hint, text=str(error))


def report(folder: Path, use_cache: bool = True) -> Report:
    """The report of the pack in ``folder``: from the cache when nothing it reads changed."""
    path = _entry_path(folder) if use_cache else None
    if path is None:
        return _validate(folder)[0]
    entry = _read_entry(path)
    roots = [Path(root) for root in entry["roots"]] if entry else [folder.resolve()]
    before = _key(roots)
    if entry is not None and before == entry["key"]:
        return entry["report"]
    found, read = _validate(folder)
    _keep(path, found, [root.resolve() for root in read], roots, before)
    return found


def _keep(path: Path, found: Report, read: list[Path], roots: list[Path],
          before: str | None) -> None:
    """Write ``found`` to ``path``, if it holds no error and nothing was edited meanwhile.

    ``read``: the folders the validation read. ``before``: the key of ``roots`` before it.
    """
    if not found["summary"] or any(d["severity"] == "error" for d in found["diagnostics"]):
        return
    key = _key(read)
    if key is None or (read == roots and key != before):  # edited while validated
        return
    _write(path, Entry(format=FORMAT, key=key, roots=[str(root) for root in read],
                       report=found))


def _validate(folder: Path) -> tuple[Report, tuple[Path, ...]]:
    """Validate the pack in ``folder`` (see :mod:`rulekit.checks.validation`)."""
    from rulekit.checks.validation import validate_pack  # (a report from the cache needs none)

    return validate_pack(folder)


def cache_dir() -> Path | None:
    """The user's cache folder for rulekit, or None when caching is turned off."""
    if os.environ.get(NO_CACHE_ENV, "") not in ("", "0"):
        return None
    explicit = os.environ.get(CACHE_ENV)
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg and Path(xdg).is_absolute():
        return Path(xdg) / "rulekit"
    try:
        return Path.home() / ".cache" / "rulekit"
    except RuntimeError:  # no home folder to be found
        return None


def _entry_path(folder: Path) -> Path | None:
    """The cache file of ``folder`` seen from the working folder; None if there is none."""
    root = cache_dir()
    if root is None:
        return None
    try:
        name = json.dumps([str(folder.resolve()), os.getcwd()])
    except OSError:  # the working folder is gone
        return None
    return root / "validate" / f"{hashlib.sha256(name.encode()).hexdigest()[:32]}.json"


def _key(roots: list[Path]) -> str | None:
    """The key of a report of a pack that reads ``roots``, as things are now; None if a file
    cannot be read or the folders hold too much."""
    files = tree_digest(*roots)
    if files is None:
        return None
    try:
        where = os.getcwd()
    except OSError:
        return None
    parts = [str(FORMAT), __version__, _code_stamp(), where, os.environ.get(PACKS_ENV, ""),
             *map(str, roots), files]
    return hashlib.sha256(json.dumps(parts).encode()).hexdigest()


def tree_digest(*folders: Path) -> str | None:
    """A digest of the names and contents of every file under ``folders``; None if a file
    cannot be read or they hold too much."""
    digest = hashlib.sha256()
    size = 0
    try:
        for folder in folders:
            digest.update(b"\1")
            for path in _files(folder):
                data = path.read_bytes()
                size += len(data)
                if size > MAX_BYTES:
                    return None
                digest.update(os.fsencode(path.relative_to(folder).as_posix()) + b"\0")
                digest.update(hashlib.sha256(data).digest())
    except OSError:
        return None
    return digest.hexdigest()


def _files(folder: Path, skipped: frozenset[str] = SKIPPED) -> Iterator[Path]:
    """Every file under ``folder`` but in the folders ``skipped``, in order."""
    for top, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d not in skipped)
        for name in sorted(names):
            yield Path(top, name)


def _code_stamp() -> str:
    """The names, sizes and times of rulekit's code and schema files: an edit of rulekit
    makes every entry a miss."""
    parts = []
    for folder in (_PACKAGE, data_dir("schemas")):
        for path in _files(folder, SKIPPED | {"games"}):
            if path.suffix in (".py", ".lark", ".json"):
                info = path.stat()
                parts.append(f"{path.relative_to(folder)}:{info.st_size}:{info.st_mtime_ns}")
    return "\n".join(parts)


def _read_entry(path: Path) -> Entry | None:
    """The entry in ``path``; None if there is none or it is damaged."""
    try:
        found = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not (isinstance(found, dict) and found.keys() == Entry.__annotations__.keys()
            and found["format"] == FORMAT and isinstance(found["key"], str)
            and _are_texts(found["roots"]) and _is_report(found["report"])):
        return None
    return Entry(format=FORMAT, key=found["key"], roots=found["roots"], report=found["report"])


def _are_texts(value: object) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, str) for v in value)


def _is_report(value: object) -> bool:
    """Whether ``value`` has the shape of a :class:`Report`."""
    return (isinstance(value, dict) and value.keys() == Report.__annotations__.keys()
            and isinstance(value["summary"], str) and isinstance(value["failure"], str | None)
            and isinstance(value["diagnostics"], list)
            and all(_is_diagnostic(item) for item in value["diagnostics"]))


def _is_diagnostic(value: object) -> bool:
    """Whether ``value`` has the shape of a :class:`Diagnostic`."""
    if not isinstance(value, dict) or value.keys() != Diagnostic.__annotations__.keys():
        return False
    return (all(isinstance(value[key], str | None) for key in ("file", "hint"))
            and all(isinstance(value[key], int | None) and not isinstance(value[key], bool)
                    for key in ("line", "column"))
            and all(isinstance(value[key], str) for key in ("severity", "message", "text")))


def _write(path: Path, entry: Entry) -> None:
    """Write ``entry`` to ``path`` whole, or not at all."""
    temporary = path.with_name(f"{path.stem}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary.write_text(json.dumps(entry), encoding="utf-8")
        os.replace(temporary, path)
    except OSError:
        with contextlib.suppress(OSError):
            temporary.unlink()


__all__ = ["CACHE_ENV", "NO_CACHE_ENV", "Diagnostic", "Report", "cache_dir",
           "diagnostic", "report", "tree_digest"]
