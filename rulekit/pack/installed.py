"""Every pack rulekit can find by id: in $RULEKIT_PACKS, shipped, or installed as a package.

An entry point of the group ``rulekit.packs`` names a package whose folder holds the pack;
the package is found, never imported.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import NamedTuple

from rulekit.source.datafiles import data_dir

PACKS_ENV = "RULEKIT_PACKS"


class FoundPack(NamedTuple):
    """A pack folder found by id, and where it was found."""

    id: str  # the name it is found by: its folder's name, or the entry point's name
    folder: Path
    origin: str
    distribution: str = ""

    @property
    def where(self) -> str:
        """Where it comes from, as ``rulekit list`` shows it."""
        if self.distribution:
            return f"entry point ({self.distribution})"
        return self.origin


def shipped_packs_dir() -> Path:
    """The folder of the shipped packs: ``games/``."""
    return data_dir("games")


def packs_in(folder: Path, origin: str) -> Iterator[FoundPack]:
    """The packs of a folder: itself, or its subfolders with a ``pack.yaml``."""
    try:
        if (folder / "pack.yaml").is_file():
            yield FoundPack(folder.name, folder, origin)
            return
        children = sorted(p for p in folder.iterdir() if (p / "pack.yaml").is_file())
    except OSError:
        return
    for child in children:
        yield FoundPack(child.name, child, origin)


def entry_point_packs() -> Iterator[FoundPack]:
    """The packs offered by the ``rulekit.packs`` entry points that hold a pack.yaml."""
    from importlib.metadata import entry_points

    for point in sorted(entry_points(group="rulekit.packs"), key=lambda p: p.name):
        folder = package_folder(point.value)
        if folder is not None and (folder / "pack.yaml").is_file():
            dist = point.dist
            name = f"{dist.name} {dist.version}" if dist is not None else point.value
            yield FoundPack(point.name, folder, "entry point", name)


def package_folder(name: str) -> Path | None:
    """The folder of the package ``name`` (``pkg`` or ``pkg.sub``), without running it."""
    module = name.split(":", 1)[0].strip()
    parent, _, last = module.rpartition(".")
    if not parent:
        return _top_package_folder(module)
    # a subpackage: look inside its parent's folder rather than import the parent
    folder = package_folder(parent)
    return folder / last if folder is not None and (folder / last).is_dir() else None


def _top_package_folder(module: str) -> Path | None:
    """The folder of a top-level package, found without importing it."""
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def search_order() -> Iterator[FoundPack]:
    """Every pack found by id, in the order an id is looked up."""
    for root in [Path(p) for p in os.environ.get(PACKS_ENV, "").split(os.pathsep) if p]:
        for found in packs_in(root, PACKS_ENV):
            if found.folder != root:
                yield found
    yield from packs_in(shipped_packs_dir(), "shipped")
    yield from entry_point_packs()


def all_packs(paths: Sequence[Path] = ()) -> list[tuple[FoundPack, FoundPack | None]]:
    """Every pack found (those of ``paths`` first), each with the earlier pack that hides it."""
    found: list[tuple[FoundPack, FoundPack | None]] = [
        (pack, None) for path in paths for pack in packs_in(path, "path")]
    seen: dict[str, FoundPack] = {}
    for pack in search_order():
        found.append((pack, seen.get(pack.id)))
        seen.setdefault(pack.id, pack)
    return found


__all__ = ["PACKS_ENV", "FoundPack", "all_packs", "entry_point_packs", "package_folder",
           "packs_in", "search_order", "shipped_packs_dir"]
