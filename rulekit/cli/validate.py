"""``rulekit validate PACK...``: every mistake and lint warning of packs, as text or JSON."""

from __future__ import annotations

import argparse
import json
from collections import Counter

from rulekit.checks.cache import Report, diagnostic, report
from rulekit.cli.common import Commands, err, out
from rulekit.errors import PackError, cut
from rulekit.pack.find import find_pack


def register(commands: Commands) -> None:
    parser = commands.add(
        "validate", run, help="check packs and their scenario files",
        description="Load each pack and its scenario files and report every mistake found, "
                    "and warnings about what is probably a mistake (exit 0 unless --strict).")
    parser.add_argument("packs", nargs="+", metavar="PACK",
                        help="a pack folder, or the id of a shipped pack")
    parser.add_argument("--strict", action="store_true",
                        help="fail (exit 1) on warnings too")
    parser.add_argument("--format", choices=("text", "json"), default="text",
                        help="json: one JSON document with every diagnostic (file, line, "
                             "column, severity, message, hint)")
    parser.add_argument("--no-cache", action="store_true",
                        help="validate from scratch, without reading or writing the cache "
                             "of results (also: RULEKIT_NO_CACHE=1)")


def check(ref: str, use_cache: bool = True) -> Report:
    """The report of the pack ``ref``, a folder or a pack's id."""
    try:
        folder = find_pack(ref)
    except PackError as exc:
        return Report(summary="", failure=None, diagnostics=[diagnostic(exc)])
    return report(folder, use_cache)


def run(args: argparse.Namespace) -> int:
    """Validate each pack and print the reports; 1 if one is invalid."""
    invalid = 0
    packs = []
    for ref in args.packs:
        found = check(ref, not args.no_cache)
        counts = Counter(d["severity"] for d in found["diagnostics"])
        bad = bool(found["failure"] or counts["error"] or (args.strict and counts["warning"]))
        invalid += bad
        if args.format == "json":
            packs.append(_as_json(ref, found, bad))
        else:
            _print(cut(ref), found, bad, counts)
    if args.format == "json":
        out(json.dumps({"packs": packs}, indent=2))
    elif len(args.packs) > 1:
        total = f"{len(args.packs)} packs: {len(args.packs) - invalid} valid, {invalid} invalid"
        (err if invalid else out)(total)
    return 1 if invalid else 0


def _as_json(ref: str, found: Report, bad: bool) -> dict[str, object]:
    items: list[dict[str, object]] = [
        {key: value for key, value in d.items() if key != "text"} for d in found["diagnostics"]]
    if found["failure"]:
        items.append({"file": None, "line": None, "column": None, "severity": "error",
                      "message": found["failure"], "hint": None})
    return {"pack": ref, "ok": not bad, "diagnostics": items}


def _print(ref: str, found: Report, bad: bool, counts: Counter[str]) -> None:
    if found["failure"]:
        err(f"{ref}: {found['failure']}")
        err(f"{ref}: invalid")
        return
    for item in found["diagnostics"]:
        err(item["text"])
    said = ", ".join(f"{counts[noun]} {noun}{'s' if counts[noun] != 1 else ''}"
                     for noun in ("error", "warning", "note") if counts[noun])
    if bad:
        err(f"{ref}: invalid ({said})")
    else:
        out(f"{ref}: ok ({found['summary']}{'; ' + said if said else ''})")
