"""Anytime actions taken for what they tell: a look at a secret, worth nothing to a search
that plays each drawn state as if it knew it."""

from __future__ import annotations

import math
import random
from collections import Counter
from typing import TYPE_CHECKING

from rulekit.bots.anytime import MARGIN
from rulekit.engine.decisions import Decision, Option
from rulekit.engine.game import copy_state
from rulekit.errors import GameRuntimeError, IllegalActionError

if TYPE_CHECKING:
    from rulekit.bots.agent import View
    from rulekit.bots.evaluation import Evaluation
    from rulekit.engine.observe import Observation
    from rulekit.engine.state import State

NEWS_STATES = 16  # states drawn to see what an action would show
NEWS_BITS = 0.8  # what an action must be expected to tell, in bits, to be taken for it


def telling(view: View, decision: Decision, barred: set[str], evaluate: Evaluation
            ) -> Option | None:
    """The anytime action that tells most (the entropy of what it would show, over drawn
    states), if at least :data:`NEWS_BITS` at a cost of at most :data:`MARGIN`."""
    actions = [option for option in decision.extras if option.id not in barred]
    if not actions:
        return None
    rng = random.Random(view.rng.getrandbits(64))
    states = [view.determinize(rng) for _ in range(NEWS_STATES)]
    best, most = None, NEWS_BITS
    for action in actions:
        bits, cost = _news(view, states, action, evaluate)
        if bits >= most and cost <= MARGIN:
            best, most = action, bits
    return best


def _news(view: View, states: list[State], action: Option,
          evaluate: Evaluation) -> tuple[float, float]:
    """What ``action`` tells, in bits, and what it costs, on ``states``."""
    game, role = view.game, view.role
    seen = len(view.observation["log"])
    shown: Counter[str] = Counter()
    cost = 0.0
    for state in states:
        after = copy_state(state)
        try:
            game.apply(after, {role: action.id}, in_place=True)
        except (GameRuntimeError, IllegalActionError):
            continue
        shown[_shown(game.observe(after, role), seen)] += 1
        cost += evaluate(game, state, role) - evaluate(game, after, role)
    played = sum(shown.values())
    if not played:
        return 0.0, 0.0
    return _entropy(shown, played), cost / played


def _shown(observation: Observation, seen: int) -> str:
    """What an observation shows beyond the first ``seen`` events of its log."""
    rest = {key: value for key, value in observation.items() if key != "log"}
    return repr((rest, list(observation["log"][seen:])))


def _entropy(counts: Counter[str], total: int) -> float:
    return -sum(n / total * math.log2(n / total) for n in counts.values())


__all__ = ["NEWS_BITS", "NEWS_STATES", "telling"]
