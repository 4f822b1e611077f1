"""Find a pack folder, and the files it names inside its roots (its and its bases' folders)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path, PurePosixPath

from rulekit.errors import PackFileError, did_you_mean
from rulekit.limits import MAX_FILE_BYTES, MAX_PATH_CHARS
from rulekit.pack.installed import search_order, shipped_packs_dir


def find_pack(ref: str) -> Path:
    """The folder of a pack named by path, or by id ($RULEKIT_PACKS first)."""
    try:
        return _find_pack(ref)
    except (OSError, ValueError) as exc:  # a name too long, a NUL character...
        raise PackFileError(f"{ref[:MAX_PATH_CHARS]}: cannot use this pack name: "
                            f"{_reason(exc)}") from None


def _find_pack(ref: str) -> Path:
    path = Path(ref)
    if path.exists() or os.sep in ref or "/" in ref or ref.endswith(".yaml"):
        return _pack_at(path, ref)
    found = next((pack for pack in search_order() if pack.id == ref), None)
    if found is not None:
        return found.folder
    known = sorted({pack.id for pack in search_order()})
    listed = f"packs: {', '.join(known)} (rulekit list shows where each comes from)"
    raise PackFileError(f"{ref}: no pack folder, nor a pack of that id",
                        hint=did_you_mean(ref, known) or (listed if known else None))


def _pack_at(path: Path, ref: str) -> Path:
    """The pack folder at ``path``, or the folder of a ``pack.yaml``."""
    if path.is_file() and path.name == "pack.yaml":
        return path.parent
    if path.is_file():
        raise PackFileError(f"{ref}: a pack is a folder with a pack.yaml, not a file")
    if not path.exists():
        raise PackFileError(f"{ref}: no such pack folder")
    return path


def display_path(path: Path) -> str:
    """A path as messages show it: relative to the working folder if inside."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError, RuntimeError):  # outside it; no working folder; link loops
        return str(path)


class OutsideError(Exception):
    """A file name a pack may not use; the caller locates the message."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint


def check_name(name: str, what: str) -> None:
    """Refuse a name that is too long, absolute, or not a plain path."""
    if len(name) > MAX_PATH_CHARS:
        raise OutsideError(f"{what} is {len(name)} characters long; the limit is "
                           f"{MAX_PATH_CHARS}", "use a shorter name")
    if "\0" in name:
        raise OutsideError(f"{what} holds a NUL character")
    if PurePosixPath(name).is_absolute() or Path(name).is_absolute() or Path(name).drive:
        raise OutsideError(f"{what} '{name}' is an absolute path; a pack reads only files "
                           "inside its own folder", "write the path relative to the pack folder")


def confine(path: Path, roots: Sequence[Path], name: str) -> Path:
    """``path`` with symbolic links resolved, if it lies inside one of ``roots``."""
    try:
        resolved = path.resolve()
        inside = any(resolved.is_relative_to(root.resolve()) for root in roots)
    except (OSError, RuntimeError, ValueError) as exc:  # RuntimeError: a loop of links
        raise OutsideError(f"cannot use '{name}': {_reason(exc)}") from None
    if not inside:
        raise OutsideError(f"'{name}' is outside the pack folder; a pack reads only files "
                           "inside its own folder",
                           "move the file into the pack folder and name it relative to it")
    return resolved


def check_size(path: Path, name: str) -> None:
    """Refuse a file larger than :data:`~rulekit.limits.MAX_FILE_BYTES`."""
    try:
        size = path.stat().st_size if path.is_file() else 0
    except OSError as exc:
        raise OutsideError(f"cannot read '{name}': {_reason(exc)}") from None
    if size > MAX_FILE_BYTES:
        raise OutsideError(f"'{name}' is {size:,} bytes long; the limit for a pack file is "
                           f"{MAX_FILE_BYTES:,} bytes")


def pack_file(folder: Path, roots: Sequence[Path], name: str, what: str) -> Path:
    """The file a pack names, inside ``roots`` and within the size limit; it may not exist."""
    check_name(name, what)
    path = folder / name
    confine(path, roots, name)
    check_size(path, name)
    return path


def glob_files(folder: Path, roots: Sequence[Path], pattern: str) -> list[Path]:
    """The files a glob pattern matches, each checked as by :func:`pack_file`."""
    check_name(pattern, "the pattern")
    if ".." in PurePosixPath(pattern).parts:
        raise OutsideError(f"the pattern '{pattern}' climbs out of the pack folder with '..'",
                           "a pack reads only files inside its own folder")
    try:
        matches = sorted(folder.glob(pattern))
    except (OSError, ValueError, IndexError, NotImplementedError) as exc:
        raise OutsideError(f"'{pattern}' is not a usable pattern: {_reason(exc)}") from None
    for match in matches:
        shown = match.relative_to(folder).as_posix() if match.is_relative_to(folder) else pattern
        confine(match, roots, shown)
        if not match.is_file():
            kind = "the folder" if match.is_dir() else "a pipe or a device"
            raise OutsideError(f"the pattern '{pattern}' matches {kind} '{shown}'",
                               "a scenario pattern must match files, such as scenarios/*.yaml")
        check_size(match, shown)
    return matches


def not_a_file(path: Path) -> str:
    """What a path that is no regular file is, to say so (never read: a pipe would block)."""
    return "a folder" if path.is_dir() else "a pipe or a device"


def _reason(exc: BaseException) -> str:
    """What went wrong, in the words of the system."""
    return (exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)) or \
        type(exc).__name__


__all__ = ["OutsideError", "check_name", "check_size", "confine", "display_path", "find_pack",
           "glob_files", "pack_file", "shipped_packs_dir"]
