"""A seat played by an agent at the terminal."""

from __future__ import annotations

import random

from rulekit.agents import View, as_option, choose_function, load_agent
from rulekit.engine.decisions import Decision, Option
from rulekit.engine.game import Game, State
from rulekit.simulate import seat_rng


class Bot:
    """A seat played by an agent, with the seat's own random generator (seeded from the
    game's seed and its role, as in simulations)."""

    def __init__(self, game: Game, role: str, spec: str, seed: int) -> None:
        self.game = game
        self.role = role
        self.spec = spec
        self.choose = choose_function(load_agent(spec))
        self.rng: random.Random = seat_rng(seed, role)

    def decide(self, state: State, decision: Decision) -> Option:
        answer = self.choose(View.of(self.game, self.role, self.rng, state), decision)
        return as_option(decision, answer, f"the bot of {self.role} ({self.spec})")


__all__ = ["Bot"]
