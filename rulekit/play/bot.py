"""A seat played by an agent at the terminal."""

from __future__ import annotations

import random

from rulekit.bots.agent import View, as_option, choose_function
from rulekit.bots.registry import load_agent
from rulekit.engine.decisions import Decision, Option
from rulekit.engine.game import Game, State
from rulekit.engine.observe import Observation
from rulekit.sim.simulation import seat_rng


class Bot:
    """A seat played by an agent, with the seat's own random generator.

    The generator is seeded from the game's seed and the role, as in simulations. ``past`` is a
    resumed game's observations of the seat before the save. Its belief follows them when the agent
    first asks for it (:attr:`View.past`). Until then, each decision's observation is added to them.
    """

    def __init__(self, game: Game, role: str, spec: str, seed: int,
                 past: list[Observation] | None = None) -> None:
        self.game = game
        self.role = role
        self.spec = spec
        self.choose = choose_function(load_agent(spec))
        self.rng: random.Random = seat_rng(seed, role)
        self.past = past or []

    def decide(self, state: State, decision: Decision) -> Option:
        """The agent's answer to ``decision``."""
        view = View.of(self.game, self.role, self.rng, state, self.past or None)
        answer = self.choose(view, decision)
        if self.past:  # the agent built no belief on them: the next decision may
            self.past.append(view.observation)
        return as_option(decision, answer, f"the bot of {self.role} ({self.spec})")


__all__ = ["Bot"]
