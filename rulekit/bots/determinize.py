"""``Game.determinize``: states drawn from beliefs the engine keeps per game and role."""

from __future__ import annotations

import random
import weakref
from typing import TYPE_CHECKING

from rulekit.bots.belief import Belief, without_log
from rulekit.bots.cards import ask_again, redeal
from rulekit.engine.game import copy_state

if TYPE_CHECKING:
    from rulekit.engine.game import Game, State

CACHED = 8  # beliefs kept per game and role for Game.determinize
_cache: weakref.WeakKeyDictionary[Game, dict[str, list[Belief]]] = weakref.WeakKeyDictionary()


def determinize(game: Game, state: State, role: str, rand: random.Random) -> State:
    """``Game.determinize``: a state drawn from ``role``'s belief at ``state``.

    Up to :data:`CACHED` beliefs are kept per game and role (the latest used first). The one
    that has followed the longest part of ``role``'s log that ``state`` continues is used: as
    it is if the observation is the same, else a copy of it follows the new part. If none, a
    new belief follows the game from its beginning.
    """
    observation = game.observe(state, role)
    log = observation["log"]
    beliefs = _cache.setdefault(game, {}).setdefault(role, [])
    best: Belief | None = None
    for belief in beliefs:
        seen = belief.seen
        if len(seen) <= len(log) and (best is None or len(seen) > len(best.seen)) \
                and log[:len(seen)] == seen:
            best = belief
    if best is not None and best.observation is not None and len(best.seen) == len(log) \
            and without_log(best.observation) == without_log(observation):
        belief = best
        beliefs.remove(best)
    else:
        belief = Belief(game, role, random.Random(rand.getrandbits(64))) if best is None \
            else best.fork()
        belief.update(observation)
    beliefs.insert(0, belief)
    del beliefs[CACHED:]
    if not belief.lost:
        return belief.sample(rand)
    new = copy_state(state)
    redeal(game, new, role, rand)
    return ask_again(game, new, rand)
