"""Validate one pack: load it with every check, check its scenarios, lint it."""

from __future__ import annotations

from pathlib import Path

from rulekit.checks.cache import Report, diagnostic
from rulekit.checks.lint import lint_pack
from rulekit.errors import PackError, PackErrors, RulekitError
from rulekit.pack import loader
from rulekit.scenarios.check import check_scenario_files


def validate_pack(folder: Path) -> tuple[Report, tuple[Path, ...]]:
    """The report of the pack in ``folder``, and the folders it read (none if it did not load)."""
    try:
        pack = loader.load_pack(folder)
        errors, scenarios = check_scenario_files(pack)
    except PackErrors as exc:
        return _failed(exc.errors), ()
    except PackError as exc:
        return _failed([exc]), ()
    except RulekitError as exc:
        return Report(summary="", failure=str(exc), diagnostics=[]), ()
    found = [*errors, *lint_pack(pack)]
    summary = f"{len(pack.game.symbols.cards)} cards, {scenarios} scenarios"
    return Report(summary=summary, failure=None,
                  diagnostics=[diagnostic(d) for d in found]), pack.roots


def _failed(errors: list[PackError]) -> Report:
    return Report(summary="", failure=None, diagnostics=[diagnostic(e) for e in errors])


__all__ = ["validate_pack"]
