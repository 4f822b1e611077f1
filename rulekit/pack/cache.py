"""A cache of validation results, so that ``rulekit validate`` of an unchanged pack is instant.

An entry is plain JSON in the user's cache folder (``$RULEKIT_CACHE_DIR``, else
``$XDG_CACHE_HOME/rulekit``, else ``~/.cache/rulekit``), one file per pack folder and working
folder. It holds a digest of every file under the pack's folder and under the folders of the
packs it extends, a stamp of this rulekit (its version, and the size and time of its code and
schema files, so that an edit of rulekit itself is a miss), and the validation's summary and
warnings. An entry is used only when all of these match; only a pack free of errors is written.
``RULEKIT_NO_CACHE=1`` (or ``validate --no-cache``) turns the cache off. A cache that cannot be
read or written is ignored: it never makes validation fail.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from rulekit.errors import Location, PackError, PackWarning
from rulekit.stored import CACHE_ENV, NO_CACHE_ENV, cache_dir, code_stamp, sha256

FORMAT = 1
MAX_FILES = 2000  # a pack folder larger than this is not cached (it is not a usual pack)
MAX_BYTES = 32 * 1024 * 1024
# folders of version control and tools, which change without the pack changing
SKIPPED = frozenset({".git", ".hg", ".svn", "__pycache__", ".venv", ".mypy_cache",
                     ".pytest_cache", ".ruff_cache", "node_modules"})


def tree_digest(folder: Path) -> str | None:
    """A digest of the names and contents of every file under ``folder`` (but in the folders
    of version control and tools); None if too big or unreadable."""
    digest = sha256()
    files = 0
    size = 0
    try:
        for top, dirs, names in os.walk(folder):
            dirs[:] = sorted(d for d in dirs if d not in SKIPPED)
            for name in sorted(names):
                path = Path(top, name)
                data = path.read_bytes()
                files += 1
                size += len(data)
                if files > MAX_FILES or size > MAX_BYTES:
                    return None
                digest.update(path.relative_to(folder).as_posix().encode() + b"\0")
                digest.update(sha256(data).digest())
    except (OSError, ValueError):
        return None
    return digest.hexdigest()


class ValidationCache:
    """Cached validation results of one pack folder, seen from the working folder."""

    def __init__(self, folder: Path, root: Path | None = None) -> None:
        self.root = root if root is not None else cache_dir()
        self.path: Path | None = None
        self._stamp: str | None = None
        self._before: str | None = None  # the digest of the folder before validation
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
        """The summary and warnings of the last validation, if nothing changed since."""
        if self.path is None:
            return None
        self._before = tree_digest(self.folder)
        try:
            entry = json.loads(self.path.read_text(encoding="utf-8"))
            if entry["format"] != FORMAT or entry["stamp"] != self.stamp:
                return None
            roots: dict[str, str] = entry["roots"]
            if self._before is None or roots.get(str(self.folder)) != self._before or any(
                    tree_digest(Path(folder)) != digest for folder, digest in roots.items()
                    if folder != str(self.folder)):
                return None
            return str(entry["summary"]), [_warning(item) for item in entry["warnings"]]
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None

    def put(self, folders: Iterable[Path], summary: str,
            diagnostics: Sequence[PackError]) -> None:
        """Remember a validation free of errors (``folders``: the pack's and its bases'),
        unless the pack's folder changed while it was validated (after :meth:`get`)."""
        if self.path is None or any(d.kind == "error" for d in diagnostics):
            return
        roots = {}
        try:
            for folder in {self.folder, *(f.resolve() for f in folders)}:
                digest = tree_digest(folder)
                if digest is None:
                    return
                roots[str(folder)] = digest
        except (OSError, RuntimeError):
            return
        if self._before is None or roots[str(self.folder)] != self._before:
            return
        entry = {"format": FORMAT, "stamp": self.stamp, "roots": roots, "summary": summary,
                 "warnings": [_record(d) for d in diagnostics]}
        temporary = self.path.with_name(f"{self.path.stem}.{os.getpid()}.tmp")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            temporary.write_text(json.dumps(entry), encoding="utf-8")
            os.replace(temporary, self.path)
        except OSError:
            with contextlib.suppress(OSError):
                temporary.unlink()


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
           "tree_digest"]
