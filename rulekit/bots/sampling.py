"""Drawing some of many weighted items: plainly by weight, or one of each stratum first."""

from __future__ import annotations

import math
import random
from typing import Any


def weighted_pick(items: list[Any], weights: list[float], k: int,
                  rng: random.Random) -> list[Any]:
    """``k`` distinct items drawn with probability by weight (Efraimidis–Spirakis keys)."""
    keyed = sorted(range(len(items)), reverse=True,
                   key=lambda i: math.log(rng.random() or 1e-300) / max(weights[i], 1e-300))
    return [items[i] for i in sorted(keyed[:k])]


def stratified_pick(items: list[Any], weights: list[float], strata: list[str], cap: int,
                    rng: random.Random, floor: int = 0) -> list[tuple[int, float]]:
    """``cap`` of the items, as (index, new weight): one of each stratum first (drawn by
    weight within it), the rest drawn by weight; each stratum keeps its total weight, so the
    weights of the strata survive the cap whole. With more strata than ``cap`` (or ``floor``,
    if more), strata are drawn by their total weight."""
    groups: dict[str, list[int]] = {}
    for index, stratum in enumerate(strata):
        groups.setdefault(stratum, []).append(index)
    totals = {key: sum(weights[i] for i in members) for key, members in groups.items()}
    keys = list(groups)
    cap = max(cap, min(len(keys), floor))
    if len(keys) > cap:
        keys = weighted_pick(keys, [totals[k] for k in keys], cap, rng)
    chosen = [weighted_pick(groups[k], [weights[i] for i in groups[k]], 1, rng)[0]
              for k in keys]
    if len(chosen) < cap:
        taken = set(chosen)
        rest = [i for k in keys for i in groups[k] if i not in taken]
        chosen += weighted_pick(rest, [weights[i] for i in rest], cap - len(chosen), rng)
    kept_total: dict[str, float] = {}
    for i in chosen:
        kept_total[strata[i]] = kept_total.get(strata[i], 0.0) + weights[i]
    return [(i, totals[strata[i]] * weights[i] / (kept_total[strata[i]] or 1.0))
            for i in sorted(chosen)]
