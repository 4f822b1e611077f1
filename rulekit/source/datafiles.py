"""Where the data that ships with rulekit lies: the shipped packs and the JSON Schemas.

In the repository, they are the top-level folders ``games/`` and ``schemas/``. An editable
install reads them there. A built wheel carries them inside the package, as ``rulekit/games/``
and ``rulekit/schemas/`` (see ``[tool.setuptools.package-dir]`` in pyproject.toml).
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent  # rulekit/


def data_dir(name: str) -> Path:
    """The folder ``name`` (``"games"`` or ``"schemas"``) of this installation."""
    installed = _PACKAGE / name
    return installed if installed.is_dir() else _PACKAGE.parent / name


__all__ = ["data_dir"]
