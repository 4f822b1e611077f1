"""Any pack as a PettingZoo environment: one agent per role, one step per answer."""

from __future__ import annotations

import io
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar, SupportsIndex, TypedDict

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from rulekit.engine.decisions import NONE_ID, Decision
from rulekit.engine.game import Game, State, copy_state
from rulekit.engine.observe import Observation
from rulekit.engine.rng import derive
from rulekit.env.spaces import Actions, Encoder, Vector
from rulekit.errors import IllegalActionError, UsageError
from rulekit.pack.loader import LoadedPack
from rulekit.play.render import Renderer
from rulekit.play.screen import Screen

DEFAULT_MAX_ROUNDS = 1000
VALUE_SLOTS = 16
RENDER_MODES = ("human", "ansi")

Info = dict[str, Observation]  # "observe": what game.observe gives the agent


class ObsDict(TypedDict):
    """An agent's observation: the vector, and the mask of its legal actions."""

    observation: Vector
    action_mask: npt.NDArray[np.int8]


@dataclass
class Answer:
    """A role's answer to its question, as it is built one step at a time."""

    decision: Decision
    indexes: list[int]  # the action index of each item
    extras: dict[int, str | None]  # the anytime actions offered: index and option id
    taken: list[int] = field(default_factory=list)  # (subset) the items taken so far
    at: int = 0  # (subset) the item asked now
    now: dict[int, str | None] | None = None  # the legal actions of this step, once known

    def legal(self) -> dict[int, str | None]:
        """The legal action indexes now, each with its option id (None: a subset's step)."""
        if self.now is not None:
            return self.now
        decision = self.decision
        legal: dict[int, str | None] = {}
        if decision.kind == "one":
            if decision.optional:
                legal[0] = NONE_ID
            for index, item_id in zip(self.indexes, decision.ids, strict=True):
                legal.setdefault(index, item_id)
        elif not self.indexes:
            legal[0] = None
        else:
            if self._completable([*self.taken, self.at], self.at + 1):
                legal[self.indexes[self.at]] = None
            if self._completable(self.taken, self.at + 1):
                legal[0] = None
        # The anytime actions are offered at a question's first step only.
        self.now = {**legal, **self.extras} if self.at == 0 else legal
        return self.now

    def _completable(self, taken: list[int], start: int) -> bool:
        """Whether ``taken``, with some items from ``start`` on, is a legal subset."""
        decision = self.decision
        if len(taken) > decision.max or not decision.groups_ok(taken):
            return False
        if len(taken) >= decision.min:
            return True
        if len(taken) + len(self.indexes) - start < decision.min:
            return False
        return any(self._completable([*taken, k], k + 1)
                   for k in range(start, len(self.indexes)))

    def option_id(self) -> str:
        """A finished subset's option id."""
        ids = self.decision.ids
        return "+".join(ids[k] for k in self.taken) or NONE_ID


class RulekitEnv(AECEnv):  # type: ignore[misc]
    """A pack as a PettingZoo AEC environment; see ``docs/python.md``."""

    metadata: ClassVar[dict[str, object]] = {
        "name": "rulekit", "render_modes": list(RENDER_MODES), "is_parallelizable": False}

    def __init__(self, loaded: LoadedPack, *, seed: int | None = None,
                 max_rounds: int = DEFAULT_MAX_ROUNDS, value_slots: int = VALUE_SLOTS,
                 render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode not in (None, *RENDER_MODES):
            raise UsageError(f"unknown render mode {render_mode!r}", "use 'human' or 'ansi'")
        self.loaded = loaded
        self.game: Game = loaded.game
        self.seed = seed or 0  # the seed of the run of games, as rulekit simulate's
        self.games = 0  # the games of the run started so far
        self.max_rounds = max_rounds
        self.render_mode = render_mode
        self.actions = Actions(self.game, value_slots)
        self.encoder = Encoder(self.game, self.actions)
        self.possible_agents = list(self.game.roles)
        self.action_spaces = {role: spaces.Discrete(self.actions.size)
                              for role in self.possible_agents}
        self.observation_spaces = {role: spaces.Dict({
            "observation": spaces.Box(self.encoder.low, self.encoder.high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (self.actions.size,), dtype=np.int8)})
            for role in self.possible_agents}
        self.state_now: State | None = None
        self.answers: dict[str, Answer] = {}
        self._renderer: Renderer | None = None

    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: Mapping[str, State] | None = None
              ) -> None:
        """The next game of the run of ``seed``, or ``options["state"]`` (docs/python.md)."""
        if seed is not None:
            self.seed, self.games = seed, 0
        given = (options or {}).get("state")
        if given is not None:
            if given.get("pack") != self.game.pack_id:
                raise UsageError(f"that state is not of the pack '{self.game.pack_id}'")
            self.state_now = self.game.run(copy_state(given))
        else:
            self.state_now = self.game.new_game(derive(self.seed, self.games))
            self.games += 1
        self.agents = list(self.possible_agents)
        self.rewards = {role: 0.0 for role in self.agents}
        self._cumulative_rewards = {role: 0.0 for role in self.agents}
        self.terminations = {role: False for role in self.agents}
        self.truncations = {role: False for role in self.agents}
        self._moved()

    def _moved(self) -> None:
        """Take in a new state of the game: questions, infos, the end."""
        state = self._state()
        self.infos: dict[str, Info] = {role: {} for role in self.agents}
        self._vectors: dict[str, Vector] = {}
        index = self.actions.index
        self.answers = {d.player: Answer(d, self.actions.of_items(d.items, d.prompt),
                                         {index[e.id]: e.id for e in d.extras})
                        for d in self.game.pending(state)}
        if self.answers:
            self.agent_selection = next(iter(self.answers))
        result = state["result"]
        if result is not None:
            winner = result["winner"]
            for role in self.agents:
                self.rewards[role] = 0.0 if winner is None else 1.0 if role == winner else -1.0
                self.terminations[role] = True
        elif state["round"] > self.max_rounds:
            self.truncations = {role: True for role in self.agents}
        elif not self.answers:
            raise UsageError("the game is neither over nor waiting for a decision")

    def _state(self) -> State:
        if self.state_now is None:
            raise UsageError("the environment has no game yet", "call env.reset() first")
        return self.state_now

    def step(self, action: SupportsIndex | None) -> None:
        """The selected agent's action: an index its action mask allows."""
        role = self.agent_selection
        if self.terminations[role] or self.truncations[role]:
            self._was_dead_step(action)
            return
        index = self.checked(role, action)
        self._cumulative_rewards[role] = 0.0
        self.advance(role, index)
        self._accumulate_rewards()

    def checked(self, role: str, action: object) -> int:
        """The action index ``role`` gives; an IllegalActionError naming the legal ones."""
        legal = self.answers[role].legal() if role in self.answers else {0: None}
        if not isinstance(action, int | np.integer) or int(action) not in legal:
            raise IllegalActionError(
                f"action {action} is illegal for {role}; legal actions: "
                + ", ".join(f"{i} ({self.actions.names[i]})" for i in sorted(legal)),
                "read the action mask: observation['action_mask']")
        return int(action)

    def advance(self, role: str, index: int) -> bool:
        """One step of ``role``'s answer; whether the game moved on."""
        answer = self.answers[role]
        option_id = answer.legal()[index]
        if option_id is None:  # a step through a subset
            if index:
                answer.taken.append(answer.at)
            answer.at += 1
            answer.now = None
            if answer.at < len(answer.indexes):
                return False
            option_id = answer.option_id()
        state = self._state()
        self.game.apply(state, {role: option_id}, in_place=True)
        if not state["committed"]:
            self._moved()
            return True
        del self.answers[role]  # the others still decide; its answer stays secret
        self.infos = {agent: {} for agent in self.agents}  # (waiting_for has changed)
        self._vectors = {}
        self.agent_selection = next(iter(self.answers))
        return False

    def observe(self, agent: str) -> ObsDict:
        """The agent's observation vector and action mask; the mask is empty unless asked."""
        asked = agent == self.agent_selection and not self.terminations[agent] \
            and not self.truncations[agent]
        return self.observed(agent, asked)

    def observed(self, agent: str, asked: bool) -> ObsDict:
        """The observation vector, and the action mask if ``asked`` (else all 0)."""
        vector = self._vectors.get(agent)
        if vector is None:
            vector = self._vectors[agent] = self.encoder.vector(self.observation(agent))
        action_mask = np.zeros(self.actions.size, dtype=np.int8)
        answer = self.answers.get(agent)
        if answer is not None and asked:
            action_mask[list(answer.legal())] = 1
            if answer.decision.kind == "subset":
                vector = self.encoder.answering(vector, answer.indexes, answer.taken, answer.at)
                return {"observation": vector, "action_mask": action_mask}
        return {"observation": vector.copy(), "action_mask": action_mask}

    def observation(self, agent: str) -> Observation:
        """What ``game.observe`` gives ``agent`` now, also kept in its ``info["observe"]``."""
        info = self.infos[agent]
        if "observe" not in info:
            info["observe"] = self.game.observe(self._state(), agent)
        return info["observe"]

    def render(self) -> str | None:
        """The terminal table of the selected agent, as text; printed in ``human`` mode."""
        if self.render_mode is None:
            return None
        if self._renderer is None:
            self._renderer = Renderer.of(self.loaded)
        role = self.agent_selection
        obs = self.observation(role)
        out = io.StringIO()
        Screen(output=out, no_color=True).show(
            self._renderer.header(obs, role), *self._renderer.view(obs, role))
        text = out.getvalue()
        if self.render_mode == "human":
            print(text, end="")
            return None
        return text

    def close(self) -> None:
        """Nothing to release (PettingZoo asks for it beside render)."""
