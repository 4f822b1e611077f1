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
                    rng: random.Random, floor: int = 0,
                    covers: list[tuple[Any, ...]] | None = None) -> list[tuple[int, float]]:
    """``cap`` of the items, as (index, new weight): one of each stratum first (drawn by
    weight within it), the rest drawn by weight; each stratum keeps its total weight, so the
    weights of the strata survive the cap whole. With more strata than ``cap`` (or ``floor``,
    if more), strata are drawn by their total weight. ``covers`` gives each item some labels
    (the value of each hidden variable): before anything else, one item of every label is
    kept (drawn by weight among the items that have it), even beyond ``cap``."""
    groups: dict[str, list[int]] = {}
    for index, stratum in enumerate(strata):
        groups.setdefault(stratum, []).append(index)
    totals = {key: sum(weights[i] for i in members) for key, members in groups.items()}
    forced = [] if covers is None else cover(weights, covers, rng)
    keys = list(groups)
    cap = max(cap, min(len(keys), floor), len(forced))
    taken = set(forced)
    covered = {strata[i] for i in forced}
    keys = [k for k in keys if k not in covered]
    room = cap - len(forced)
    if len(keys) > room:
        keys = weighted_pick(keys, [totals[k] for k in keys], room, rng)
    chosen = forced + [weighted_pick(groups[k], [weights[i] for i in groups[k]], 1, rng)[0]
                       for k in keys]
    if len(chosen) < cap:
        taken.update(chosen)
        rest = [i for k in groups for i in groups[k] if i not in taken]
        chosen += weighted_pick(rest, [weights[i] for i in rest], cap - len(chosen), rng)
    kept_total: dict[str, float] = {}
    for i in chosen:
        kept_total[strata[i]] = kept_total.get(strata[i], 0.0) + weights[i]
    return [(i, totals[strata[i]] * weights[i] / (kept_total[strata[i]] or 1.0))
            for i in sorted(chosen)]


def cover(weights: list[float], covers: list[tuple[Any, ...]], rng: random.Random
          ) -> list[int]:
    """Indexes of items such that every label of ``covers`` is held by one of them at least:
    for each label not yet held, in the order met, one item that has it, drawn by weight."""
    holders: dict[Any, list[int]] = {}
    for index, labels in enumerate(covers):
        for label in labels:
            holders.setdefault(label, []).append(index)
    chosen: list[int] = []
    held: set[Any] = set()
    for label, members in holders.items():
        if label in held:
            continue
        (index,) = weighted_pick(members, [weights[i] for i in members], 1, rng)
        chosen.append(index)
        held.update(covers[index])
    return chosen
