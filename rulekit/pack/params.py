"""Pack parameters: ``KEY=VALUE`` pairs from the command line, checked."""

from __future__ import annotations

from collections.abc import Mapping
from typing import NotRequired, TypedDict

from rulekit.errors import UsageError, did_you_mean


class ParamSpec(TypedDict):
    """A parameter as ``pack.yaml`` declares it: an integer with bounds."""

    default: int
    min: NotRequired[int]
    max: NotRequired[int]
    description: NotRequired[str]


def parse_params(pairs: list[str]) -> dict[str, str]:
    """``["KEY=VALUE", ...]`` from the command line to a mapping."""
    result: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"bad --param '{pair}': expected KEY=VALUE")
        result[key.strip()] = value.strip()
    return result


def outside(value: int, lo: int | None, hi: int | None) -> bool:
    """Whether ``value`` lies below ``lo`` or above ``hi`` (None: no bound)."""
    return (lo is not None and value < lo) or (hi is not None and value > hi)


def resolve_params(declared: Mapping[str, ParamSpec],
                   overrides: Mapping[str, str | int]) -> dict[str, int]:
    """The declared defaults, with overrides applied."""
    values = {name: int(spec["default"]) for name, spec in declared.items()}
    return values | {name: _checked(declared, name, raw) for name, raw in overrides.items()}


def _checked(declared: Mapping[str, ParamSpec], name: str, raw: str | int) -> int:
    if name not in declared:
        hint = did_you_mean(name, declared) or (
            f"parameters: {', '.join(declared)}" if declared else "this pack has none")
        raise UsageError(f"unknown parameter '{name}'", hint)
    try:
        value = int(raw)
    except (TypeError, ValueError):
        raise UsageError(f"parameter '{name}' must be an integer, got '{raw}'") from None
    spec = declared[name]
    if outside(value, spec.get("min"), spec.get("max")):
        raise UsageError(f"parameter '{name}' must be between {spec.get('min')} and "
                         f"{spec.get('max')}, got {value}")
    return value
