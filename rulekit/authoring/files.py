"""Writing the files authors ask for: whole or not at all."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from rulekit.errors import UsageError

__all__ = ["current_umask", "write_text_atomic"]


def write_text_atomic(path: Path, text: str) -> None:
    """Write ``text`` into ``path`` whole: through a temporary file beside it."""
    folder = path.parent
    if not folder.is_dir():
        raise UsageError(f"cannot write '{path}': no folder '{folder}'")
    if path.is_dir():
        raise UsageError(f"cannot write '{path}': it is a folder")
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        os.chmod(temp, 0o666 & ~current_umask())  # as readable as any other output
        os.replace(temp, path)
    except OSError as exc:
        Path(temp).unlink(missing_ok=True)
        raise UsageError(f"cannot write '{path}': {exc.strerror or exc}") from None


def current_umask() -> int:
    """The process's umask: the permissions new files and folders leave out."""
    mask = os.umask(0)
    os.umask(mask)
    return mask
