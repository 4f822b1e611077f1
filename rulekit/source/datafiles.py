"""Where the shipped packs, the JSON Schemas and the user's cache folder lie."""

from __future__ import annotations

import os
from pathlib import Path

CACHE_ENV = "RULEKIT_CACHE_DIR"
NO_CACHE_ENV = "RULEKIT_NO_CACHE"
_PACKAGE = Path(__file__).resolve().parent.parent  # rulekit/


def data_dir(name: str) -> Path:
    """The folder ``name`` (``"games"`` or ``"schemas"``) of this installation."""
    installed = _PACKAGE / name
    return installed if installed.is_dir() else _PACKAGE.parent / name


def cache_dir() -> Path | None:
    """The user's cache folder for rulekit; None when caching is off."""
    if os.environ.get(NO_CACHE_ENV, "") not in ("", "0"):
        return None
    explicit = os.environ.get(CACHE_ENV)
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg and Path(xdg).is_absolute():
        return Path(xdg) / "rulekit"
    try:
        return Path.home() / ".cache" / "rulekit"
    except RuntimeError:  # no home folder to be found
        return None


__all__ = ["CACHE_ENV", "NO_CACHE_ENV", "cache_dir", "data_dir"]
