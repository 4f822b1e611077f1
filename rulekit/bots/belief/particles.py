"""The weighted states a belief keeps, and how its caps choose them."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rulekit.bots.belief.compare import Key, state_key
from rulekit.bots.belief.deal import Deal, Mixed, common
from rulekit.bots.belief.sampling import stratified_pick

if TYPE_CHECKING:
    from rulekit.engine.game import Game, State

Label = tuple[int, str, int, str]  # how far in R's log, where the rules stand, variable, value


@dataclass
class Particle:
    """A full state R cannot tell from the real one, with its weight."""

    state: State
    weight: float
    exact: bool = True
    deal: Deal | None = None  # where a sample deals the unseen cards
    mixed: Mixed = ()  # kinds R has not told apart since they lay together


@dataclass(slots=True)
class Branch:
    """A state replayed along R's log, with its weight and place in the log."""

    state: State
    weight: float
    exact: bool
    pos: int
    key: Key = b""
    trail: frozenset[Key] = frozenset()
    mixed: Mixed = ()  # kinds R has not told apart since they lay together

    def at(self, state: State) -> Branch:
        """This branch with ``state``, its cards repaired, in its place."""
        return Branch(state, self.weight, self.exact, self.pos, mixed=self.mixed)


Following = dict[tuple[Key, int, bool], Branch]  # the states kept after a step, by key


class Caps:
    """How many states a belief keeps, and which."""

    def __init__(self, game: Game, role: str, particles: int, frontier: int) -> None:
        self.max_particles = particles
        self.max_frontier = frontier
        self.hidden_vars = [value.key for value in game.layout.values
                            if not value.seen_by(role)]  # a cap keeps a state of each value

    def cap(self, branches: list[Branch], cap: int, rng: random.Random) -> list[Branch]:
        """At most ``cap`` of ``branches``, exact ones first. Hidden values may need more."""
        if len(branches) <= cap:
            return branches
        exact = [b for b in branches if b.exact]
        pool = exact if len(exact) >= cap else branches
        kept = self._picked(pool, [b.pos for b in pool], cap, rng, self.max_frontier)
        return [Branch(pool[i].state, w, pool[i].exact, pool[i].pos, pool[i].key, pool[i].trail,
                       pool[i].mixed) for i, w in kept]

    def resample(self, finals: list[Particle], rng: random.Random) -> list[Particle]:
        """The particles kept of ``finals``, exact ones if any."""
        merged = _merged(finals)
        kept = [p for p in merged if p.exact] or merged
        if len(kept) > self.max_particles:
            picked = self._picked(kept, [-1] * len(kept), self.max_particles, rng)
            kept = [Particle(kept[i].state, w, kept[i].exact, mixed=kept[i].mixed)
                    for i, w in picked]
        _normalize(kept)
        return kept

    def _picked(self, items: Sequence[Particle | Branch], positions: list[int], cap: int,
                rng: random.Random, floor: int = 0) -> list[tuple[int, float]]:
        states = [(item.state, pos) for item, pos in zip(items, positions, strict=True)]
        return stratified_pick([item.weight for item in items],
                               [self.stratum(state, pos) for state, pos in states], cap, rng,
                               floor, [self.labels(state, pos) for state, pos in states])

    def stratum(self, state: State, pos: int = -1) -> str:
        """What a cap keeps apart: hidden values, and where a state stands."""
        values = state["vars"]
        hidden = [values[key] for key in self.hidden_vars]
        if pos < 0:
            return repr(hidden)
        return repr((pos, hidden, _where(state)))

    def labels(self, state: State, pos: int = -1) -> tuple[Label, ...]:
        """The value of each hidden variable, and while replaying where a state stands."""
        values = state["vars"]
        where = repr(_where(state)) if pos >= 0 else ""
        return tuple((pos, where, i, repr(values[key])) for i, key in enumerate(self.hidden_vars))


def _where(state: State) -> list[tuple[str, int]]:
    return [(frame["proc"], frame["pc"]) for frame in state["stack"]]


def _normalize(particles: list[Particle]) -> None:
    total = sum(p.weight for p in particles) or 1.0
    for p in particles:
        p.weight /= total


def _merged(particles: list[Particle]) -> list[Particle]:
    merged: dict[tuple[Key, bool], Particle] = {}
    for p in particles:
        key = (state_key(p.state), p.exact)
        if key in merged:
            merged[key].weight += p.weight
            merged[key].mixed = common(merged[key].mixed, p.mixed)
        else:
            merged[key] = p
    return list(merged.values())
