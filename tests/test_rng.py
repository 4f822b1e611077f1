"""The game's generator gives the same shuffles in every version: a faster shuffle must draw
exactly the orders the old one drew (saved games and golden games depend on it)."""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from rulekit.engine import rng
from rulekit.engine.draws import below, pick


def test_a_shuffle_of_ten_items_is_the_one_it_always_was() -> None:
    items = list(range(10))
    state = rng.shuffle(rng.seed_state(1), items)
    assert items == [4, 5, 3, 9, 1, 0, 2, 6, 7, 8]
    assert state == 3405187124814469334


def test_shuffles_of_every_size_up_to_a_hundred_are_the_ones_they_always_were() -> None:
    digest = hashlib.sha256()
    state = rng.seed_state(2)
    for n in range(100):  # sizes that take one block of digits, and several
        items = list(range(n))
        state = rng.shuffle(state, items)
        assert sorted(items) == list(range(n))
        digest.update(json.dumps(items).encode())
    assert digest.hexdigest() == (
        "f8f534507465410cde27fbf7b2546ae9797789d762106e4fc226605eb23757b3")
    assert state == 15666397041780312905


def test_the_draws_of_random_seats_are_the_ones_they_always_were() -> None:
    """``draws.below`` and ``draws.pick`` draw as Python 3.11's ``randrange`` and ``choice``
    do, on any Python: a seat's generator gives the same answers on every path, in every
    version (the figures were drawn by Python 3.11)."""
    seat = random.Random("rulekit-seat:1:a")
    assert [below(seat, n) for n in (1, 2, 3, 7, 10, 33, 1000, 2**40)] == [
        0, 0, 2, 3, 2, 14, 715, 642643024297]
    seat = random.Random(7)
    assert "".join(pick(seat, "abcdefgh") for _ in range(12)) == "fcgabbfadabg"
    with pytest.raises(ValueError, match="nothing to draw"):
        below(seat, 0)
    with pytest.raises(IndexError):
        pick(seat, [])
