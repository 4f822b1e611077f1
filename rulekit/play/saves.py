"""Where games are kept: a file each, never overwritten, written as the game goes."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from rulekit.errors import SaveFileError, UsageError
from rulekit.play.savefile import HUMAN, MAX_SAVE_BYTES, SavedGame, read_save, write_save
from rulekit.play.screen import Screen

SAVE_PREFIX = "rulekit-"


def now_text() -> str:
    """The time now, as saves record it: UTC, to the second."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def new_save_path(pack_id: str, started: str, folder: Path | None = None) -> Path:
    """A new, empty file ``rulekit-PACK-YYYYMMDD-HHMMSS.json`` in ``folder``; ``-2``... if taken."""
    where = folder if folder is not None else Path()
    stamp = started.replace("-", "").replace(":", "").replace("T", "-").rstrip("Z")
    for number in range(1, 1000):
        suffix = "" if number == 1 else f"-{number}"
        path = where / f"{SAVE_PREFIX}{pack_id}-{stamp}{suffix}.json"
        if _created(path):
            return path
    raise SaveFileError(f"cannot find a free name for a save of {pack_id} in {where}")


def _created(path: Path) -> bool:
    try:
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    except FileExistsError:
        return False
    except OSError as exc:
        raise SaveFileError(f"cannot save to {path}: {exc.strerror or exc}") from None
    return True


def refuse_to_overwrite(path: Path) -> None:
    """Refuse a new game's ``--save FILE`` holding a game still on, or no save."""
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


def unfinished_games(pack_id: str | None = None) -> list[Unfinished]:
    """The saves of games still on here, latest first; other files are skipped."""
    found = [item for item in map(_unfinished, Path().glob("*.json"))
             if item is not None and (pack_id is None or item.saved.pack == pack_id)]
    found.sort(key=lambda item: (-item.modified, item.path.name))
    return found


def _unfinished(path: Path) -> Unfinished | None:
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
    return f"{item.path.name}  {saved.pack}, {when}{len(saved.decisions)} decisions ({seats})"


class Keeper:
    """Keeps one game in ``path``, else in a new file removed at the end unless kept."""

    def __init__(self, screen: Screen, pack_id: str, started: str, path: Path | None,
                 active: bool, snapshot: Callable[[], SavedGame]) -> None:
        self.screen = screen
        self.pack_id = pack_id
        self.started = started
        self._path = path
        self.automatic = active and path is None  # a file of its own, named here
        self.active = active
        self.snapshot = snapshot  # the game as it is now
        self.written = -1  # the number of decisions in the file, once written
        self.failed = False

    @property
    def path(self) -> Path:
        """The game's save file, chosen and made empty on first use."""
        if self._path is None:
            self._path = new_save_path(self.pack_id, self.started)
        return self._path

    def keep(self) -> Path | None:
        """Write the game if it changed. A failure is said once, and the game goes on."""
        if not self.active:
            return None
        saved = self.snapshot()
        if self.written == len(saved.decisions) and self._path is not None:
            return self._path
        try:
            written = write_save(self.path, saved)
        except SaveFileError as exc:
            if not self.failed:
                self.screen.error(f"Not saved: {exc.message}")
            self.failed = True
            return None
        self.failed = False
        self.written = len(saved.decisions)
        return written

    def tell(self, why: str = "The game is saved", *, resumable: bool = True) -> None:
        """Write the game if need be, and say where it is and how to go on with it."""
        written = self.keep()
        if written is None:
            return
        command = "play --resume" if resumable and not self.snapshot().finished else "replay"
        self.screen.note(f"{why} to {shell_path(written)}")
        self.screen.note(f"(rulekit {command} {shell_path(written)})")

    def discard(self) -> None:
        """Remove the automatic save file of a game not kept."""
        if self.automatic and self._path is not None:
            with contextlib.suppress(OSError):
                self._path.unlink()

    def copy(self, path: Path) -> None:
        """``save FILE``: a copy of the game in ``path``."""
        try:
            written = write_save(path, self.snapshot())
        except SaveFileError as exc:
            self.screen.error(f"Not saved: {exc.message}")
            return
        self.screen.note(f"A copy of the game is saved to {shell_path(written)}")


def shell_path(path: Path) -> str:
    """A path as a person would type it: relative, when inside here."""
    try:
        text = str(path.absolute().relative_to(Path.cwd()))
    except ValueError:
        text = str(path)
    return f"'{text}'" if any(c in text for c in " '\"$&;|<>()") else text
