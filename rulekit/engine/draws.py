"""Uniformly random answers to a choice, drawn straight from its spec (plain data).

:meth:`Decision.sample <rulekit.engine.decisions.Decision.sample>`, ``RandomChooser`` and the
quick answers of playouts draw through these functions, so that the same generator gives the
same answers on every path.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, TypeVar

_T = TypeVar("_T")


def below(rng: random.Random, n: int) -> int:
    """A uniformly random integer from 0 to ``n - 1`` (``n`` > 0), drawn as Python 3.11's
    ``Random.randrange(n)`` draws it: ``n.bit_length()`` bits, again while they make ``n`` or
    more. Every path of the engine draws through this (or the same steps written in place),
    so the same generator gives the same answers on each, whatever Python's own may do."""
    if n <= 0:
        raise ValueError(f"nothing to draw from ({n} possibilities)")
    getrandbits = rng.getrandbits
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def pick(rng: random.Random, items: Sequence[_T]) -> _T:
    """An item of ``items`` drawn uniformly, as Python 3.11's ``Random.choice`` draws it."""
    if not items:
        raise IndexError("cannot choose from an empty sequence")
    return items[below(rng, len(items))]


def draw(spec: dict[str, Any], rng: random.Random) -> Any:
    """A uniformly random answer to a spec, as positions of its items: for a ``one`` choice
    the chosen item's (-1 to decline); for a ``subset`` choice the chosen items' (None if the
    constraints rejected too many draws: then one option is drawn among all of them)."""
    items = spec["items"]
    n = len(items)
    if spec["kind"] == "one":
        if spec.get("optional"):
            return below(rng, n + 1) - 1
        return below(rng, n)
    bits = subset_bits(spec, n, rng)
    return None if bits is None else bit_indexes(bits)


def subset_bits(spec: dict[str, Any], n: int, rng: random.Random) -> int | None:
    """A uniformly random answer to a ``subset`` spec of ``n`` items, as a bit mask (item
    ``i`` is bit ``i``); None if the constraints rejected too many draws."""
    lo, hi = spec["min"], spec["max"]
    # Uniform subsets conditioned on the constraints: rejection sampling (a subset is a bit
    # mask), then enumeration if the constraints reject too much.
    getrandbits = rng.getrandbits
    rules = spec["at_most"]
    if not rules:  # the usual case, in short
        for _ in range(64):
            bits = getrandbits(n) if n else 0
            if lo <= bits.bit_count() <= hi:
                return bits
        return None
    if len(rules) == 1:  # one 'at most' rule, in short
        limit, flags = rules[0]
        mask = mask_of(tuple(flags))
        for _ in range(64):
            bits = getrandbits(n) if n else 0
            if lo <= bits.bit_count() <= hi and (bits & mask).bit_count() <= limit:
                return bits
        return None
    masks = [(limit, mask_of(tuple(flags))) for limit, flags in rules]
    for _ in range(64):
        bits = getrandbits(n) if n else 0
        if lo <= bits.bit_count() <= hi:
            for limit, mask in masks:
                if (bits & mask).bit_count() > limit:
                    break
            else:
                return bits
    return None


@lru_cache(maxsize=4096)
def mask_of(flags: tuple[Any, ...]) -> int:
    """The bit mask of the items a rule's flags mark as true (item ``i`` is bit ``i``)."""
    mask = 0
    for i, flag in enumerate(flags):
        if flag:
            mask |= 1 << i
    return mask


@lru_cache(maxsize=8192)
def bit_indexes(bits: int) -> tuple[int, ...]:
    """The positions of the 1 bits of ``bits``, lowest first."""
    return tuple(i for i in range(bits.bit_length()) if bits >> i & 1)
