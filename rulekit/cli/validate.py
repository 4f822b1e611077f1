"""``rulekit validate PACK...``: every mistake and lint warning of packs, as text or JSON.

An unchanged pack's report comes from :mod:`rulekit.checks.cache`.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter

from rulekit.checks.cache import Report, diagnostic, report
from rulekit.cli.common import Commands, err, out
from rulekit.errors import PackError, cut
from rulekit.pack.find import find_pack


def register(commands: Commands) -> None:
    parser = commands.add_parser(
        "validate", help="check packs and their scenario files",
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
    parser.set_defaults(func=run)


def check(ref: str, use_cache: bool = True) -> Report:
    """The report of the pack ``ref``, a folder or a pack's id."""
    try:
        folder = find_pack(ref)
    except PackError as exc:
        return Report(summary="", failure=None, diagnostics=[diagnostic(exc)])
    return report(folder, use_cache)


def _severities(found: Report) -> Counter[str]:
    return Counter(d["severity"] for d in found["diagnostics"])


def _is_bad(found: Report, strict: bool) -> bool:
    counts = _severities(found)
    return bool(found["failure"] or counts["error"] or (strict and counts["warning"]))


def _as_json(ref: str, found: Report, bad: bool) -> dict[str, object]:
    items: list[dict[str, object]] = [
        {"file": d["file"], "line": d["line"], "column": d["column"], "severity": d["severity"],
         "message": d["message"], "hint": d["hint"]} for d in found["diagnostics"]]
    if found["failure"]:
        items.append({"file": None, "line": None, "column": None, "severity": "error",
                      "message": found["failure"], "hint": None})
    return {"pack": ref, "ok": not bad, "diagnostics": items}


def _print(ref: str, found: Report, bad: bool) -> None:
    if found["failure"]:
        err(f"{ref}: {found['failure']}")
        err(f"{ref}: invalid")
        return
    for item in found["diagnostics"]:
        err(item["text"])
    counts = _counts(found)
    if bad:
        err(f"{ref}: invalid ({counts})")
    else:
        out(f"{ref}: ok ({found['summary']}{'; ' + counts if counts else ''})")


def _counts(found: Report) -> str:
    """The report's numbers of errors, warnings and notes: ``1 error, 2 warnings``."""
    counts = _severities(found)
    return ", ".join(f"{counts[noun]} {noun}{'s' if counts[noun] != 1 else ''}"
                     for noun in ("error", "warning", "note") if counts[noun])


def run(args: argparse.Namespace) -> int:
    """Validate each pack and print the reports; 1 if one is invalid."""
    invalid = 0
    packs = []
    for ref in args.packs:
        found = check(ref, not args.no_cache)
        bad = _is_bad(found, args.strict)
        invalid += bad
        if args.format == "json":
            packs.append(_as_json(ref, found, bad))
        else:
            _print(cut(ref), found, bad)
    if args.format == "json":
        out(json.dumps({"packs": packs}, indent=2))
    elif len(args.packs) > 1:
        _print_total(len(args.packs), invalid)
    return 1 if invalid else 0


def _print_total(packs: int, invalid: int) -> None:
    (err if invalid else out)(f"{packs} packs: {packs - invalid} valid, {invalid} invalid")
