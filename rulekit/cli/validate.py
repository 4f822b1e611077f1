"""``rulekit validate PACK...``: load packs and their scenario files, report every mistake and
lint warning (as text, or as JSON for CI and editors).

A pack is loaded with every check but without compiling its statement lists to Python (see
:func:`~rulekit.pack.loader.load_pack`). The result for a pack free of errors is kept in the
validation cache (:mod:`rulekit.pack.cache`): validating it again unchanged reads no YAML and
compiles nothing; after an edit that keeps what its files mean (a comment, blank lines, the
spaces of code), or changes only numbers that the checks read for their types (a card's
score, a parameter's default, a number of code: :mod:`rulekit.pack.edits`), it reads only the
edited files.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulekit.cli.common import err, out
from rulekit.errors import PackError, PackErrors, RulekitError

if TYPE_CHECKING:
    from rulekit.pack.cache import Prepared, ValidationCache
    from rulekit.pack.loader import LoadedPack
    from rulekit.sim.fork import Forked


def register(commands: Any) -> None:
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


def check(ref: str, use_cache: bool = True) -> tuple[list[PackError], str | None, str]:
    """The diagnostics of one pack, a message for an error that is not located, and a
    summary of the pack ("82 cards, 6 scenarios"); from the cache when nothing changed."""
    from rulekit.pack.cache import ValidationCache
    from rulekit.pack.find import find_pack

    try:
        folder = find_pack(ref)
    except PackError as exc:
        return [exc], None, ""
    cache = ValidationCache(folder) if use_cache else None
    cached = cache.get() if cache is not None else None
    if cached is not None:
        summary, warnings = cached
        return warnings, None, summary
    diagnostics, failure, summary, prepared = _check(folder, cache)
    if cache is not None and failure is None and summary:
        cache.write(prepared, summary, diagnostics)
    return diagnostics, failure, summary


def _check(folder: Path, cache: ValidationCache | None = None,
           ) -> tuple[list[PackError], str | None, str, Prepared | None]:
    """Validate the pack in ``folder``: its diagnostics, a message for an error that is not
    located, its summary, and what ``cache`` is to write of it (:meth:`~rulekit.pack.cache.
    ValidationCache.prepare`). Where that pays, its scenario files are read in a forked
    process while it loads (:mod:`rulekit.scenarios.ahead`, with a cache), and the work that
    needs neither is done in another while they are checked (:func:`_tail`)."""
    from rulekit.pack.loader import load_pack
    from rulekit.scenarios.ahead import read_ahead
    from rulekit.scenarios.cache import check_scenario_files

    reading = read_ahead(folder) if cache is not None else None
    tail: Forked | None = None
    try:
        pack = load_pack(folder, checked_only=True)
        if reading is not None:
            reading.join()
        tail = _fork_tail(pack, cache)
        errors, scenarios = check_scenario_files(pack)
    except BaseException as exc:
        if tail is not None:
            tail.stop()
        if isinstance(exc, PackErrors):
            return list(exc.errors), None, "", None
        if isinstance(exc, PackError):
            return [exc], None, "", None
        if isinstance(exc, RulekitError):
            return [], str(exc), "", None
        raise
    finally:
        if reading is not None:
            reading.stop()
    warnings, prepared = _tail_result(tail, pack, cache)
    summary = f"{len(pack.game.symbols.cards)} cards, {scenarios} scenarios"
    return [*errors, *warnings], None, summary, prepared


def _tail(pack: LoadedPack, cache: ValidationCache | None,
          ) -> tuple[list[PackError], Prepared | None]:
    """What a validation does once its pack is loaded that needs neither its scenario files
    nor their checks: the lint warnings, and the first half of the cache's writing."""
    from rulekit.checks.end import end_condition_reads, end_verdicts
    from rulekit.checks.lint import lint_pack
    from rulekit.pack.edits import Reads, parameter_bounds

    warnings = lint_pack(pack)
    if cache is None:
        return warnings, None
    reads = Reads(end_condition_reads(pack), parameter_bounds(pack.manifest_doc),
                  end_verdicts(pack.game))
    return warnings, cache.prepare(pack.roots, pack.documents, reads)


def _fork_tail(pack: LoadedPack, cache: ValidationCache | None) -> Forked | None:
    """:func:`_tail` started in a forked process (:mod:`rulekit.sim.fork`), which hands back
    its result and what it stored; None where that cannot be done."""
    from rulekit.sim import fork as forked
    from rulekit.source.store import added, added_from_now

    if not forked.can_fork():
        return None

    def work() -> tuple[list[PackError], Prepared | None, dict[str, dict[bytes, bytes]]]:
        added_from_now()
        warnings, prepared = _tail(pack, cache)
        return warnings, prepared, added()

    return forked.start(work)


def _tail_result(tail: Forked | None, pack: LoadedPack, cache: ValidationCache | None,
                 ) -> tuple[list[PackError], Prepared | None]:
    """What :func:`_tail` gave in the forked process, or gives here if that failed."""
    from rulekit.source.store import add

    if tail is not None:
        ok, found = tail.result()
        if ok and isinstance(found, tuple) and len(found) == 3:
            warnings, prepared, stored = found
            add(stored)
            return warnings, prepared
    return _tail(pack, cache)


def _as_json(error: PackError) -> dict[str, Any]:
    loc = error.location
    return {"file": loc.file if loc else None, "line": loc.line if loc else None,
            "column": loc.column if loc else None, "severity": error.kind,
            "message": f"{loc.origin}: {error.message}" if loc and loc.origin else error.message,
            "hint": error.hint}


def run(args: argparse.Namespace) -> int:
    from rulekit.source.store import save_all, switched_off

    if args.no_cache:  # no stored syntax trees nor schema checks either
        with switched_off():
            return _run(args)
    try:
        return _run(args)
    finally:
        save_all()


def _run(args: argparse.Namespace) -> int:
    invalid = 0
    report = []
    for ref in args.packs:
        diagnostics, failure, summary = check(ref, not args.no_cache)
        errors = [d for d in diagnostics if d.kind == "error"]
        warnings = [d for d in diagnostics if d.kind != "error"]
        bad = bool(failure or errors or (args.strict and warnings))
        invalid += bad
        if args.format == "json":
            items = [_as_json(d) for d in diagnostics]
            if failure:
                items.append({"file": None, "line": None, "column": None, "severity": "error",
                              "message": failure, "hint": None})
            report.append({"pack": ref, "ok": not bad, "diagnostics": items})
            continue
        if failure:
            err(f"{ref}: {failure}")
            err(f"{ref}: invalid")
            continue
        for diagnostic in diagnostics:
            err(str(diagnostic))
        counts = ", ".join(f"{len(items)} {noun}{'s' if len(items) != 1 else ''}"
                           for items, noun in ((errors, "error"), (warnings, "warning"))
                           if items)
        if bad:
            err(f"{ref}: invalid ({counts})")
        else:
            out(f"{ref}: ok ({summary}{'; ' + counts if counts else ''})")
    if args.format == "json":
        out(json.dumps({"packs": report}, indent=2))
    elif len(args.packs) > 1:
        valid = len(args.packs) - invalid
        out(f"{len(args.packs)} packs: {valid} valid, {invalid} invalid",
            sys.stderr if invalid else sys.stdout)
    return 1 if invalid else 0
