"""Where games are kept: a save file each, the games still on, no overwriting.

Each game has a file of its own, named by its pack and start time. So a new game never overwrites
another.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from rulekit.errors import SaveFileError, UsageError
from rulekit.play.savefile import HUMAN, MAX_SAVE_BYTES, SavedGame, read_save

SAVE_PREFIX = "rulekit-"


def now_text() -> str:
    """The time now, as saves record it: UTC, to the second."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def new_save_path(pack_id: str, started: str, folder: Path | None = None) -> Path:
    """A new file for a game of ``pack_id``, named by its start time.

    It is ``rulekit-PACK-YYYYMMDD-HHMMSS.json``, with ``-2``, ``-3``... when taken. It goes in
    ``folder``, by default the working folder. It is made empty at once, so that two games never get
    one name.
    """
    where = folder if folder is not None else Path()
    stamp = started.replace("-", "").replace(":", "").replace("T", "-").rstrip("Z")
    for number in range(1, 1000):
        suffix = "" if number == 1 else f"-{number}"
        path = where / f"{SAVE_PREFIX}{pack_id}-{stamp}{suffix}.json"
        if _created(path):
            return path
    raise SaveFileError(f"cannot find a free name for a save of {pack_id} in {where}")


def _created(path: Path) -> bool:
    """Make ``path`` empty; False if it exists already."""
    try:
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    except FileExistsError:
        return False
    except OSError as exc:
        raise SaveFileError(f"cannot save to {path}: {exc.strerror or exc}") from None
    return True


def refuse_to_overwrite(path: Path) -> None:
    """Refuse a new game's ``--save FILE`` holding a game still on, or no save.

    A finished game may be written over.
    """
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
    """The games still on saved in ``folder``, the latest played first.

    The folder is by default the working folder. With ``pack_id``, only that pack's games are
    listed. Files that are not saves are skipped.
    """
    where = folder if folder is not None else Path()
    found = [item for item in map(_unfinished, where.glob("*.json"))
             if item is not None and (pack_id is None or item.saved.pack == pack_id)]
    found.sort(key=lambda item: (-item.modified, item.path.name))
    return found


def _unfinished(path: Path) -> Unfinished | None:
    """The game in ``path``, if it is a save of a game still on."""
    with contextlib.suppress(OSError, SaveFileError):
        info = path.stat()
        if path.is_file() and 0 < info.st_size <= MAX_SAVE_BYTES:
            saved = read_save(path)
            return None if saved.finished else Unfinished(path, saved, info.st_mtime)
    return None


def describe(item: Unfinished) -> str:
    """A line about a game still on: file, pack, start, decisions, seats."""
    saved = item.saved
    started = (saved.started or "").replace("T", " ").replace("Z", " UTC")
    seats = ", ".join(f"{role}: {'person' if spec == HUMAN else spec}"
                      for role, spec in saved.seats.items())
    when = f"started {started}, " if started else ""
    return (f"{item.path.name}  {saved.pack}, {when}{len(saved.decisions)} decisions "
            f"({seats})")


__all__ = ["SAVE_PREFIX", "Unfinished", "describe", "new_save_path", "now_text",
           "refuse_to_overwrite", "unfinished_games"]
