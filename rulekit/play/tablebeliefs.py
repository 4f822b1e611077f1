"""Where a hidden piece may be, as the table shows it.

Each viewer has a belief (:mod:`rulekit.bots.belief`), fed with their own observations only. What it
gives is kept per point of the game. So a screen drawn again asks nothing new. Nothing here knows
any particular game.
"""

from __future__ import annotations

import random

from rulekit.bots.belief import Belief, BeliefLost, follow_past
from rulekit.engine.game import Game
from rulekit.engine.observe import Observation

BELIEF_CAPS = {"particles": 64, "frontier": 128, "keep": 12}
"""The caps of a belief shown at the table (docs/bots.md): room for many hidden moves."""

Weights = dict[object, float]
"""How likely each value of a hidden variable is."""


class TableBeliefs:
    """The beliefs of the viewers of one game's table."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.beliefs: dict[str, Belief] = {}
        # Per role, its observations at its decisions that its belief has not followed: a
        # resumed game's, or those a replay went past. The belief follows them before the
        # next observation shown, since the viewer's past hands are in no log.
        self.past: dict[str, list[Observation]] = {}
        # The values last shown of a hidden variable, per (viewer, key): (log length, values,
        # whether they are stale).
        self.shown: dict[tuple[str, str], tuple[int, Weights, bool]] = {}

    def follow(self, role: str, observations: list[Observation]) -> None:
        """Have ``role``'s belief follow these earlier observations first."""
        self.past.setdefault(role, []).extend(observations)

    def weights(self, role: str, key: str, obs: Observation) -> tuple[Weights | None, bool]:
        """The values ``key`` may have for ``role`` at ``obs``, and if stale.

        Where the belief loses track of the game, they are the last values it gave, and stale.
        Before any, they are None.
        """
        where, length = (role, key), len(obs.get("log", ()))
        found = self.shown.get(where)
        if found is not None and found[0] == length:
            return found[1], found[2]
        try:
            weights = self._belief(role, obs).distribution(key)
        except BeliefLost:  # not worked out afresh from the whole game: too slow at a table
            if found is None:
                return None, False
            self.shown[where] = (length, found[1], True)
            return found[1], True
        self.shown[where] = (length, weights, False)
        return weights, False

    def _belief(self, role: str, obs: Observation) -> Belief:
        """``role``'s belief brought up to ``obs``; a new one for another game."""
        past = self.past.pop(role, None)
        belief = self.beliefs.get(role)
        if belief is not None:
            try:
                follow_past(belief, past)
                return belief.update(obs)
            except ValueError:  # another game, or an earlier point of it (a replay)
                pass
        belief = Belief(self.game, role, random.Random(f"{self.game.pack_id}:{role}"),
                        **BELIEF_CAPS)
        self.beliefs[role] = belief
        follow_past(belief, past)
        return belief.update(obs)


__all__ = ["BELIEF_CAPS", "TableBeliefs", "Weights"]
