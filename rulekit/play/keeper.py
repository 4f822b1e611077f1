"""The save file of the game being played, written as the game goes.

It is written quietly, and only when the game changed. Where it is is told when it matters.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path

from rulekit.errors import SaveFileError
from rulekit.play.savefile import SavedGame, write_save
from rulekit.play.saves import new_save_path
from rulekit.play.screen import Screen


class Keeper:
    """Keeps one game in its save file.

    That is ``path`` (``--save``, or the resumed file), if given. Else it is a new file named by the
    pack and start time. It is made on first use, and removed at the end unless the player keeps it.
    Without a person or ``--save``, nothing is written.
    """

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
        """Write the game if it changed since the last write.

        A failure is said once, and the game goes on.
        """
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

    def tell(self, why: str = "The game is saved") -> None:
        """Write the game if need be, and say where it is."""
        written = self.keep()
        if written is None:
            return
        command = "replay" if self.snapshot().finished else "play --resume"
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


__all__ = ["Keeper", "shell_path"]
