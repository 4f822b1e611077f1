"""States a role cannot tell from the real one, drawn from beliefs kept per game and role."""

from __future__ import annotations

import random
import weakref
from typing import TYPE_CHECKING

from rulekit.bots.belief import Belief
from rulekit.bots.belief.blind import blind_state
from rulekit.bots.belief.compare import continues, same_view
from rulekit.engine.game import copy_state

if TYPE_CHECKING:
    from rulekit.engine.game import Game, State

CACHED = 8  # beliefs kept per game and role
_cache: weakref.WeakKeyDictionary[Game, dict[str, list[Belief]]] = weakref.WeakKeyDictionary()
# Per game and role, a copy of the last state determinized and the belief used for it: a state
# equal to it has the same observation, which then need not be made again.
_last: weakref.WeakKeyDictionary[Game, dict[str, tuple[State, Belief]]] = \
    weakref.WeakKeyDictionary()


def determinize(game: Game, state: State, role: str, rand: random.Random) -> State:
    """A full state that ``role`` cannot tell from ``state``, drawn from its belief.

    The belief (:mod:`rulekit.bots.belief`) is worked out from ``role``'s observations alone.
    Up to :data:`CACHED` beliefs are kept per game and role, the latest used first. The one
    that has followed the longest part of ``role``'s log that ``state`` continues is used. On
    the same observation it only draws; otherwise a copy of it follows the new part. If none
    fits, a new belief follows the game from its beginning. A state equal to the last one
    drawn for ``role`` is not observed again. A lost belief gives way to
    :func:`~rulekit.bots.belief.blind.blind_state`, a draw from the observation alone. Either
    way the state drawn depends only on what ``role`` has observed and on ``rand``.
    """
    last = _last.get(game)
    seen = None if last is None else last.get(role)
    if seen is not None and state == seen[0]:
        belief = seen[1]  # the same state as last time (a search's iterations)
    else:
        beliefs = _cache.setdefault(game, {}).setdefault(role, [])
        belief = _follow(game, state, role, rand, beliefs)
        _last.setdefault(game, {})[role] = (copy_state(state), belief)
    if not belief.lost:
        return belief.sample(rand)
    return blind_state(game, state, role, rand)


def _follow(game: Game, state: State, role: str, rand: random.Random, beliefs: list[Belief]
            ) -> Belief:
    """The belief of ``beliefs`` that follows ``role``'s observation of ``state`` (a copy of
    the one that has followed the longest part of it brought up to date, or a new one), put
    first."""
    observation = game.observe(state, role)
    log = observation["log"]
    best: Belief | None = None
    for belief in beliefs:
        if (best is None or len(belief.seen) > len(best.seen)) and continues(log, belief.seen):
            best = belief
    if best is not None and best.observation is not None and len(best.seen) == len(log) \
            and same_view(best.observation, observation):
        belief = best
        beliefs.remove(best)
    else:
        belief = Belief(game, role, random.Random(rand.getrandbits(64))) if best is None \
            else best.fork()
        belief.update(observation)
    beliefs.insert(0, belief)
    del beliefs[CACHED:]
    return belief
