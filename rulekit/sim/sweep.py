"""Parameter sweeps (``--sweep KEY=3,5..9/2``): the same games for each combination of values."""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from rulekit.errors import UsageError

if TYPE_CHECKING:
    from rulekit.pack.params import ParamSpec

MAX_VALUES = 1000  # values of one swept parameter
MAX_COMBINATIONS = 10_000

Sweep = tuple[str, list[int]]


def _integer(text: str, spec: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise UsageError(f"bad --sweep '{spec}': '{text}' is not a whole number") from None


def _values(item: str, spec: str) -> list[int]:
    """The values of one item: a number, or a range ``A..B[/STEP]``."""
    start, dots, rest = item.partition("..")
    if not dots:
        return [_integer(item, spec)]
    stop, slash, step_text = rest.partition("/")
    first, last = _integer(start.strip(), spec), _integer(stop.strip(), spec)
    step = _integer(step_text.strip(), spec) if slash else 1
    _check_range(item, spec, first, last, step)
    return list(range(first, last + 1, step))


def _check_range(item: str, spec: str, first: int, last: int, step: int) -> None:
    if step < 1:
        raise UsageError(f"bad --sweep '{spec}': the step of a range must be 1 or more")
    if last < first:
        raise UsageError(f"bad --sweep '{spec}': the range {item} is empty",
                         f"write the smaller bound first: {last}..{first}")
    if (last - first) // step + 1 > MAX_VALUES:
        raise UsageError(f"bad --sweep '{spec}': more than {MAX_VALUES} values",
                         "use a step: A..B/STEP")


def parse_sweep(spec: str) -> Sweep:
    """``"KEY=V1,V2,A..B"`` to ``(KEY, [values])``."""
    key, sep, text = spec.partition("=")
    key = key.strip()
    if not sep or not key:
        raise UsageError(f"bad --sweep '{spec}': expected KEY=V1,V2,... or KEY=A..B")
    values = [value for item in _items(spec, key, text) for value in _values(item, spec)]
    if len(values) > MAX_VALUES:
        raise UsageError(f"bad --sweep '{spec}': more than {MAX_VALUES} values")
    return key, values


def _items(spec: str, key: str, text: str) -> list[str]:
    items = [item.strip() for item in text.split(",")]
    if not text.strip() or not all(items):
        raise UsageError(f"bad --sweep '{spec}': an empty value",
                         f"give values, as in {key}=3,5,7 or {key}=3..11")
    return items


def check_sweeps(specs: Sequence[str], declared: Mapping[str, ParamSpec],
                 fixed: Mapping[str, object]) -> list[Sweep]:
    """Parse ``specs``; check them against the pack's ``declared`` and ``fixed`` parameters."""
    sweeps: list[Sweep] = []
    for spec in specs:
        key, values = parse_sweep(spec)
        _check_values(spec, key, values, declared)
        if any(key == seen for seen, _ in sweeps):
            raise UsageError(f"--sweep of '{key}' is given twice", "give all its values in one")
        if key in fixed:
            raise UsageError(f"parameter '{key}' is both swept and set with --param",
                             "leave one of them out")
        sweeps.append((key, values))
    count = math.prod(len(values) for _, values in sweeps)
    if count > MAX_COMBINATIONS:
        raise UsageError(f"the sweeps make {count:,} combinations; at most "
                         f"{MAX_COMBINATIONS:,} are allowed")
    return sweeps


def _check_values(spec: str, key: str, values: list[int], declared: Mapping[str, ParamSpec]
                  ) -> None:
    """Check each value as ``--param`` would: its name and its bounds."""
    from rulekit.pack.params import resolve_params

    for value in values:
        try:
            resolve_params(dict(declared), {key: value})
        except UsageError as exc:
            raise UsageError(f"bad --sweep '{spec}': {exc.message}", exc.hint) from None


def combinations(sweeps: Sequence[Sweep]) -> list[dict[str, int]]:
    """Every combination of the swept values, the first sweep varying slowest."""
    keys = [key for key, _ in sweeps]
    return [dict(zip(keys, values, strict=True))
            for values in itertools.product(*(values for _, values in sweeps))]
