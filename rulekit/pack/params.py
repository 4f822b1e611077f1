"""Pack parameters: ``KEY=VALUE`` pairs from the command line, checked against a pack's
declarations."""

from __future__ import annotations

from typing import Any

from rulekit.errors import UsageError, did_you_mean


def parse_params(pairs: list[str]) -> dict[str, str]:
    """``["KEY=VALUE", ...]`` from the command line to a mapping."""
    result: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"bad --param '{pair}': expected KEY=VALUE")
        result[key.strip()] = value.strip()
    return result


def outside_bounds(value: Any, spec: dict[str, Any]) -> bool:
    """Whether ``value`` lies outside the ``min`` and ``max`` a parameter's ``spec`` gives."""
    lo, hi = spec.get("min"), spec.get("max")
    return bool((lo is not None and value < lo) or (hi is not None and value > hi))


def resolve_params(declared: dict[str, Any], overrides: dict[str, Any]) -> dict[str, int]:
    """Declared defaults with overrides applied; unknown names and bad values are errors."""
    values = {name: int(spec["default"]) for name, spec in declared.items()}
    for name, raw in overrides.items():
        if name not in declared:
            hint = did_you_mean(name, declared) or (
                f"parameters: {', '.join(declared)}" if declared else "this pack has none")
            raise UsageError(f"unknown parameter '{name}'", hint)
        try:
            value = int(raw)
        except (TypeError, ValueError):
            raise UsageError(f"parameter '{name}' must be an integer, got '{raw}'") from None
        spec = declared[name]
        if outside_bounds(value, spec):
            raise UsageError(f"parameter '{name}' must be between {spec.get('min')} and "
                             f"{spec.get('max')}, got {value}")
        values[name] = value
    return values
