"""The report of ``rulekit validate``, kept while a pack's files are unchanged.

A report is plain data: the diagnostics, and a summary of the pack. The user's cache folder
keeps one JSON file per pack folder and working folder. An entry holds the folders the pack
reads, a key and the report. The key is a digest of every file in those folders. It digests
rulekit's own files too, and ``$RULEKIT_PACKS``. It digests the working folder, since messages
show paths relative to it. Only a report free of errors is kept. An error may come from a
missing file, which no digest can see.

``RULEKIT_NO_CACHE=1`` (or ``validate --no-cache``) turns the cache off. A damaged cache file
is a miss. One that cannot be written is not kept.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Callable, Iterator, Mapping
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
    """One mistake or warning, as ``--format json`` prints it."""

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
    if loc is None:
        return Diagnostic(file=None, line=None, column=None, severity=error.kind,
                          message=error.message, hint=error.hint, text=str(error))
    message = f"{loc.origin}: {error.message}" if loc.origin else error.message
    return Diagnostic(file=loc.file, line=loc.line, column=loc.column, severity=error.kind,
                      message=message, hint=error.hint, text=str(error))


def report(folder: Path, use_cache: bool = True) -> Report:
    """The report of the pack in ``folder``, from the cache if unchanged."""
    path = _entry_path(folder) if use_cache else None
    if path is None:
        return _validate(folder)[0]
    entry = _read_entry(path)
    roots = _roots(entry, folder)
    before = _key(roots)
    if entry is not None and before == entry["key"]:
        return entry["report"]
    found, read = _validate(folder)
    _keep(path, found, [root.resolve() for root in read], roots, before)
    return found


def _roots(entry: Entry | None, folder: Path) -> list[Path]:
    """The folders the pack read when its entry was made."""
    return [Path(root) for root in entry["roots"]] if entry else [folder.resolve()]


def _keep(path: Path, found: Report, read: list[Path], roots: list[Path],
          before: str | None) -> None:
    """Keep ``found`` in ``path``, if it holds no error and nothing changed.

    ``read``: the folders the validation read. ``before``: the key of ``roots`` before it.
    """
    if _has_errors(found):
        return
    key = _key(read)
    if key is None or (read == roots and key != before):  # edited while validated
        return
    _write(path, Entry(format=FORMAT, key=key, roots=[str(root) for root in read],
                       report=found))


def _has_errors(found: Report) -> bool:
    """Whether a report holds an error, or its pack failed to load."""
    return not found["summary"] or any(d["severity"] == "error" for d in found["diagnostics"])


def _validate(folder: Path) -> tuple[Report, tuple[Path, ...]]:
    """Validate the pack in ``folder`` (see :mod:`rulekit.checks.validation`)."""
    from rulekit.checks.validation import validate_pack  # (a report from the cache needs none)

    return validate_pack(folder)


def cache_dir() -> Path | None:
    """The user's cache folder for rulekit; None when caching is off."""
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
    """The cache file of ``folder``, seen from the working folder."""
    root = cache_dir()
    if root is None:
        return None
    try:
        name = json.dumps([str(folder.resolve()), os.getcwd()])
    except OSError:  # the working folder is gone
        return None
    return root / "validate" / f"{hashlib.sha256(name.encode()).hexdigest()[:32]}.json"


def _key(roots: list[Path]) -> str | None:
    """The key of a report of a pack that reads ``roots``, as things are now.

    None if a file cannot be read, or there are too many.
    """
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
    """A digest of the names and contents of every file under ``folders``.

    None if a file cannot be read, or there are too many.
    """
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
    """The names, sizes and times of rulekit's code and schema files.

    So an edit of rulekit makes every entry a miss.
    """
    parts = []
    for folder in (_PACKAGE, data_dir("schemas")):
        for path in _files(folder, SKIPPED | {"games"}):
            if path.suffix in (".py", ".lark", ".json"):
                info = path.stat()
                parts.append(f"{path.relative_to(folder)}:{info.st_size}:{info.st_mtime_ns}")
    return "\n".join(parts)


def _read_entry(path: Path) -> Entry | None:
    """The entry in ``path``; None if missing or damaged."""
    try:
        found = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not _fits(found, _ENTRY):
        return None
    return Entry(format=FORMAT, key=found["key"], roots=found["roots"], report=found["report"])


def _fits(value: object, shape: Mapping[str, Callable[[object], bool]]) -> bool:
    """Whether ``value`` has the keys of ``shape``, each passing its test."""
    return isinstance(value, dict) and value.keys() == shape.keys() and all(
        test(value[key]) for key, test in shape.items())


def _text(value: object) -> bool:
    """Whether ``value`` is a text."""
    return isinstance(value, str)


def _text_or_none(value: object) -> bool:
    """Whether ``value`` is a text or None."""
    return value is None or isinstance(value, str)


def _number_or_none(value: object) -> bool:
    """Whether ``value`` is an integer or None."""
    return value is None or (isinstance(value, int) and not isinstance(value, bool))


def _texts(value: object) -> bool:
    """Whether ``value`` is a list of texts, not empty."""
    return isinstance(value, list) and bool(value) and all(isinstance(v, str) for v in value)


def _diagnostics(value: object) -> bool:
    """Whether ``value`` is a list of diagnostics."""
    return isinstance(value, list) and all(_fits(item, _DIAGNOSTIC) for item in value)


def _report(value: object) -> bool:
    """Whether ``value`` is a report."""
    return _fits(value, _REPORT)


def _format(value: object) -> bool:
    """Whether ``value`` is the format of today's entries."""
    return value == FORMAT


# The tests of the values of each key of a Diagnostic, a Report and an Entry.
_DIAGNOSTIC = {"file": _text_or_none, "line": _number_or_none, "column": _number_or_none,
               "severity": _text, "message": _text, "hint": _text_or_none, "text": _text}
_REPORT = {"summary": _text, "failure": _text_or_none, "diagnostics": _diagnostics}
_ENTRY = {"format": _format, "key": _text, "roots": _texts, "report": _report}


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
