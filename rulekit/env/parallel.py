"""The environment of a pack as a PettingZoo parallel environment: all asked roles at once."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar, SupportsIndex

from gymnasium import spaces
from pettingzoo import ParallelEnv

from rulekit.engine.state import State
from rulekit.env.aec import RENDER_MODES, Info, ObsDict, RulekitEnv
from rulekit.errors import IllegalActionError

Returns = tuple[dict[str, ObsDict], dict[str, float], dict[str, bool], dict[str, bool],
                dict[str, Info]]


class RulekitParallelEnv(ParallelEnv):  # type: ignore[misc]
    """Every role asked a question takes one step of its answer at each step.

    A role with nothing to decide is given the action mask of ``none`` (index 0) alone: it waits.
    """

    metadata: ClassVar[dict[str, object]] = {"name": "rulekit_parallel",
                                             "render_modes": list(RENDER_MODES)}

    def __init__(self, env: RulekitEnv) -> None:
        self.aec = env
        self.possible_agents = list(env.possible_agents)
        self.agents: list[str] = []
        self.render_mode = env.render_mode

    def observation_space(self, agent: str) -> spaces.Dict:
        return self.aec.observation_space(agent)

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.aec.action_space(agent)

    def reset(self, seed: int | None = None, options: Mapping[str, State] | None = None
              ) -> tuple[dict[str, ObsDict], dict[str, Info]]:
        self.aec.reset(seed, options)
        self.agents = list(self.aec.agents)
        return self._observations(), {role: self.aec.infos[role] for role in self.agents}

    def step(self, actions: Mapping[str, SupportsIndex]) -> Returns:
        """One step of each asked role's answer; the others' actions must be 0 (none)."""
        env = self.aec
        for role in self.agents:
            if role not in env.answers and actions.get(role, 0) != 0:
                raise IllegalActionError(f"action {actions[role]} is illegal for {role}, "
                                         "who has nothing to decide; legal actions: 0 (none)")
        for role in list(env.answers):
            if role in env.answers and env.advance(role, env.checked(role, actions.get(role))):
                break  # the game moved on: the others' actions answered an old question
        observations = self._observations()
        infos = {role: env.infos[role] for role in self.agents}
        rewards = {role: env.rewards[role] for role in self.agents}
        ended, cut = dict(env.terminations), dict(env.truncations)
        self.agents = [role for role in self.agents if not (ended[role] or cut[role])]
        return observations, rewards, ended, cut, infos

    def _observations(self) -> dict[str, ObsDict]:
        env = self.aec
        observations = {}
        for role in self.agents:
            observed = env.observed(role, role in env.answers)
            if role not in env.answers and not env.terminations[role]:
                observed["action_mask"][0] = 1  # waiting
            observations[role] = observed
        return observations

    def render(self) -> str | None:
        return self.aec.render()

    def close(self) -> None:
        """Nothing to release (PettingZoo asks for it beside render)."""
