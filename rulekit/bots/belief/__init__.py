"""What one player may know of the hidden state: weighted full states (particles).

A :class:`Belief` for an observer role R is built from R's observations only. R's log holds
the public events, those addressed to R, and R's answers. Between two of R's answers, the
belief replays the rules from each particle (:mod:`~rulekit.bots.belief.history`). It keeps
the states that show R its log. Where R is asked, they must show R what R sees.

The modules, in order: ``compare``, ``logs``, ``deal``, ``particles``, ``repairs``,
``history``, then this one. Each imports only those before it.
"""

from __future__ import annotations

import copy
import random
import weakref
from collections.abc import Hashable
from itertools import accumulate
from typing import TYPE_CHECKING, Protocol, cast

from rulekit.bots.belief.compare import continues, hashable, same_view
from rulekit.bots.belief.deal import Deal, ask_again, redeal
from rulekit.bots.belief.history import Replay
from rulekit.bots.belief.particles import Caps, Particle
from rulekit.engine.game import copy_state
from rulekit.engine.observe import Observation

if TYPE_CHECKING:
    from rulekit.engine.game import Game, State
    from rulekit.engine.state import Event

MAX_RESTARTS = 3  # times a belief that lost the game starts again from its beginning


class BeliefLost(Exception):
    """No state the rules allow shows the observer what it saw."""


class Belief(Replay):
    """The states ``role`` cannot tell apart, kept up to date from its observations.

    Everything random comes from ``rng``. The caps bound its work. ``particles``: the states
    kept. ``frontier``: the branches followed at once. ``keep``: another player's answers
    kept from one state. ``tries``: those tried. ``budget``: the ``apply`` calls of one
    update before fewer branches are followed. ``seeds``: the seeds it starts from.
    """

    def __init__(self, game: Game, role: str, rng: random.Random, *, particles: int = 16,
                 frontier: int = 32, budget: int = 1_000, keep: int = 6, tries: int = 64,
                 seeds: int = 4) -> None:
        self.game = game
        self.role = role
        self.rng = rng
        self.caps = Caps(game, role, particles, frontier)
        self.budget = budget
        self.keep = keep
        self.tries = tries
        self.seeds = seeds
        self.restarts = 0
        self.particles = self._fresh()
        self.seen: list[Event] = []  # R's log as far as the particles have followed it
        self._log: list[Event] = []  # the same, as plain events (the log of a sample)
        self.observation: Observation | None = None
        self.lost = False
        self._spent = 0
        self._loose = False
        self._cumulative: list[float] = []  # the particles' weights, added up (for draws)

    def update(self, observation: Observation) -> Belief:
        """Follow the game up to ``observation``, R's observation now; return self.

        Agents update it when they must decide. An observation may also be taken while
        others decide. It then keeps the states after any number of their steps.
        """
        log = observation["log"]
        if not continues(log, self.seen):
            raise ValueError("the observation does not continue the one this belief follows")
        if self._followed_up_to(observation):
            return self
        finals = self._followed(log, observation)
        if finals:
            self._keep_particles(finals)
        self.lost = not finals
        self._log += [cast("Event", dict(e)) for e in log[len(self.seen):]]
        self.seen = list(log)
        self.observation = observation
        return self

    def _followed_up_to(self, observation: Observation) -> bool:
        """Whether the belief has followed the game up to ``observation``."""
        last = self.observation
        return last is not None and (observation is last or (len(observation["log"]) == len(
            self.seen) and same_view(observation, last)))

    def _fresh(self) -> list[Particle]:
        """New games of unknown seeds, to start from."""
        return [Particle(self.game.initial_state(self.rng.getrandbits(63)), 1.0 / self.seeds)
                for _ in range(self.seeds)]

    def _followed(self, log: list[Event], observation: Observation) -> list[Particle]:
        """The particles that follow ``log`` to ``observation``.

        If none does, the belief starts again from the game's beginning. It does so
        :data:`MAX_RESTARTS` times at most, and not right after such a start.
        """
        finals = [] if self.lost else self._follow_both_ways(log[len(self.seen):], observation)
        if finals or self.restarts >= MAX_RESTARTS or not (self.seen or self.lost):
            return finals
        self.restarts += 1
        self.particles = self._fresh()
        return self._follow_both_ways(list(log), observation)

    def _follow_both_ways(self, target: list[Event], observation: Observation
                          ) -> list[Particle]:
        """The particles followed along ``target``: exactly, or else loosely.

        Loosely, events match R's if the same statements log them. What R sees is then made
        to agree.
        """
        finals = self._advance(target, observation)
        if not finals and self.seen:
            self._loose = True
            finals = self._advance(target, observation)
            self._loose = False
        return finals

    def _keep_particles(self, finals: list[Particle]) -> None:
        """Keep some of ``finals``, each with the deal of its cards."""
        self.particles = self.caps.resample(finals, self.rng)
        for particle in self.particles:
            particle.deal = Deal(self.game, particle.state, self.role)
        self._cumulative = list(accumulate(p.weight for p in self.particles))

    def distribution(self, variable: str) -> dict[Hashable, float]:
        """The values a variable may hold, with their weights summing to 1.

        ``variable`` is a key of ``state["vars"]``, such as ``"name"`` or ``"name.index"``.
        List values are given as tuples.
        """
        self._check()
        result: dict[Hashable, float] = {}
        for p in self.particles:
            value = hashable(p.state["vars"][variable])
            result[value] = result.get(value, 0.0) + p.weight
        return result

    def sample(self, rng: random.Random) -> State:
        """A full state drawn from the belief, which R cannot tell from the real one.

        The cards R cannot see are dealt again, by kind. The generator is renewed. The log is
        R's own. So ``observe(sample, R)`` is R's observation.
        """
        self._check()
        chosen = rng.choices(self.particles, cum_weights=self._cumulative)[0]
        base = chosen.state.copy()
        base["log"] = self._log  # R's log (its events shared)
        state = copy_state(base)
        if redeal(self.game, state, self.role, rng, chosen.deal):
            state = ask_again(self.game, state, rng)
        return state

    def fork(self) -> Belief:
        """A copy that may follow the game on its own.

        The particles' states are shared: they are never changed in place.
        """
        new = copy.copy(self)
        new.rng = random.Random(self.rng.getrandbits(64))
        new.particles = [Particle(p.state, p.weight, p.exact, p.deal) for p in self.particles]
        new._log = self._log[:]
        return new

    def _check(self) -> None:
        """Raise :class:`BeliefLost` if there is no state to read."""
        if self.observation is None:
            raise BeliefLost("the belief has not been given an observation yet")
        if self.lost:
            raise BeliefLost(f"no state the rules allow shows {self.role} what it was shown")


class Seat(Protocol):
    """What :func:`belief_for` reads of a seat (an agent's ``View`` is one)."""

    game: Game
    role: str
    rng: random.Random  # the seat's generator: it belongs to one game
    observation: Observation  # what the seat sees now
    past: list[Observation] | None  # its earlier observations, if no belief followed them


_beliefs: weakref.WeakKeyDictionary[random.Random, Belief] = weakref.WeakKeyDictionary()


def belief_for(view: Seat) -> Belief:
    """The belief of the seat ``view`` is for, up to its current observation.

    One belief is kept per seat and game. Its generator is drawn from the seat's, so games
    replay. A new belief first follows the view's ``past`` observations. The seat's past
    hands are in no log.
    """
    belief = _beliefs.get(view.rng)
    if belief is not None and belief.observation is view.observation:
        return belief  # asked again for the same decision (a search's iterations)
    if belief is None or not _follows(belief, view):
        belief = Belief(view.game, view.role, random.Random(view.rng.getrandbits(64)))
        _beliefs[view.rng] = belief
        follow_past(belief, view.past)
    return belief.update(view.observation)


def _follows(belief: Belief, view: Seat) -> bool:
    """Whether ``belief`` is one of ``view``'s seat, in this game."""
    return belief.game is view.game and belief.role == view.role \
        and continues(view.observation["log"], belief.seen)


def follow_past(belief: Belief, past: list[Observation] | None) -> None:
    """Bring ``belief`` along the observations of ``past``, then empty it."""
    if not past:
        return
    for earlier in past:
        belief.update(earlier)
    past.clear()


__all__ = ["Belief", "BeliefLost", "Particle", "Seat", "belief_for", "continues",
           "follow_past", "same_view"]
