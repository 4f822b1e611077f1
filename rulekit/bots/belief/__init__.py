"""What one player may know of the hidden state: a set of weighted full states (particles).

A :class:`Belief` for an observer role R is built from R's observations only, never from the
real state. R's observation holds R's log, which lists, in order, every public event, every
event addressed to R and every answer R gave. Between two of R's answers the belief *replays
the rules*: from each particle it answers R's decisions with R's real answers and branches over
every legal option of the other players (anytime actions included), and keeps the branches
whose events, as R sees them, are the events of R's log. When R is asked, each surviving
branch must also show R exactly what R is shown now (zones, variables, the decision, who is
still deciding); cards R sees are first swapped in from places R cannot see. See
``docs/bots.md`` for the weights, the caps and the limits.

The phases live in modules of their own, each importing only those before it:
:mod:`~rulekit.bots.belief.compare` (comparing observations), :mod:`~rulekit.bots.belief.particles`
(the
states kept and the caps), :mod:`~rulekit.bots.belief.repairs` (cards renamed or gathered),
:mod:`~rulekit.bots.belief.history` (the rules replayed along R's log), then this one (following the
game from one observation to the next, and reading the belief).
"""

from __future__ import annotations

import copy
import math
import random
import weakref
from bisect import bisect
from itertools import accumulate
from typing import TYPE_CHECKING, Any, Protocol, cast

from rulekit.bots.belief.compare import continues, hashable, same_view
from rulekit.bots.belief.deal import Deal, ask_again, named_cards, redeal
from rulekit.bots.belief.history import Replay
from rulekit.bots.belief.logs import Event
from rulekit.bots.belief.particles import Caps, Particle
from rulekit.engine.frozen import FrozenList
from rulekit.engine.game import copy_state
from rulekit.engine.state import Event as LogEntry

if TYPE_CHECKING:
    from rulekit.engine.game import Game, State

MAX_RESTARTS = 3  # times a belief that lost the game starts again from its beginning


class BeliefLost(Exception):
    """No state the rules allow shows the observer what it was shown (see docs/bots.md)."""


class Belief(Replay):
    """The states ``role`` cannot tell apart, kept up to date from its observations.

    ``particles`` caps the number of states kept (sampled by weight beyond it); ``frontier``
    caps the branches followed at once while replaying, ``keep`` the answers of another player
    kept from one state (tried in random order beyond it, at most ``tries`` of them), and
    ``budget`` the number of
    ``apply`` calls one update may make (past it the frontier shrinks). ``seeds`` is how many
    unknown generator seeds the belief starts from. Everything random comes from ``rng``, so a
    belief fed the same observations is the same.
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
        self.observation: dict[str, Any] | None = None
        self.lost = False
        self._spent = 0
        self._loose = False
        self._sampled: list[Particle] | None = None  # the particles _cumulative is of
        self._cumulative: list[float] = []
        self._total: float | None = None  # the last cumulative weight, if one can draw by them
        self._deals: dict[tuple[Any, ...], Deal] = {}  # Deal of a layout (see _deal)

    # ------------------------------------------------------------ following the game

    def update(self, observation: dict[str, Any]) -> Belief:
        """Follow the game up to ``observation`` (R's observation now); return self.

        Agents update it when they must decide. Taken while others decide, an observation
        only says that R is not asked: the states kept are those after any number of the
        others' steps that show it.
        """
        if observation is self.observation:  # a search asks once per iteration
            return self
        log = observation["log"]
        if not continues(log, self.seen):
            raise ValueError("the observation does not continue the one this belief follows")
        if self.observation is not None and len(log) == len(self.seen) \
                and same_view(observation, self.observation):
            return self
        finals = [] if self.lost else self._follow_both_ways(log[len(self.seen):], observation)
        if not finals and self.restarts < MAX_RESTARTS and (self.seen or self.lost):
            # (a belief that has just followed the game from its beginning is not restarted)
            # Start again from the beginning of the game with other unknown seeds.
            self.restarts += 1
            self.particles = self._fresh()
            finals = self._follow_both_ways(list(log), observation)
        if finals:
            self.particles = self.caps.resample(finals, self.rng)
            self._deals = {}
            for particle in self.particles:  # found now, so that a draw only deals
                particle.deal = self._deal(particle.state)
        self.lost = not finals
        self._log += [dict(e) for e in log[len(self.seen):]]
        self.seen = log if log.__class__ is FrozenList else list(log)  # never changed
        self.observation = observation
        return self

    def _fresh(self) -> list[Particle]:
        return [Particle(self.game.initial_state(self.rng.getrandbits(63)), 1.0 / self.seeds)
                for _ in range(self.seeds)]

    def _follow_both_ways(self, target: list[Event], observation: dict[str, Any]
                          ) -> list[Particle]:
        """The particles followed along ``target``: exactly, or else loosely (the same
        statements logged, any values; what R sees is then made to agree)."""
        finals = self._advance(target, observation)
        if not finals and self.seen:
            self._loose = True
            finals = self._advance(target, observation)
            self._loose = False
        return finals


    def distribution(self, variable: str) -> dict[Any, float]:
        """The values the variable ``variable`` (a key of ``state["vars"]``, such as
        ``"name"`` or ``"name.index"``) may hold, with their weights (summing to 1).
        List values are given as tuples."""
        self._check()
        result: dict[Any, float] = {}
        for p in self.particles:
            value = hashable(p.state["vars"][variable])
            result[value] = result.get(value, 0.0) + p.weight
        return result

    def sample(self, rng: random.Random) -> State:
        """A full state drawn from the belief that R cannot tell from the real one.

        The cards R cannot see are dealt again among the places R cannot see (by kind), the
        generator is renewed, and the log is R's own, so ``observe(sample, R)`` is R's
        observation.
        """
        if self.lost or self.observation is None:
            self._check()
        particles = self.particles
        if self._sampled is not particles:  # the cumulative weights, once per set of particles
            self._sampled = particles
            self._cumulative = list(accumulate(p.weight for p in particles))
            total = self._cumulative[-1] + 0.0 if particles else math.nan
            self._total = total if 0.0 < total < math.inf else None
        if self._total is None:  # (no weight to draw by: rng.choices says why)
            chosen = rng.choices(particles, cum_weights=self._cumulative)[0]
        else:  # the draw rng.choices makes, without its checks at every draw
            chosen = particles[bisect(self._cumulative, rng.random() * self._total, 0,
                                      len(particles) - 1)]
        if chosen.deal is None:
            chosen.deal = self._deal(chosen.state)
        base = chosen.state.copy()
        base["log"] = cast("list[LogEntry]", self._log)  # R's log (its events shared)
        state = copy_state(base)
        if redeal(self.game, state, self.role, rng, chosen.deal):
            state = ask_again(self.game, state, rng)
        return state

    def _deal(self, state: State) -> Deal:
        """The :class:`Deal` of ``state``, shared by the particles with the same cards in the
        same places and the same cards named by their pending decisions."""
        key = (tuple(map(tuple, state["zones"].values())), tuple(sorted(named_cards(state))))
        deal = self._deals.get(key)
        if deal is None:
            deal = self._deals[key] = Deal(self.game, state, self.role)
        return deal

    def fork(self) -> Belief:
        """A copy that may follow the game on its own (the particles' states are shared: they
        are never changed in place)."""
        new = copy.copy(self)
        new.rng = random.Random(self.rng.getrandbits(64))
        new.particles = [Particle(p.state, p.weight, p.exact, p.deal) for p in self.particles]
        new._deals = {}
        new._log = self._log[:]
        return new

    def _check(self) -> None:
        if self.observation is None:
            raise BeliefLost("the belief has not been given an observation yet")
        if self.lost:
            raise BeliefLost(f"no state the rules allow shows {self.role} what it was shown")


class Seat(Protocol):
    """What :func:`belief_for` reads of a seat (an agent's ``View`` is one)."""

    game: Game
    role: str
    rng: random.Random  # the seat's generator: it belongs to one game
    observation: dict[str, Any]  # what the seat sees now
    past: list[dict[str, Any]] | None  # its earlier observations, if no belief followed them


_beliefs: weakref.WeakKeyDictionary[random.Random, Belief] = weakref.WeakKeyDictionary()


def belief_for(view: Seat) -> Belief:
    """The belief of the seat ``view`` is for, brought up to its current observation.

    One belief is kept per seat and game (a seat's generator belongs to one game), fed only
    with the seat's observations; its generator is drawn from the seat's, so games replay. A
    new belief first follows the view's ``past`` observations (a resumed game's, which it
    then empties): built from the last observation alone, it would often lose the game,
    since the seat's past hands are in no log.
    """
    belief = _beliefs.get(view.rng)
    observation = view.observation
    if belief is not None and belief.observation is observation:
        return belief  # asked again for the same decision (a search's iterations)
    if belief is not None and (belief.game is not view.game or belief.role != view.role
                               or not continues(observation["log"], belief.seen)):
        belief = None
    if belief is None:
        belief = Belief(view.game, view.role, random.Random(view.rng.getrandbits(64)))
        _beliefs[view.rng] = belief
        follow_past(belief, view.past)
    return belief.update(observation)


def follow_past(belief: Belief, past: list[dict[str, Any]] | None) -> None:
    """Bring ``belief`` along the observations of ``past`` (oldest first), then empty it."""
    if not past:
        return
    for earlier in past:
        belief.update(earlier)
    past.clear()


__all__ = ["Belief", "BeliefLost", "Particle", "Seat", "belief_for", "continues",
           "follow_past", "same_view"]
