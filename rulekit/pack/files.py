"""Find a pack folder on disk: by path, or by id among the shipped packs and $RULEKIT_PACKS."""

from __future__ import annotations

import os
from pathlib import Path

from rulekit.errors import PackFileError, did_you_mean

PACKS_ENV = "RULEKIT_PACKS"


def shipped_packs_dir() -> Path:
    """The ``games/`` folder of this checkout, home of the shipped packs."""
    return Path(__file__).resolve().parent.parent.parent / "games"


def find_pack(ref: str) -> Path:
    """The folder of a pack named by path or by id (searched in $RULEKIT_PACKS, then games/)."""
    path = Path(ref)
    if path.exists() or os.sep in ref or "/" in ref or ref.endswith(".yaml"):
        if path.is_file():
            if path.name == "pack.yaml":
                return path.parent
            raise PackFileError(f"{ref}: a pack is a folder with a pack.yaml, not a file",
                                hint=None)
        if not path.exists():
            raise PackFileError(f"{ref}: no such pack folder")
        return path
    roots = [Path(p) for p in os.environ.get(PACKS_ENV, "").split(os.pathsep) if p]
    roots.append(shipped_packs_dir())
    for root in roots:
        candidate = root / ref
        if (candidate / "pack.yaml").is_file():
            return candidate
    known = sorted(p.name for root in roots if root.is_dir() for p in root.iterdir()
                   if (p / "pack.yaml").is_file())
    raise PackFileError(f"{ref}: no pack folder or shipped pack of that name",
                        hint=did_you_mean(ref, known) or (
                            f"shipped packs: {', '.join(known)}" if known else None))



def display_path(path: Path) -> str:
    """A path as shown in messages: relative to the working folder when inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)

