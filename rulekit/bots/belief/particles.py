"""The weighted states a belief keeps (particles), and how its caps keep some of many.

A cap keeps apart what the observer cannot see: the value of each hidden variable (one state of
each is kept, even beyond the cap) and, while replaying, how far a state has followed the
observer's log and where the rules stand in it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rulekit.bots.belief.compare import Key, state_key
from rulekit.bots.belief.deal import Deal
from rulekit.bots.belief.sampling import stratified_pick

if TYPE_CHECKING:
    from rulekit.engine.game import Game, State

Item = tuple["State", float, bool, int]  # a state being replayed: weight, exact, position


@dataclass
class Particle:
    """One full state the observer cannot tell from the real one, with its weight.

    ``exact`` is false when the particle's events matched R's log only in kind (the same
    statement logged, other values): its visible part was then made to agree with the
    observation. Exact particles are preferred whenever there are any.
    """

    state: State
    weight: float
    exact: bool = True
    deal: Deal | None = None  # where a sample deals the unseen cards (found once)


class Caps:
    """How many states a belief of ``role`` keeps (``particles``; ``frontier`` while
    replaying), and which: drawn by weight, one of each stratum first
    (:func:`~rulekit.bots.belief.sampling.stratified_pick`), drawn with the generator given."""

    def __init__(self, game: Game, role: str, particles: int, frontier: int) -> None:
        self.max_particles = particles
        self.max_frontier = frontier
        # The variables R cannot see: the states kept under a cap cover each of their values.
        self.hidden_vars = [value.key for value in game.layout.values
                            if not value.seen_by(role)]

    def cap(self, items: list[Item], cap: int, rng: random.Random) -> list[Item]:
        """At most ``cap`` items (more if the hidden variables have more values): exact ones
        first, then drawn by weight, one of each value of each hidden variable and one of each
        stratum first."""
        if len(items) <= cap:
            return items
        exact = [i for i in items if i[2]]
        pool = exact if len(exact) >= cap else items
        kept = stratified_pick(pool, [i[1] for i in pool],
                               [self.stratum(i[0], i[3]) for i in pool], cap, rng,
                               self.max_frontier, [self.labels(i[0], i[3]) for i in pool])
        return [(pool[i][0], w, pool[i][2], pool[i][3]) for i, w in kept]

    def stratum(self, state: State, pos: int | None = None) -> str:
        """What a cap keeps apart: the values of the variables R cannot see; while replaying,
        also how far the state has followed R's log and where the rules stand in it (the
        others' unseen answers lead to different questions, which R's log tells apart
        later)."""
        values = state["vars"]
        hidden = [values[key] for key in self.hidden_vars]
        if pos is None:
            return repr(hidden)
        return repr((pos, hidden, [(frame["proc"], frame["pc"]) for frame in state["stack"]]))

    def labels(self, state: State, pos: int = -1) -> tuple[tuple[int, str, int, str], ...]:
        """The value of each variable R cannot see (while replaying, with how far the state
        has followed R's log and where the rules stand): a cap keeps one state of each (a
        cap that holds fewer states than a variable has values would otherwise drop some)."""
        values = state["vars"]
        where = repr([(frame["proc"], frame["pc"]) for frame in state["stack"]]) if pos >= 0 else ""
        return tuple((pos, where, i, repr(values[key]))
                     for i, key in enumerate(self.hidden_vars))

    def resample(self, finals: list[Particle], rng: random.Random) -> list[Particle]:
        """The particles kept of ``finals``: equal states merged, exact ones only if there are
        any, at most ``particles`` of them, their weights summing to 1."""
        merged: dict[tuple[Key, bool], Particle] = {}
        for p in finals:
            key = (state_key(p.state), p.exact)
            if key in merged:
                merged[key].weight += p.weight
            else:
                merged[key] = p
        kept = list(merged.values())
        if any(p.exact for p in kept):
            kept = [p for p in kept if p.exact]
        if len(kept) > self.max_particles:
            picked = stratified_pick(kept, [p.weight for p in kept],
                                     [self.stratum(p.state) for p in kept], self.max_particles,
                                     rng, covers=[self.labels(p.state) for p in kept])
            kept = [Particle(kept[i].state, w, kept[i].exact) for i, w in picked]
        total = sum(p.weight for p in kept) or 1.0
        for p in kept:
            p.weight /= total
        return kept
