"""States a role cannot tell from the real one, drawn from its beliefs."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from rulekit.bots.belief import Belief
from rulekit.bots.belief.blind import blind_state
from rulekit.bots.belief.compare import continues, same_view
from rulekit.engine.observe import Observation

if TYPE_CHECKING:
    from rulekit.engine.game import Game, State
    from rulekit.engine.state import Event

CACHED = 8  # beliefs kept per role


def determinize(game: Game, state: State, role: str, rand: random.Random,
                kept: dict[str, list[Belief]] | None = None) -> State:
    """A full state that ``role`` cannot tell from ``state``, drawn from its belief (its latest
    beliefs kept in ``kept`` between calls along a game)."""
    beliefs = [] if kept is None else kept.setdefault(role, [])
    belief = _follow(game, state, role, rand, beliefs)
    if not belief.lost:
        return belief.sample(rand)
    return blind_state(game, state, role, rand)


def _follow(game: Game, state: State, role: str, rand: random.Random, beliefs: list[Belief]
            ) -> Belief:
    """The belief that followed most of ``role``'s observation, put first."""
    observation = game.observe(state, role)
    best = _longest(beliefs, observation["log"])
    if best is not None and _already_at(best, observation):
        belief = best
        beliefs.remove(best)
    else:
        belief = Belief(game, role, random.Random(rand.getrandbits(64))) if best is None \
            else best.fork()
        belief.update(observation)
    beliefs.insert(0, belief)
    del beliefs[CACHED:]
    return belief


def _longest(beliefs: list[Belief], log: list[Event]) -> Belief | None:
    fitting = [belief for belief in beliefs if continues(log, belief.seen)]
    return max(fitting, key=lambda belief: len(belief.seen), default=None)


def _already_at(belief: Belief, observation: Observation) -> bool:
    return belief.observation is not None and len(belief.seen) == len(observation["log"]) \
        and same_view(belief.observation, observation)
