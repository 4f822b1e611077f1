"""The game's random number generator, SplitMix64: one integer in the state, on any platform."""

from __future__ import annotations

import math
from functools import cache
from typing import TypeVar

_T = TypeVar("_T")

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def seed_state(seed: int) -> int:
    """The generator state for a user's seed (any integer)."""
    return mix(seed & MASK)


def mix(value: int) -> int:
    z = (value + GOLDEN) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


_factorial = cache(math.factorial)


def shuffle(state: int, items: list[_T]) -> int:
    """Shuffle ``items`` in place, each order equally likely; return the new state.

    One number drawn below ``n!`` drives a Fisher-Yates shuffle by its mixed-radix digits.
    """
    n = len(items)
    if n < 2:
        return state
    total = _factorial(n)
    bits = total.bit_length()
    while True:
        x = 0
        got = 0
        while got < bits:
            state = z = (state + GOLDEN) & MASK
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK  # as mix() mixes
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
            x = (x << 64) | z ^ (z >> 31)
            got += 64
        x >>= got - bits
        if x < total:
            break
    # The digits of x in the mixed radix n, n-1, ..., 2, a machine word at a time.
    for product, positions in _digit_blocks(n):
        x, small = divmod(x, product)
        for i, radix in positions:
            j = small % radix
            small //= radix
            items[i], items[j] = items[j], items[i]
    return state


@cache
def _digit_blocks(n: int) -> tuple[tuple[int, tuple[tuple[int, int], ...]], ...]:
    """The positions n-1 down to 1 with their radices, in runs whose product is below 2**62."""
    blocks = []
    positions: list[tuple[int, int]] = []
    product = 1
    for i in range(n - 1, 0, -1):
        if positions and product * (i + 1) >= 1 << 62:
            blocks.append((product, tuple(positions)))
            positions, product = [], 1
        positions.append((i, i + 1))
        product *= i + 1
    if positions:
        blocks.append((product, tuple(positions)))
    return tuple(blocks)


def derive(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run started from ``seed``."""
    return mix((seed * 0x100000001B3 + index) & MASK) & ((1 << 63) - 1)
