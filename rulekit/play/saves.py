"""Where games are kept: one save file per game, named by its pack and start time, so that a
new game never overwrites another; the list of games still on; the guard that refuses to write
over an unfinished game."""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from rulekit.errors import SaveFileError, UsageError
from rulekit.play.savefile import MAX_SAVE_BYTES, SavedGame, read_save

SAVE_PREFIX = "rulekit-"


def now_text() -> str:
    """The time now, as saves record it (UTC, to the second)."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def new_save_path(pack_id: str, started: str, folder: Path | None = None) -> Path:
    """A file of its own for a new game of ``pack_id`` in ``folder`` (default: the working
    folder), named by its start time: ``rulekit-PACK-YYYYMMDD-HHMMSS.json`` (``-2``, ``-3``...
    when taken). The file is created empty at once, so that two games never get one name."""
    where = folder if folder is not None else Path()
    stamp = started.replace("-", "").replace(":", "").replace("T", "-").rstrip("Z")
    for number in range(1, 1000):
        suffix = "" if number == 1 else f"-{number}"
        path = where / f"{SAVE_PREFIX}{pack_id}-{stamp}{suffix}.json"
        try:
            os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
        except FileExistsError:
            continue
        except OSError as exc:
            raise SaveFileError(f"cannot save to {path}: {exc.strerror or exc}") from None
        return path
    raise SaveFileError(f"cannot find a free name for a save of {pack_id} in {where}")


def refuse_to_overwrite(path: Path) -> None:
    """A new game's ``--save FILE``: refused when FILE holds a game still on, or is not a save
    at all (a finished game may be written over)."""
    if not path.exists():
        return
    try:
        saved = read_save(path)
    except SaveFileError:
        raise UsageError(f"{path} exists and is not a rulekit save: it is not overwritten",
                         "choose another file with --save") from None
    if not saved.finished:
        raise UsageError(f"{path} holds a game of {saved.pack} that is not over: it is not "
                         f"overwritten", f"go on with it: rulekit play --resume {path}; or "
                         f"choose another file with --save")


@dataclass(frozen=True)
class Unfinished:
    """A save of a game still on."""

    path: Path
    saved: SavedGame
    modified: float


def unfinished_games(folder: Path | None = None, pack_id: str | None = None) -> list[Unfinished]:
    """The games still on saved in ``folder`` (default: the working folder), of ``pack_id``
    or of any pack, the most recently played first. Files that are not saves are skipped."""
    where = folder if folder is not None else Path()
    found: list[Unfinished] = []
    for path in where.glob("*.json"):
        with contextlib.suppress(OSError, SaveFileError):
            info = path.stat()
            if not path.is_file() or info.st_size > MAX_SAVE_BYTES or info.st_size == 0:
                continue
            saved = read_save(path)
            if not saved.finished and (pack_id is None or saved.pack == pack_id):
                found.append(Unfinished(path, saved, info.st_mtime))
    found.sort(key=lambda item: (-item.modified, item.path.name))
    return found


def describe(item: Unfinished) -> str:
    """One line about a game still on: file, pack, start, decisions, seats."""
    saved = item.saved
    started = (saved.started or "").replace("T", " ").replace("Z", " UTC")
    seats = ", ".join(f"{role}: {'person' if spec == 'human' else spec}"
                      for role, spec in saved.seats.items())
    when = f"started {started}, " if started else ""
    return (f"{item.path.name}  {saved.pack}, {when}{len(saved.decisions)} decisions "
            f"({seats})")


__all__ = ["SAVE_PREFIX", "Unfinished", "describe", "new_save_path", "now_text",
           "refuse_to_overwrite", "unfinished_games"]
