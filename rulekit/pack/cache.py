"""A cache of validation results, so that ``rulekit validate`` of an unchanged pack is instant,
and of a pack whose files were edited in ways that keep its report nearly so.

An entry is plain JSON in the user's cache folder (``$RULEKIT_CACHE_DIR``, else
``$XDG_CACHE_HOME/rulekit``, else ``~/.cache/rulekit``), one file per pack folder and working
folder, read only when written by this user alone (:func:`~rulekit.source.store.trusted`). It holds
a digest of every file under the pack's folder and under the folders of the packs it extends, a
stamp of this rulekit (its version, and the size and time of its code and schema files, so that
an edit of rulekit itself is a miss), the validation's summary and warnings, and what
:mod:`rulekit.pack.edits` keeps of each pack file the validation read (its meaning, the places
of its plain numbers, the numbers the report reads). Only a pack free of errors is written. An
entry is used:

- when every file is as it was: the summary and warnings as kept;
- when the same files are there and only pack files changed, in ways that keep the report
  (:func:`rulekit.pack.edits.still_holds`: what they mean is unchanged, or but for numbers
  that the checks read only for their types). The entry is written again with the new files.

Else the pack is validated again. ``RULEKIT_NO_CACHE=1`` (or ``validate --no-cache``) turns the
cache off. A cache that cannot be read or written is ignored: it never makes validation fail.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulekit.errors import Location, PackError, PackWarning
from rulekit.source.store import CACHE_ENV, NO_CACHE_ENV, cache_dir, code_stamp, sha256, trusted

if TYPE_CHECKING:
    from rulekit.pack.edits import Reads
    from rulekit.source.document import YamlDocument

FORMAT = 4
MAX_FILES = 2000  # a pack folder larger than this is not cached (it is not a usual pack)
MAX_BYTES = 32 * 1024 * 1024
# folders of version control and tools, which change without the pack changing
SKIPPED = frozenset({".git", ".hg", ".svn", "__pycache__", ".venv", ".mypy_cache",
                     ".pytest_cache", ".ruff_cache", "node_modules"})

Files = dict[str, tuple[str, bytes]]
"""The files under a folder: their paths (relative, with '/') -> their digest and bytes."""
Prepared = tuple[dict[str, dict[str, str]], dict[str, Any]]
"""What :meth:`ValidationCache.prepare` gives: the digests of the files of each folder (by
its full path), and what :func:`rulekit.pack.edits.record` keeps."""


def folder_files(folder: Path) -> Files | None:
    """Every file under ``folder`` (but in the folders of version control and tools), in
    order; None if too big or unreadable."""
    found: Files = {}
    size = 0
    try:
        for top, dirs, names in os.walk(folder):
            dirs[:] = sorted(d for d in dirs if d not in SKIPPED)
            for name in sorted(names):
                path = Path(top, name)
                data = path.read_bytes()
                size += len(data)
                if len(found) >= MAX_FILES or size > MAX_BYTES:
                    return None
                found[path.relative_to(folder).as_posix()] = (sha256(data).hexdigest(), data)
    except (OSError, ValueError):
        return None
    return found


def tree_digest(folder: Path) -> str | None:
    """A digest of the names and contents of every file under ``folder`` (but in the folders
    of version control and tools); None if too big or unreadable."""
    files = folder_files(folder)
    if files is None:
        return None
    digest = sha256()
    for name, (file_digest, _) in files.items():
        digest.update(name.encode() + b"\0")
        digest.update(bytes.fromhex(file_digest))
    return digest.hexdigest()


def _digests(files: Files) -> dict[str, str]:
    return {name: digest for name, (digest, _) in files.items()}


class ValidationCache:
    """Cached validation results of one pack folder, seen from the working folder."""

    def __init__(self, folder: Path, root: Path | None = None) -> None:
        self.root = root if root is not None else cache_dir()
        self.path: Path | None = None
        self._stamp: str | None = None
        self._before: Files | None = None  # the files of the folder before validation
        self._entry: dict[str, Any] | None = None  # the entry then, if of this rulekit
        try:
            self.folder = folder.resolve()
            key = json.dumps([FORMAT, str(self.folder), os.getcwd()])
        except (OSError, RuntimeError):  # the working folder is gone, a loop of links...
            self.folder = folder
            return
        if self.root is not None:
            name = sha256(key.encode()).hexdigest()[:32] + ".json"
            self.path = self.root / "validate" / name

    @property
    def stamp(self) -> str:
        if self._stamp is None:
            self._stamp = code_stamp()
        return self._stamp

    def get(self) -> tuple[str, list[PackError]] | None:
        """The summary and warnings of the last validation, if the pack's files are as they
        were then, or were edited in ways that keep the report (:mod:`rulekit.pack.edits`)."""
        if self.path is None:
            return None
        self._before = folder_files(self.folder)
        try:
            if not trusted(self.path.stat()):
                return None
            entry = json.loads(self.path.read_text(encoding="utf-8"))
            if entry["format"] != FORMAT or entry["stamp"] != self.stamp:
                return None
            self._entry = entry
            roots: dict[str, dict[str, str]] = entry["roots"]
            if self._before is None or str(self.folder) not in roots:
                return None
            now = {folder: self._before if folder == str(self.folder) else
                   folder_files(Path(folder)) for folder in roots}
            warnings = [_warning(item) for item in entry["warnings"]]
            changed = _changed(roots, now)
            if changed is None:
                return None
            kept: dict[str, Any] | None = {}
            if changed:
                from rulekit.pack.edits import still_holds

                placed = {w.location.file for w in warnings if w.location is not None}
                kept = still_holds(changed, entry, placed, self._verdicts)
                if kept is None:
                    return None
        except (OSError, ValueError, KeyError, TypeError, AttributeError, IndexError,
                PackError):
            return None
        if changed and kept:  # kept with the files as they are now
            self._write({**entry, **{key: {**entry[key], **value} for key, value in kept.items()},
                         "roots": {folder: _digests(files)
                                   for folder, files in now.items() if files}})
        return str(entry["summary"]), warnings

    def prepare(self, folders: Iterable[Path], documents: Sequence[YamlDocument] = (),
                reads: Reads | None = None) -> Prepared | None:
        """The first half of remembering a validation, which does not need its diagnostics
        (and may be done meanwhile, in another process): the files of ``folders`` (the
        pack's and its bases') as they are now, and what :mod:`rulekit.pack.edits` keeps of
        ``documents`` (the pack files it read; ``reads``: where its report reads numbers);
        None if nothing is to be written (a file was edited meanwhile, a folder is too
        big)."""
        from rulekit.pack.edits import Reads, record
        from rulekit.source.textfile import decode_text

        if self.path is None:
            return None
        roots: dict[str, Files] = {}
        try:
            for folder in {self.folder, *(f.resolve() for f in folders)}:
                files = folder_files(folder)
                if files is None:
                    return None
                roots[str(folder)] = files
            read = {str(doc.path.resolve()) for doc in documents}
            texts = {os.path.join(folder, name): decode_text(data, name)
                     for folder, files in roots.items() for name, (_, data) in files.items()
                     if os.path.join(folder, name) in read}
            kept = record(documents, texts, reads or Reads(), self._unchanged(roots))
        except (OSError, RuntimeError, PackError):
            return None
        if kept is None:
            return None
        return {folder: _digests(files) for folder, files in roots.items()}, kept

    def write(self, prepared: Prepared | None, summary: str,
              diagnostics: Sequence[PackError]) -> None:
        """The second half: remember what :meth:`prepare` gave, with the summary and the
        warnings, if the validation found no error and the pack's folder is as :meth:`get`
        found it."""
        if (prepared is None or self.path is None or self._before is None
                or any(d.kind == "error" for d in diagnostics)):
            return
        roots, kept = prepared
        if roots.get(str(self.folder)) != _digests(self._before):
            return
        self._write({"format": FORMAT, "stamp": self.stamp, "roots": roots,
                     "summary": summary, "warnings": [_record(d) for d in diagnostics],
                     **kept})

    def _verdicts(self, given: dict[str, YamlDocument]) -> list[bool] | None:
        """What the end conditions of the pack, as its files are now (``given``: the documents
        of those edited), find on the first state of a game (asked when an edit changed
        numbers they read)."""
        from rulekit.checks.end import verdicts_after_edit

        return verdicts_after_edit(self.folder, given)

    def _unchanged(self, roots: dict[str, Files]) -> dict[str, Any] | None:
        """What the entry read before validation keeps of the files that are as they were
        then (by full path), or None."""
        entry = self._entry
        if entry is None:
            return None
        try:
            same = {os.path.join(folder, name) for folder, files in roots.items()
                    for name, (digest, _) in files.items()
                    if entry["roots"].get(folder, {}).get(name) == digest}
            return {key: {path: value for path, value in entry[key].items() if path in same}
                    for key in ("meanings", "numbers", "data")}
        except (KeyError, TypeError, AttributeError):
            return None

    def _write(self, entry: dict[str, Any]) -> None:
        assert self.path is not None
        temporary = self.path.with_name(f"{self.path.stem}.{os.getpid()}.tmp")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            temporary.write_text(json.dumps(entry), encoding="utf-8")
            os.replace(temporary, self.path)
        except OSError:
            with contextlib.suppress(OSError):
                temporary.unlink()


def _changed(roots: dict[str, dict[str, str]],
             now: dict[str, Files | None]) -> dict[str, bytes] | None:
    """The files (by full path) whose bytes changed since the entry was written; None if a
    folder cannot be read or its files are not the same ones."""
    changed: dict[str, bytes] = {}
    for folder, digests in roots.items():
        files = now[folder]
        if files is None or files.keys() != digests.keys():
            return None
        for name, (digest, data) in files.items():
            if digest != digests[name]:
                changed[os.path.join(folder, name)] = data
    return changed


def _record(diagnostic: PackError) -> dict[str, Any]:
    loc = diagnostic.location
    return {"message": diagnostic.message, "hint": diagnostic.hint,
            "location": None if loc is None else
            [loc.file, loc.line, loc.column, loc.source_line, loc.origin]}


def _warning(item: dict[str, Any]) -> PackError:
    loc = item["location"]
    location = None if loc is None else Location(str(loc[0]), int(loc[1]), int(loc[2]),
                                                 None if loc[3] is None else str(loc[3]),
                                                 str(loc[4]))
    hint = item["hint"]
    return PackWarning(str(item["message"]), location, None if hint is None else str(hint))


__all__ = ["CACHE_ENV", "NO_CACHE_ENV", "ValidationCache", "cache_dir", "code_stamp",
           "folder_files", "tree_digest"]
