"""The game's random number generator, whose whole state is one integer kept in the game state.

SplitMix64: tiny, fast in pure Python, and the same on every platform and process, so the same
seed gives the same game byte for byte.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

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


@cache
def _factorial(n: int) -> int:
    return math.factorial(n)


def shuffle(state: int, items: list[Any]) -> int:
    """Shuffle ``items`` in place, every order equally likely; return the new generator state.

    One uniform number below ``n!`` is drawn (64 bits at a time, rejecting numbers too large),
    and its mixed-radix digits drive a Fisher-Yates shuffle: exact, and far fewer generator
    steps than one per card.
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
            state = (state + GOLDEN) & MASK
            x = (x << 64) | _out(state)
            got += 64
        x >>= got - bits
        if x < total:
            break
    for i in range(n - 1, 0, -1):
        x, j = divmod(x, i + 1)
        items[i], items[j] = items[j], items[i]
    return state


def _out(state: int) -> int:
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def derive(seed: int, index: int) -> int:
    """The seed of game number ``index`` of a run started from ``seed``."""
    return mix((seed * 0x100000001B3 + index) & MASK) & ((1 << 63) - 1)
