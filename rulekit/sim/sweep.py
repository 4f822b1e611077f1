"""Parameter sweeps: the same games for every combination of some pack parameters.

``--sweep KEY=V1,V2,...`` lists values; ``KEY=A..B`` is every whole number from A to B, and
``KEY=A..B/STEP`` every STEP-th; lists and ranges mix (``3,5..7``). Several sweeps combine as a
grid. Every value is checked against the pack's declared parameters (name and bounds) before
any game is played.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

from rulekit.errors import UsageError

MAX_VALUES = 1000  # values of one swept parameter
MAX_COMBINATIONS = 10_000

Sweep = tuple[str, list[int]]


def _integer(text: str, spec: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise UsageError(f"bad --sweep '{spec}': '{text}' is not a whole number") from None


def _values(item: str, spec: str) -> list[int]:
    start, dots, rest = item.partition("..")
    if not dots:
        return [_integer(item, spec)]
    stop, slash, step_text = rest.partition("/")
    first, last = _integer(start.strip(), spec), _integer(stop.strip(), spec)
    step = _integer(step_text.strip(), spec) if slash else 1
    if step < 1:
        raise UsageError(f"bad --sweep '{spec}': the step of a range must be 1 or more")
    if last < first:
        raise UsageError(f"bad --sweep '{spec}': the range {item} is empty",
                         f"write the smaller bound first: {last}..{first}")
    if (last - first) // step + 1 > MAX_VALUES:
        raise UsageError(f"bad --sweep '{spec}': more than {MAX_VALUES} values",
                         "use a step: A..B/STEP")
    return list(range(first, last + 1, step))


def parse_sweep(spec: str) -> Sweep:
    """``"KEY=V1,V2,A..B"`` to ``(KEY, [values])``."""
    key, sep, text = spec.partition("=")
    key = key.strip()
    if not sep or not key:
        raise UsageError(f"bad --sweep '{spec}': expected KEY=V1,V2,... or KEY=A..B")
    items = [item.strip() for item in text.split(",")]
    if not text.strip() or any(not item for item in items):
        raise UsageError(f"bad --sweep '{spec}': an empty value",
                         f"give values, as in {key}=3,5,7 or {key}=3..11")
    values = [value for item in items for value in _values(item, spec)]
    if len(values) > MAX_VALUES:
        raise UsageError(f"bad --sweep '{spec}': more than {MAX_VALUES} values")
    return key, values


def check_sweeps(specs: Sequence[str], declared: Mapping[str, Any],
                 fixed: Mapping[str, Any]) -> list[Sweep]:
    """Parse ``specs`` and check them against the pack's ``declared`` parameters (each a
    mapping with ``min``/``max``) and the parameters ``fixed`` with ``--param``."""
    from rulekit.pack.params import resolve_params

    sweeps: list[Sweep] = []
    seen: set[str] = set()
    for spec in specs:
        key, values = parse_sweep(spec)
        for value in values:
            try:  # the checks and messages of --param: name (did you mean), bounds
                resolve_params(dict(declared), {key: value})
            except UsageError as exc:
                raise UsageError(f"bad --sweep '{spec}': {exc.message}", exc.hint) from None
        if key in seen:
            raise UsageError(f"--sweep of '{key}' is given twice", "give all its values in one")
        if key in fixed:
            raise UsageError(f"parameter '{key}' is both swept and set with --param",
                             "leave one of them out")
        seen.add(key)
        sweeps.append((key, values))
    count = 1
    for _, values in sweeps:
        count *= len(values)
    if count > MAX_COMBINATIONS:
        raise UsageError(f"the sweeps make {count:,} combinations; at most "
                         f"{MAX_COMBINATIONS:,} are allowed")
    return sweeps


def combinations(sweeps: Sequence[Sweep]) -> list[dict[str, int]]:
    """Every combination of the swept values, the first sweep varying slowest."""
    keys = [key for key, _ in sweeps]
    return [dict(zip(keys, values, strict=True))
            for values in itertools.product(*(values for _, values in sweeps))]


__all__ = ["MAX_COMBINATIONS", "MAX_VALUES", "check_sweeps", "combinations", "parse_sweep"]
