"""What the table shows of a hidden variable: where it may be, from the viewer's belief.

One belief per viewer (:mod:`rulekit.bots.belief`), fed with that viewer's observations only,
as the table is drawn for it. What it gives is worked out once per point of the game, so a
screen drawn again costs nothing. Nothing here knows any particular game.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rulekit.bots.belief import Belief
    from rulekit.engine.game import Game

# The caps of a belief shown at the table (docs/bots.md): room for many hidden moves.
BELIEF_CAPS = {"particles": 64, "frontier": 128, "keep": 12}


class TableBeliefs:
    """The beliefs of the viewers of one game's table."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.beliefs: dict[str, Belief] = {}
        # Per role, its observations at its decisions that its belief has not followed (a
        # resumed game's, or those a replay went past): the belief follows them before the
        # next observation shown (built from the last one alone, it often loses the game:
        # the viewer's past hands are in no log).
        self.past: dict[str, list[dict[str, Any]]] = {}
        # The values last shown of a hidden variable, per (viewer, key): (log length, values,
        # whether they are stale).
        self.shown: dict[tuple[str, str], tuple[int, dict[Any, float], bool]] = {}

    def follow(self, role: str, observations: list[dict[str, Any]]) -> None:
        """Give ``role``'s belief these earlier observations of it (oldest first) to follow
        before the next one shown."""
        self.past.setdefault(role, []).extend(observations)

    def weights(self, role: str, key: str, obs: dict[str, Any]
                ) -> tuple[dict[Any, float] | None, bool]:
        """The values ``key`` may have for ``role`` at ``obs``; where the belief loses track
        of the game, the last values it gave (None before any), and True with them."""
        from rulekit.bots.belief import BeliefLost

        point = (role, key, len(obs.get("log", ())))
        found = self.shown.get(point[:2])
        if found is not None and found[0] == point[2]:
            return found[1], found[2]
        try:
            weights = self._belief(role, obs).distribution(key)
        except BeliefLost:  # not worked out afresh from the whole game: too slow at a table
            if found is None:
                return None, False
            self.shown[point[:2]] = (point[2], found[1], True)
            return found[1], True
        self.shown[point[:2]] = (point[2], weights, False)
        return weights, False

    def _belief(self, role: str, obs: dict[str, Any]) -> Belief:
        from rulekit.bots.belief import Belief, follow_past

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


__all__ = ["BELIEF_CAPS", "TableBeliefs"]
