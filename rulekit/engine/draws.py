"""Uniformly random answers, drawn in one place so a generator gives one game on every path."""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from rulekit.engine.decisions import Decision, Option
    from rulekit.engine.state import Rule, Spec

_T = TypeVar("_T")

SUBSET_TRIES = 64  # random subsets drawn before the legal ones are listed instead

# A drawn answer: an anytime action's option id, the position of the chosen item (-1 to
# decline), the positions of a chosen subset, or None when too many subsets were refused.
Drawn = str | int | tuple[int, ...] | None


def below(rng: random.Random, n: int) -> int:
    """A random integer below ``n``, as Python 3.11's ``randrange(n)`` (on every Python)."""
    if n <= 0:
        raise ValueError(f"nothing to draw from ({n} possibilities)")
    bits = n.bit_length()
    r = rng.getrandbits(bits)
    while r >= n:
        r = rng.getrandbits(bits)
    return r


def pick(rng: random.Random, items: Sequence[_T]) -> _T:
    """An item drawn uniformly, as Python 3.11's ``Random.choice`` draws it."""
    if not items:
        raise IndexError("cannot choose from an empty sequence")
    return items[below(rng, len(items))]


def random_answer(spec: Spec, rng: random.Random, extras: Sequence[str] = ()) -> Drawn:
    """A uniformly random legal answer to ``spec``, or one of the anytime actions ``extras``.

    Each extra is drawn as often as one item. None: too many random subsets were refused.
    """
    items = spec["items"]
    if spec["kind"] == "one":
        return draw_one(rng, len(items), spec.get("optional", False), extras)
    if extras and rng.random() < len(extras) / (len(extras) + 1 + len(items)):
        return pick(rng, extras)
    return draw_subset(rng, len(items), spec["min"], spec["max"], spec["at_most"])


def draw_one(rng: random.Random, n: int, optional: bool, extras: Sequence[str] = ()
             ) -> int | str:
    """The position of one of ``n`` items (-1 to decline), or sometimes an extra."""
    if extras and rng.random() < len(extras) / (len(extras) + 1 + n):
        return pick(rng, extras)
    count = n + 1 if optional else n  # (to decline is one more answer, drawn as -1)
    if count <= 0:
        raise ValueError(f"nothing to draw from ({count} possibilities)")
    bits = count.bit_length()  # as below() draws, written out: this is the hot path
    drawn = rng.getrandbits(bits)
    while drawn >= count:
        drawn = rng.getrandbits(bits)
    return drawn - 1 if optional else drawn


def draw_subset(rng: random.Random, n: int, least: int, most: int,
                rules: list[Rule]) -> tuple[int, ...] | None:
    """The positions of a subset of ``n`` items the ``[limit, flags]`` rules allow, or None."""
    getrandbits = rng.getrandbits
    # A rule whose flagged items are no more than its limit always holds: it needs no mask.
    masks = []
    for limit, flags in rules:
        if sum(flags) > limit:
            masks.append((limit, _masks(tuple(flags))))
    for _ in range(SUBSET_TRIES):
        bits = getrandbits(n) if n else 0
        if not least <= bits.bit_count() <= most:
            continue
        for limit, mask in masks:
            if (bits & mask).bit_count() > limit:
                break
        else:
            return _positions(bits)
    return None


@lru_cache(maxsize=4096)
def _positions(bits: int) -> tuple[int, ...]:
    """The positions of the 1 bits of ``bits``, lowest first."""
    return tuple([i for i in range(bits.bit_length()) if bits >> i & 1])


@lru_cache(maxsize=4096)
def _masks(flags: tuple[int, ...]) -> int:
    """The bit mask of the items a rule counts: item ``i`` is bit ``i``."""
    return sum(1 << i for i, flag in enumerate(flags) if flag)


class RandomChooser:
    """The random seat: a uniform choice among legal options, with its own generator."""

    __slots__ = ("rng",)

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def __call__(self, decision: Decision) -> Option:
        return decision.sample(self.rng)
