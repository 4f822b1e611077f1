"""Drawing some of many weighted items: plainly by weight, or one of each stratum first."""

from __future__ import annotations

import math
import random
from collections.abc import Hashable
from typing import TypeVar

T = TypeVar("T")


def weighted_pick(items: list[T], weights: list[float], k: int, rng: random.Random) -> list[T]:
    """``k`` distinct items drawn with probability by weight (Efraimidis–Spirakis keys)."""
    keyed = sorted(range(len(items)), reverse=True,
                   key=lambda i: math.log(rng.random() or 1e-300) / max(weights[i], 1e-300))
    return [items[i] for i in sorted(keyed[:k])]


def stratified_pick(weights: list[float], strata: list[str], cap: int, rng: random.Random,
                    floor: int = 0, covers: list[tuple[Hashable, ...]] | None = None
                    ) -> list[tuple[int, float]]:
    """``cap`` of the items, as ``(index, new weight)``: one of each label of ``covers`` (even
    beyond ``cap``), one of each stratum, then by weight; each stratum keeps its weight."""
    groups = _grouped(strata)
    totals = {key: sum(weights[i] for i in members) for key, members in groups.items()}
    forced = [] if covers is None else cover(weights, covers, rng)
    cap = max(cap, min(len(groups), floor), len(forced))
    chosen = forced + _one_per_stratum(groups, totals, weights, {strata[i] for i in forced},
                                       cap - len(forced), rng)
    if len(chosen) < cap:
        chosen += _by_weight(groups, weights, set(chosen), cap - len(chosen), rng)
    return _reweighted(chosen, strata, weights, totals)


def _grouped(strata: list[str]) -> dict[str, list[int]]:
    groups: dict[str, list[int]] = {}
    for index, stratum in enumerate(strata):
        groups.setdefault(stratum, []).append(index)
    return groups


def _one_per_stratum(groups: dict[str, list[int]], totals: dict[str, float],
                     weights: list[float], covered: set[str], room: int, rng: random.Random
                     ) -> list[int]:
    """One item of each stratum not ``covered``, drawn by weight."""
    keys = [key for key in groups if key not in covered]
    if len(keys) > room:
        keys = weighted_pick(keys, [totals[key] for key in keys], room, rng)
    return [weighted_pick(groups[key], [weights[i] for i in groups[key]], 1, rng)[0]
            for key in keys]


def _by_weight(groups: dict[str, list[int]], weights: list[float], taken: set[int], k: int,
               rng: random.Random) -> list[int]:
    rest = [i for members in groups.values() for i in members if i not in taken]
    return weighted_pick(rest, [weights[i] for i in rest], k, rng)


def _reweighted(chosen: list[int], strata: list[str], weights: list[float],
                totals: dict[str, float]) -> list[tuple[int, float]]:
    kept_total: dict[str, float] = {}
    for i in chosen:
        kept_total[strata[i]] = kept_total.get(strata[i], 0.0) + weights[i]
    return [(i, totals[strata[i]] * weights[i] / (kept_total[strata[i]] or 1.0))
            for i in sorted(chosen)]


def cover(weights: list[float], covers: list[tuple[Hashable, ...]], rng: random.Random
          ) -> list[int]:
    """Indexes of items that hold every label of ``covers``, drawn by weight."""
    holders: dict[Hashable, list[int]] = {}
    for index, labels in enumerate(covers):
        for label in labels:
            holders.setdefault(label, []).append(index)
    chosen: list[int] = []
    held: set[Hashable] = set()
    for label, members in holders.items():
        if label in held:
            continue
        (index,) = weighted_pick(members, [weights[i] for i in members], 1, rng)
        chosen.append(index)
        held.update(covers[index])
    return chosen
