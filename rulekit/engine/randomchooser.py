"""The random seat: a chooser that draws uniformly among the legal options, with a generator of
its own.

``chooser(decision)`` is ``decision.sample(rng)``. Playouts and the quick answers of
:mod:`~rulekit.engine.answering` draw the same answers straight from a spec
(:meth:`RandomChooser.answer`), without making a :class:`~rulekit.engine.decisions.Decision`.
"""

from __future__ import annotations

import random
from typing import Any

from rulekit.engine.decisions import NONE_ID, Decision, Option, item_ids, option_id
from rulekit.engine.draws import below, bit_indexes, pick, subset_bits


def subset_id(items: list[Any], chosen: list[Any], indexes: tuple[int, ...],
              plain_ids: frozenset[str]) -> str:
    """The option id of the subset ``chosen`` of ``items`` (at ``indexes``, not empty), as
    :func:`option_ids` makes the ids: from the chosen items alone when the items are
    distinct component ids (the usual case)."""
    if plain_ids.issuperset(items) and len(set(items)) == len(items):
        return "+".join(chosen)
    ids = item_ids(items)
    return "+".join([ids[i] for i in indexes])


class RandomChooser:
    """Chooses uniformly at random with its own generator: ``chooser(decision)`` is
    ``decision.sample(rng)``; ``chooser.answer(spec)`` draws the same answer, as (option id,
    value), without making a Decision (playouts use it when no anytime action may be taken)."""

    __slots__ = ("rng",)

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def __call__(self, decision: Decision) -> Option:
        return decision.sample(self.rng)

    def answer(self, spec: dict[str, Any], extras: list[tuple[str, str]] | None = None,
               plain_ids: frozenset[str] = frozenset(), named: bool = True) -> tuple[str, Any]:
        """The answer ``Decision(spec, ..., extras).sample`` draws, as (option id, value);
        the ids are ``spec["ids"]``, or worked out with ``plain_ids`` as ``Runtime.ask`` does
        (:func:`option_ids`), only those of the items drawn. Unless ``named``, the id of an
        answer that is not an anytime action is not made (it is ``""``): the same draws,
        for a game that records no choices."""
        rng = self.rng
        if extras and rng.random() < len(extras) / (len(extras) + 1 + len(spec["items"])):
            return pick(rng, extras)[0], None
        return self.drawn(spec, extras, plain_ids, named)

    def drawn(self, spec: dict[str, Any], extras: list[tuple[str, str]] | None,
              plain_ids: frozenset[str], named: bool) -> tuple[str, Any]:
        """:meth:`answer` once no anytime action was drawn first: an item, or, when the
        draws of a subset are all refused, any of the decision's options (``extras`` among
        them, so an anytime action too)."""
        rng = self.rng
        items = spec["items"]
        if spec["kind"] == "one":  # as draw() does, in short
            n = len(items)
            if spec.get("optional"):
                drawn = below(rng, n + 1) - 1
                if drawn < 0:
                    return NONE_ID, None
            else:
                drawn = below(rng, n)
            if not named:
                return "", items[drawn]
            ids = spec.get("ids")
            return (ids[drawn] if ids else option_id(items, drawn, plain_ids)), items[drawn]
        bits = subset_bits(spec, len(items), rng)
        if bits is None:
            option = pick(rng, Decision(spec, str, extras).options())
            return option.id, option.value
        if not bits:
            return NONE_ID, []
        indexes = bit_indexes(bits)
        chosen = [items[i] for i in indexes]
        if not named:
            return "", chosen
        ids = spec.get("ids")
        if ids:
            return "+".join([ids[i] for i in indexes]), chosen
        return subset_id(items, chosen, indexes, plain_ids), chosen
