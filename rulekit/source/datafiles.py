"""Where the shipped packs and the JSON Schemas lie.

They are ``games/`` and ``schemas/`` in the repository, and inside the package in a wheel.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent  # rulekit/


def data_dir(name: str) -> Path:
    """The folder ``name`` (``"games"`` or ``"schemas"``) of this installation."""
    installed = _PACKAGE / name
    return installed if installed.is_dir() else _PACKAGE.parent / name


__all__ = ["data_dir"]
