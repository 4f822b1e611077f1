"""Agents: who takes a seat's decisions, and the view of the game each is given."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol, TypeAlias

from rulekit.bots.belief import Belief, SeatBelief
from rulekit.engine.decisions import Decision, Option
from rulekit.engine.observe import Observation
from rulekit.engine.state import State
from rulekit.errors import IllegalActionError, RulekitError, UsageError

if TYPE_CHECKING:
    from rulekit.engine.game import Game


class View:
    """What an agent is given for one decision: no game state, and the seat's belief."""

    __slots__ = ("game", "kept", "observation", "past", "rng", "role")

    def __init__(self, game: Game, role: str, rng: random.Random, observation: Observation,
                 past: list[Observation] | None = None, kept: SeatBelief | None = None
                 ) -> None:
        self.game = game
        self.role = role
        self.rng = rng
        self.observation = observation
        self.past = past  # a resumed game's earlier observations, for a new belief
        self.kept = SeatBelief() if kept is None else kept

    @classmethod
    def of(cls, game: Game, role: str, rng: random.Random, state: State,
           past: list[Observation] | None = None, kept: SeatBelief | None = None) -> View:
        """The view of ``role`` on ``state``, which it does not keep."""
        return cls(game, role, rng, game.observe(state, role), past, kept)

    @property
    def belief(self) -> Belief:
        """The full states this seat cannot tell from the real one."""
        return self.kept.at(self)

    def determinize(self, rng: random.Random) -> State:
        """A full state drawn from :attr:`belief`: what a search may play on."""
        return self.belief.sample(rng)

    def __repr__(self) -> str:
        return f"View(role={self.role!r}, game={self.game.pack_id!r})"


class Agent(Protocol):
    """Takes the decisions of one seat."""

    def choose(self, view: View, decision: Decision) -> Option | str:
        """The chosen option (or its id) among ``decision``'s legal options."""
        ...


AgentFunction: TypeAlias = Callable[[View, Decision], Option | str]
AgentLike: TypeAlias = Agent | AgentFunction


class RandomAgent:
    """Picks uniformly among the legal options, with the seat's own generator."""

    def choose(self, view: View, decision: Decision) -> Option:
        return decision.sample(view.rng)

    def __repr__(self) -> str:
        return "RandomAgent()"


def choose_function(agent: AgentLike) -> AgentFunction:
    """The ``(view, decision) -> option`` function of an agent object or function."""
    method = getattr(agent, "choose", None)
    if callable(method):
        return method  # type: ignore[no-any-return]
    if callable(agent):
        return agent
    raise UsageError(f"{agent!r} is not an agent: it has no choose(view, decision) method")


def asked(choose: AgentFunction, view: View, decision: Decision, who: str) -> object:
    """An agent's answer to a copy of ``decision`` (sharing nothing with the state); an error
    it raises becomes a message."""
    try:
        return choose(view, decision.copy())
    except RulekitError:
        raise
    except Exception as exc:
        raise UsageError(f"{who} failed at {_asking(decision)}: {type(exc).__name__}: {exc}",
                         "run it from Python to see where") from exc


def as_option(decision: Decision, answer: object, who: str, hint: str | None = None) -> Option:
    """An agent's answer (an option, an id or a label) as an option of ``decision``."""
    if isinstance(answer, Option | str):
        try:
            return decision.option(answer.id) if isinstance(answer, Option) else \
                decision.find(answer)
        except IllegalActionError as exc:
            raise IllegalActionError(f"{who} answered {answer!r} at {_asking(decision)}: "
                                     f"{exc.message}", exc.hint) from None
    raise UsageError(f"{who} returned {answer!r} at {_asking(decision)}, not an option or an "
                     "option id", hint)


def agent_name(agent: object) -> str:
    """How an error names an agent: its spec, or its module and class (or function)."""
    if isinstance(agent, str):
        return agent.strip()
    named = agent if callable(agent) and not hasattr(agent, "choose") else type(agent)
    return f"{getattr(named, '__module__', '?')}:{getattr(named, '__qualname__', '?')}"


def _asking(decision: Decision) -> str:
    return f"the decision '{decision.prompt}'"


__all__ = ["Agent", "AgentFunction", "AgentLike", "RandomAgent", "SeatBelief", "View",
           "agent_name", "as_option", "asked", "choose_function"]
