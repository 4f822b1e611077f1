"""The ``heuristic`` agent: greedy one-step look-ahead on an evaluation."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulekit.bots.anytime import MARGIN, idle_here, own_options, remember
from rulekit.bots.evaluation import Evaluation, pack_evaluation
from rulekit.bots.information import telling
from rulekit.bots.rollout import rollout_choice
from rulekit.engine.decisions import Decision, Option
from rulekit.errors import IllegalActionError

if TYPE_CHECKING:
    from rulekit.bots.agent import View
    from rulekit.engine.game import Game, State


MAX_SAMPLES = 10_000  # the most states a seat may ask to look ahead on


class HeuristicAgent:
    """Greedy one-step look-ahead over ``samples`` states drawn from the belief."""

    def __init__(self, samples: int = 4, evaluate: Evaluation | None = None) -> None:
        if not 1 <= samples <= MAX_SAMPLES:
            raise ValueError(f"samples must be from 1 to {MAX_SAMPLES:,}")
        self.samples = samples
        self.evaluate = evaluate

    def choose(self, view: View, decision: Decision) -> Option:
        barred = idle_here(view)
        options = own_options(decision, barred)
        if len(options) == 1:
            return options[0]
        if view.belief.lost:  # no state to look ahead on: play as rollouts do
            return rollout_choice(decision, view.rng)
        evaluate = self.evaluate or pack_evaluation(view.game)
        told = telling(view, decision, barred, evaluate)
        if told is not None:
            return remember(view, decision, told)
        totals = self._totals(view, options, evaluate)
        best = _best(options, totals, decision, MARGIN * self.samples)
        return remember(view, decision, view.rng.choice(best))

    def _totals(self, view: View, options: list[Option], evaluate: Evaluation) -> list[float]:
        game, role, rng = view.game, view.role, view.rng
        states = [view.determinize(rng) for _ in range(self.samples)]
        totals = [0.0] * len(options)
        for state in states:
            others = {d.player: d.sample(rng) for d in game.pending(state) if d.player != role}
            for i, option in enumerate(options):
                after = _played(game, state, {role: option.id, **others})
                if after is not None:
                    totals[i] += evaluate(game, after, role)
        return totals

    def __repr__(self) -> str:
        return f"HeuristicAgent(samples={self.samples})"


def _played(game: Game, state: State, actions: dict[str, str | Option]) -> State | None:
    try:
        return game.apply(state, actions)
    except IllegalActionError:
        return None


def _best(options: list[Option], totals: list[float], decision: Decision, margin: float
          ) -> list[Option]:
    """The options of the best total; an anytime action must gain ``margin``."""
    scored = list(zip(options, totals, strict=True))
    extras = {o.id for o in decision.extras}
    own = [(o, t) for o, t in scored if o.id not in extras]
    if own and max(totals) <= max(t for _, t in own) + margin:
        scored = own
    best = max(t for _, t in scored)
    return [o for o, t in scored if t == best]


__all__ = ["HeuristicAgent"]
