"""The ``heuristic`` agent: greedy one-step look-ahead on an evaluation.

For each legal option the agent plays it on a few states drawn from its belief (the other
players' simultaneous answers drawn at random), runs the game up to the next decision and
scores the result with the evaluation; it takes the best mean, ties broken at random with the
seat's generator. An anytime action is taken only if it scores better than the decision's own
options by a margin (:data:`rulekit.bots.anytime.MARGIN`), and not again where the seat took it
and came back with nothing new, as in ``ismcts``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulekit.bots.anytime import MARGIN, idle_here, own_options, remember
from rulekit.bots.evaluation import Evaluation, pack_evaluation
from rulekit.bots.rollout import rollout_choice
from rulekit.engine.decisions import Decision, Option
from rulekit.errors import IllegalActionError

if TYPE_CHECKING:
    from rulekit.bots.agent import View


class HeuristicAgent:
    """Greedy one-step look-ahead. ``samples`` states are drawn from the belief per decision;
    ``evaluate`` defaults to the pack's ``evaluate:`` (or win/loss only)."""

    def __init__(self, samples: int = 4, evaluate: Evaluation | None = None) -> None:
        if samples < 1:
            raise ValueError("samples must be at least 1")
        self.samples = samples
        self.evaluate = evaluate

    def choose(self, view: View, decision: Decision) -> Option:
        options = own_options(decision, idle_here(view))
        if len(options) == 1:
            return options[0]
        game, role, rng = view.game, view.role, view.rng
        evaluate = self.evaluate or pack_evaluation(game)
        if view.belief.lost:  # no state to look ahead on: play as rollouts do
            return rollout_choice(decision, rng)
        states = [view.determinize(rng) for _ in range(self.samples)]
        totals = [0.0] * len(options)
        for state in states:
            others = {d.player: d.sample(rng) for d in game.pending(state) if d.player != role}
            for i, option in enumerate(options):
                try:
                    after = game.apply(state, {role: option.id, **others})
                except IllegalActionError:
                    continue
                totals[i] += evaluate(game, after, role)
        extras = {o.id for o in decision.extras}
        scored = list(zip(options, totals, strict=True))
        own = [(o, t) for o, t in scored if o.id not in extras]
        best_own = max((t for _, t in own), default=None)
        best = max(totals)
        if best_own is not None and best <= best_own + MARGIN * len(states):
            scored, best = own, best_own  # an anytime action must gain (see anytime.MARGIN)
        return remember(view, decision, rng.choice([o for o, t in scored if t == best]))

    def __repr__(self) -> str:
        return f"HeuristicAgent(samples={self.samples})"


__all__ = ["HeuristicAgent"]
