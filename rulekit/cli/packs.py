"""``rulekit list [FOLDER...]``: every pack rulekit can find, with its version and where it
comes from (shipped, an installed distribution's entry point, $RULEKIT_PACKS, or a folder
given on the command line)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from rulekit.cli.common import PROG, err, out


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "list", help="list the packs rulekit can find, and where each comes from",
        description="List every pack that can be named by id (in $RULEKIT_PACKS, shipped with "
                    "rulekit, installed as a Python package), and the packs in the folders "
                    "given, with its version and where it comes from.")
    parser.add_argument("folders", nargs="*", metavar="FOLDER", type=Path,
                        help="a pack folder, or a folder of packs, to list too")
    parser.add_argument("--json", action="store_true", help="one JSON document")
    parser.set_defaults(func=run)


def _manifest(folder: Path) -> dict[str, Any]:
    """The id, name and version a pack's ``pack.yaml`` gives (or a problem reading it)."""
    import yaml

    try:
        data = yaml.safe_load((folder / "pack.yaml").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        return {"problem": f"pack.yaml cannot be read: {type(exc).__name__}"}
    if not isinstance(data, dict):
        return {"problem": "pack.yaml is not a mapping"}
    return {key: str(data[key]) for key in ("id", "name", "version") if key in data}


def _rows(folders: list[Path]) -> list[dict[str, Any]]:
    """One row per pack found: id, version, name, where it comes from, folder, notes."""
    from rulekit.pack.find import display_path
    from rulekit.pack.installed import all_packs

    found = []
    for pack, hidden_by in all_packs(folders):
        manifest = _manifest(pack.folder)
        notes = []
        if "problem" in manifest:
            notes.append(manifest["problem"])
        elif manifest.get("id") != pack.id and pack.origin != "path":
            notes.append(f"found as '{pack.id}', but its pack.yaml says id '{manifest.get('id')}'")
        if hidden_by is not None:
            notes.append(f"hidden by the {pack.id} from {hidden_by.where}")
        found.append({"id": manifest.get("id", pack.id), "version": manifest.get("version", "?"),
                      "name": manifest.get("name", ""), "from": pack.where,
                      "distribution": pack.distribution or None,
                      "folder": display_path(pack.folder), "notes": notes})
    return found


def run(args: argparse.Namespace) -> int:
    from rulekit.pack.installed import packs_in

    empty = [folder for folder in args.folders if not any(packs_in(folder, "path"))]
    for folder in empty:
        err(f"{PROG}: {folder}: no pack there (a pack is a folder with a pack.yaml)")
    found = _rows(args.folders)
    if args.json:
        out(json.dumps({"packs": found}, indent=2))
        return 1 if empty else 0
    if not found:
        out("no packs found")
        return 1 if empty else 0
    header = {"id": "id", "version": "version", "name": "name", "from": "from",
              "folder": "folder"}
    widths = {key: max(len(str(row[key])) for row in [header, *found]) for key in header}
    for row in [header, *found]:
        line = "  ".join(str(row[key]).ljust(widths[key]) for key in header).rstrip()
        out(line)
        for note in row.get("notes", ()):
            out(f"{'':{widths['id']}}  ({note})")
    return 1 if empty else 0
