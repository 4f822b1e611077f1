"""Compiled games kept between runs, so that ``rulekit simulate`` of an unchanged pack starts at
once: neither reading nor compiling the pack, nor importing what does.

An entry is one file in the ``games`` folder of the user's cache folder
(:func:`rulekit.source.store.cache_dir`; none with ``RULEKIT_NO_CACHE=1``): a header of plain JSON,
then the game compiled with one set of parameter values, pickled with its generated functions
(:mod:`rulekit.sim.codepickle`). Its name and header hold the key: the pack folder, the
parameters, a digest of every file under the folder (:func:`rulekit.checks.cache.tree_digest`),
``$RULEKIT_PACKS`` and the stamp of this rulekit and Python
(:func:`rulekit.source.store.code_stamp`);
the header also holds a digest of each folder of the packs it extends. An entry is used only
when all of these match, so an edit of the pack, of a pack it extends, or of rulekit is a miss
(the pack is then loaded, and kept again).

Loading an entry runs the code it holds, so a file is read only if this user alone could have
written it (owned by this user, not writable by others, not too big), as the stores of
:mod:`rulekit.source.store` are. A file that is corrupt, of another format, or fails to load is
ignored and written again. At most :data:`MAX_FILES` entries are kept (the last used).
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulekit.checks.cache import tree_digest
from rulekit.pack.installed import PACKS_ENV
from rulekit.source.store import cache_dir, code_stamp, sha256, trusted

if TYPE_CHECKING:
    from rulekit.engine.game import Game
    from rulekit.pack.loader import LoadedPack

FORMAT = 1
MAX_FILES = 16  # entries kept: the last used
_GAME_FIELDS = ("pack_id", "pack_name", "version", "pack_hash", "role_names", "symbols",
                "program", "params", "card_labels", "step_budget")


def _key(folder: Path, params: Mapping[str, Any]) -> list[str] | None:
    digest = tree_digest(folder)
    if digest is None:
        return None
    return [str(FORMAT), code_stamp(), str(folder), json.dumps(sorted(
        (str(k), repr(v)) for k, v in params.items())), os.environ.get(PACKS_ENV, ""), digest]


def _path(root: Path, key: list[str]) -> Path:
    return root / "games" / f"{sha256(json.dumps(key).encode()).hexdigest()[:32]}.pickle"


class KeptGame:
    """The kept game of the pack in ``folder`` with ``params``, keyed by the files as they are
    when this is made (before the pack is loaded, so that an edit made while it loads is not
    kept under the new files' key)."""

    def __init__(self, folder: Path, params: Mapping[str, Any]) -> None:
        self.params = dict(params)
        self.key: list[str] | None = None
        self.path: Path | None = None
        root = cache_dir()
        if root is None:
            return
        try:
            self.folder = folder.resolve()
            self.key = _key(self.folder, self.params)
        except (OSError, RuntimeError):
            return
        if self.key is not None:
            self.path = _path(root, self.key)

    def get(self) -> tuple[Game, str | None] | None:
        """The game compiled by an earlier run, and the id of the pack it extends (or None);
        None if there is none to trust and use."""
        if self.path is None:
            return None
        try:
            with open(self.path, "rb") as file:
                if not trusted(os.fstat(file.fileno())):
                    return None
                header = json.loads(file.readline())
                if header["key"] != self.key or any(
                        tree_digest(Path(base)) != digest
                        for base, digest in header["bases"].items()):
                    return None
                data = file.read()
            from rulekit.engine.game import Game
            from rulekit.sim.codepickle import loads

            fields = loads(data)
            game = Game(**{name: fields[name] for name in _GAME_FIELDS})
            with contextlib.suppress(OSError):
                os.utime(self.path)  # the last used are kept
            return game, header["base"]
        except Exception:  # missing, corrupt, of another rulekit: loaded and kept again
            return None

    def put(self, loaded: LoadedPack) -> None:
        """Keep the game of ``loaded`` for later runs, unless the pack's files changed since
        this was made; nothing is kept if it cannot be (a failure to write is ignored)."""
        if self.path is None or self.key is None:
            return
        try:
            if self.key != _key(self.folder, self.params):
                return
            game = loaded.game
            bases = {}
            for base in loaded.roots:
                if base.resolve() != self.folder:
                    digest = tree_digest(base.resolve())
                    if digest is None:
                        return
                    bases[str(base.resolve())] = digest
            from rulekit.sim.codepickle import dumps

            data = dumps({name: getattr(game, name) for name in _GAME_FIELDS})
            header = json.dumps({"key": self.key, "bases": bases, "base": loaded.base_id})
        except Exception:  # something that does not pickle: nothing kept
            return
        temporary = self.path.with_name(f"{self.path.stem}.{os.getpid()}.tmp")
        try:
            self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            temporary.write_bytes(header.encode() + b"\n" + data)
            os.replace(temporary, self.path)
            _prune(self.path.parent)
        except OSError:
            with contextlib.suppress(OSError):
                temporary.unlink()


def _prune(folder: Path) -> None:
    """Remove all but the :data:`MAX_FILES` entries last used."""
    entries = sorted(folder.glob("*.pickle"), key=lambda p: p.stat().st_mtime_ns, reverse=True)
    for old in entries[MAX_FILES:]:
        with contextlib.suppress(OSError):
            old.unlink()


__all__ = ["MAX_FILES", "KeptGame"]
