"""What one player may know of the hidden state: weighted full states (particles)."""

from __future__ import annotations

import copy
import random
from collections.abc import Hashable
from itertools import accumulate
from typing import TYPE_CHECKING, Protocol, cast

from rulekit.bots.belief.compare import continues, hashable, same_view
from rulekit.bots.belief.deal import Deal, ask_again, redeal
from rulekit.bots.belief.history import Replay
from rulekit.bots.belief.others import Others
from rulekit.bots.belief.particles import Caps, Particle
from rulekit.engine.game import copy_state
from rulekit.engine.hidden import PUBLIC
from rulekit.engine.observe import Observation, public_part

if TYPE_CHECKING:
    from rulekit.engine.game import Game, State
    from rulekit.engine.state import Event

MAX_RESTARTS = 3  # times a belief that lost the game starts again from its beginning, wider


class BeliefLost(Exception):
    """No state the rules allow shows the observer what it saw."""


class Belief(Replay):
    """The states ``role`` cannot tell apart, kept up to date from its observations."""

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
        self.asked: tuple[str, str] | None = None
        self.lost = False
        self._spent = 0
        self._loose = False
        self._cumulative: list[float] = []  # the particles' weights, added up (for draws)

    def update(self, observation: Observation, asked: tuple[str, str] | None = None
               ) -> Belief:
        """Follow the game up to ``observation``, R's observation now; return self.

        An observer never asked (:data:`PUBLIC`) may be told where the game stands: the
        ``(player, question)`` being asked.
        """
        self.asked = asked
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
        last = self.observation
        return last is not None and (observation is last or (len(observation["log"]) == len(
            self.seen) and same_view(observation, last)))

    def _fresh(self) -> list[Particle]:
        """New games of unknown seeds, to start from."""
        return [Particle(self.game.initial_state(self.rng.getrandbits(63)), 1.0 / self.seeds)
                for _ in range(self.seeds)]

    def _followed(self, log: list[Event], observation: Observation) -> list[Particle]:
        """The particles following ``log`` to ``observation``, starting again if none does."""
        finals = [] if self.lost else self._follow_both_ways(log[len(self.seen):], observation)
        if finals or self.restarts >= MAX_RESTARTS:
            return finals
        self.restarts += 1
        self._widen()
        self.particles = self._fresh()
        return self._follow_both_ways(list(log), observation)

    def _widen(self) -> None:
        """Double the room of each cap: a cap may have dropped the state the log needs."""
        self.keep *= 2
        self.tries *= 2
        self.budget *= 2
        self.caps = Caps(self.game, self.role, 2 * self.caps.max_particles,
                         2 * self.caps.max_frontier)

    def _follow_both_ways(self, target: list[Event], observation: Observation
                          ) -> list[Particle]:
        """The particles followed along ``target``: exactly, or else loosely, made to agree."""
        finals = self._advance(target, observation)
        if not finals and self.seen:
            self._loose = True
            finals = self._advance(target, observation)
            self._loose = False
        return finals

    def _keep_particles(self, finals: list[Particle]) -> None:
        self.particles = self.caps.resample(finals, self.rng)
        for particle in self.particles:
            particle.deal = Deal(self.game, particle.state, self.role, particle.mixed)
        self._cumulative = list(accumulate(p.weight for p in self.particles))

    def distribution(self, variable: str) -> dict[Hashable, float]:
        """A variable's values (lists as tuples) with weights summing to 1."""
        self._check()
        result: dict[Hashable, float] = {}
        for p in self.particles:
            value = hashable(p.state["vars"][variable])
            result[value] = result.get(value, 0.0) + p.weight
        return result

    def sample(self, rng: random.Random) -> State:
        """A full state drawn from the belief. Its unseen cards are dealt again."""
        self._check()
        chosen = rng.choices(self.particles, cum_weights=self._cumulative)[0]
        base = chosen.state.copy()
        base["log"] = self._log  # R's log (its events shared)
        state = copy_state(base)
        if redeal(self.game, state, self.role, rng, chosen.deal):
            state = ask_again(self.game, state, rng)
        return state

    def fork(self) -> Belief:
        """A copy that may follow the game on its own. It shares the states."""
        new = copy.copy(self)
        new.rng = random.Random(self.rng.getrandbits(64))
        new.particles = [Particle(p.state, p.weight, p.exact, p.deal, p.mixed)
                         for p in self.particles]
        new._log = self._log[:]
        return new

    def _check(self) -> None:
        if self.observation is None:
            raise BeliefLost("the belief has not been given an observation yet")
        if self.lost:
            raise BeliefLost(f"no state the rules allow shows {self.role} what it was shown")


class Seat(Protocol):
    """What :meth:`SeatBelief.at` reads of a seat (an agent's ``View`` is one)."""

    game: Game
    role: str
    rng: random.Random  # the seat's generator: it belongs to one game
    observation: Observation  # what the seat sees now
    past: list[Observation] | None  # its earlier observations, if no belief followed them


class SeatBelief:
    """One seat's belief over one game, made when first asked for, kept by the seat's runner."""

    __slots__ = ("belief", "others", "public")

    def __init__(self) -> None:
        self.belief: Belief | None = None
        self.public: Belief | None = None  # what every player may know, if asked for
        self.others = Others()  # how the other players answer

    def at(self, view: Seat) -> Belief:
        """The belief, followed up to ``view``'s observation."""
        belief = self.belief
        if belief is not None and belief.observation is view.observation:
            return belief  # asked again for the same decision (a search's iterations)
        if belief is None or not _follows(belief, view):
            belief = Belief(view.game, view.role, random.Random(view.rng.getrandbits(64)))
            self.belief = belief
            follow_past(belief, view.past)
        return belief.update(view.observation)

    def public_at(self, view: Seat) -> Belief:
        """The belief of an observer who sees only what every player sees, up to ``view``."""
        observation = public_part(view.game.layout, view.observation)
        belief = self.public
        if belief is None or belief.game is not view.game \
                or not continues(observation["log"], belief.seen):
            belief = Belief(view.game, PUBLIC, random.Random(view.rng.getrandbits(64)))
            self.public = belief
        asked = [(view.role, spec["prompt"]) for spec in view.observation["decisions"]]
        return belief.update(observation, asked[0] if asked else None)


def _follows(belief: Belief, view: Seat) -> bool:
    return belief.game is view.game and belief.role == view.role \
        and continues(view.observation["log"], belief.seen)


def follow_past(belief: Belief, past: list[Observation] | None) -> None:
    """Bring ``belief`` along the observations of ``past``, then empty it."""
    if not past:
        return
    for earlier in past:
        belief.update(earlier)
    past.clear()


__all__ = ["Belief", "BeliefLost", "Particle", "Seat", "SeatBelief", "continues",
           "follow_past", "same_view"]
