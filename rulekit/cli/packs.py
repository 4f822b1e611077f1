"""``rulekit list``: every pack rulekit can find, with its version and origin."""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

from rulekit.cli.common import PROG, Commands, err, out

if TYPE_CHECKING:
    from rulekit.pack.installed import FoundPack

COLUMNS = ("id", "version", "name", "from", "folder")  # of the text table, in order

# What `rulekit list` says of one pack ("from" is a Python keyword: no class syntax).
PackRow = TypedDict("PackRow", {"id": str, "version": str, "name": str, "from": str,
                                "distribution": str | None, "folder": str, "notes": list[str]})


def register(commands: Commands) -> None:
    parser = commands.add(
        "list", run, help="list the packs rulekit can find, and where each comes from",
        description="List every pack that can be named by id (in $RULEKIT_PACKS, shipped with "
                    "rulekit, installed as a Python package), and the packs in the folders "
                    "given, with its version and where it comes from.")
    parser.add_argument("folders", nargs="*", metavar="FOLDER", type=Path,
                        help="a pack folder, or a folder of packs, to list too")
    parser.add_argument("--json", action="store_true", help="one JSON document")


def run(args: argparse.Namespace) -> int:
    """List the packs; 1 if a folder given holds none."""
    from rulekit.pack.installed import all_packs, packs_in

    empty = [folder for folder in args.folders if not any(packs_in(folder, "path"))]
    for folder in empty:
        err(f"{PROG}: {folder}: no pack there (a pack is a folder with a pack.yaml)")
    found = [_row(pack, hidden_by) for pack, hidden_by in all_packs(args.folders)]
    if args.json:
        out(json.dumps({"packs": found}, indent=2))
    elif found:
        _print_table(found)
    else:
        out("no packs found")
    return 1 if empty else 0


def _manifest(folder: Path) -> dict[str, str]:
    """The id, name and version in a ``pack.yaml``, or why it cannot be read."""
    import yaml

    try:
        data = yaml.safe_load((folder / "pack.yaml").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        return {"problem": f"pack.yaml cannot be read: {type(exc).__name__}"}
    if not isinstance(data, dict):
        return {"problem": "pack.yaml is not a mapping"}
    return {key: str(data[key]) for key in ("id", "name", "version") if key in data}


def _row(pack: FoundPack, hidden_by: FoundPack | None) -> PackRow:
    from rulekit.pack.find import display_path

    manifest = _manifest(pack.folder)
    return {"id": manifest.get("id", pack.id), "version": manifest.get("version", "?"),
            "name": manifest.get("name", ""), "from": pack.where,
            "distribution": pack.distribution or None,
            "folder": display_path(pack.folder), "notes": _notes(pack, hidden_by, manifest)}


def _notes(pack: FoundPack, hidden_by: FoundPack | None, manifest: Mapping[str, str]
           ) -> list[str]:
    notes = []
    if "problem" in manifest:
        notes.append(manifest["problem"])
    elif manifest.get("id") != pack.id and pack.origin != "path":
        notes.append(f"found as '{pack.id}', but its pack.yaml says id '{manifest.get('id')}'")
    if hidden_by is not None:
        notes.append(f"hidden by the {pack.id} from {hidden_by.where}")
    return notes


def _print_table(found: list[PackRow]) -> None:
    """Print the packs as a table, with notes below."""
    rows: list[Mapping[str, object]] = [{key: key for key in COLUMNS}, *found]
    widths = {key: max(len(str(row[key])) for row in rows) for key in COLUMNS}
    out(_line(rows[0], widths))
    for row in found:
        out(_line(row, widths))
        for note in row["notes"]:
            out(f"{'':{widths['id']}}  ({note})")


def _line(row: Mapping[str, object], widths: Mapping[str, int]) -> str:
    return "  ".join(str(row[key]).ljust(widths[key]) for key in COLUMNS).rstrip()
