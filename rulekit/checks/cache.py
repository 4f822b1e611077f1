"""The report of ``rulekit validate``, kept while a pack's files and rulekit's are unchanged.

Only a report free of errors is kept: an error may come from a missing file.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TypedDict

from rulekit.errors import PackError, PackErrors, RulekitError
from rulekit.pack.installed import PACKS_ENV
from rulekit.source.datafiles import cache_dir, data_dir

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
    roots = [Path(root) for root in entry["roots"]] if entry else [folder.resolve()]
    before = _key(roots)
    if entry is not None and before == entry["key"]:
        return entry["report"]
    found, read = _validate(folder)
    _keep(path, found, [root.resolve() for root in read], roots, before)
    return found


def _keep(path: Path, found: Report, read: list[Path], roots: list[Path],
          before: str | None) -> None:
    """Keep ``found`` in ``path`` if it holds no error and the folders ``read`` did not change."""
    if not found["summary"] or any(d["severity"] == "error" for d in found["diagnostics"]):
        return
    key = _key(read)
    if key is None or (read == roots and key != before):  # edited while validated
        return
    _write(path, Entry(format=FORMAT, key=key, roots=[str(root) for root in read],
                       report=found))


def _validate(folder: Path) -> tuple[Report, tuple[Path, ...]]:
    """The report of the pack in ``folder``, and the folders it read (none if it did not load)."""
    from rulekit.checks.lint import lint_pack  # (a report from the cache needs none of these)
    from rulekit.pack.loader import load_pack
    from rulekit.scenarios.check import check_scenario_files

    try:
        pack = load_pack(folder)
        errors, scenarios = check_scenario_files(pack)
    except PackErrors as exc:
        return _failed(exc.errors), ()
    except PackError as exc:
        return _failed([exc]), ()
    except RulekitError as exc:
        return Report(summary="", failure=str(exc), diagnostics=[]), ()
    found = [*errors, *lint_pack(pack)]
    summary = f"{len(pack.game.symbols.cards)} cards, {scenarios} scenarios"
    return Report(summary=summary, failure=None,
                  diagnostics=[diagnostic(d) for d in found]), pack.roots


def _failed(errors: list[PackError]) -> Report:
    return Report(summary="", failure=None, diagnostics=[diagnostic(e) for e in errors])


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
    """The key of a report of a pack that reads ``roots``; None if a file cannot be read."""
    files = tree_digest(*roots)
    if files is None:
        return None
    try:
        where = os.getcwd()
    except OSError:
        return None
    parts = [str(FORMAT), _code_stamp(), where, os.environ.get(PACKS_ENV, ""),
             *map(str, roots), files]
    return hashlib.sha256(json.dumps(parts).encode()).hexdigest()


def tree_digest(*folders: Path) -> str | None:
    """A digest of the names and contents of every file under ``folders``; None if unreadable."""
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
    for top, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d not in skipped)
        for name in sorted(names):
            yield Path(top, name)


def _code_stamp() -> str:
    """The names, sizes and times of rulekit's code and schemas: an edit of them is a miss."""
    parts = []
    for folder in (_PACKAGE, data_dir("schemas")):
        for path in _files(folder, SKIPPED | {"games"}):
            if path.suffix in (".py", ".lark", ".json"):
                info = path.stat()
                parts.append(f"{path.relative_to(folder)}:{info.st_size}:{info.st_mtime_ns}")
    return "\n".join(parts)


def _read_entry(path: Path) -> Entry | None:
    try:
        found = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not _fits(found, _ENTRY):
        return None
    return Entry(format=FORMAT, key=found["key"], roots=found["roots"], report=found["report"])


def _fits(value: object, shape: Mapping[str, Callable[[object], bool]]) -> bool:
    return isinstance(value, dict) and value.keys() == shape.keys() and all(
        test(value[key]) for key, test in shape.items())


def _is(*types: type) -> Callable[[object], bool]:
    """A test that a value is exactly of one of ``types``, as JSON reads it."""
    return lambda value: type(value) in types


_NULL = type(None)
# The tests of the values of each key of a Diagnostic, a Report and an Entry.
_DIAGNOSTIC = {"file": _is(str, _NULL), "line": _is(int, _NULL), "column": _is(int, _NULL),
               "severity": _is(str), "message": _is(str), "hint": _is(str, _NULL),
               "text": _is(str)}
_REPORT = {"summary": _is(str), "failure": _is(str, _NULL),
           "diagnostics": lambda v: isinstance(v, list) and all(_fits(d, _DIAGNOSTIC) for d in v)}
_ENTRY = {"format": lambda v: v == FORMAT, "key": _is(str),
          "roots": lambda v: isinstance(v, list) and bool(v) and all(map(_is(str), v)),
          "report": lambda v: _fits(v, _REPORT)}


def _write(path: Path, entry: Entry) -> None:
    temporary = path.with_name(f"{path.stem}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary.write_text(json.dumps(entry), encoding="utf-8")
        os.replace(temporary, path)
    except OSError:
        with contextlib.suppress(OSError):
            temporary.unlink()


__all__ = ["Diagnostic", "Report", "cache_dir", "diagnostic", "report", "tree_digest"]
