"""Agents: who takes a player's decisions, and the view of the game each is given.

An agent is any object with a ``choose(view, decision)`` method, or a plain function
``(view, decision)``. It returns the chosen :class:`~rulekit.engine.decisions.Option` or an
option id (a label or a unique label prefix is accepted too). The :class:`View` tells the
agent who it plays (``role``) and the rules (``game``: the compiled pack, with no game in
progress). It gives a random generator of its own (``rng``, seeded from the game's seed and
the role, so games replay exactly). And it holds what the player may know of the game
(``observation``, from :meth:`Game.observe`). In a game resumed from a save, ``past`` holds the
seat's observations at its decisions before the save, which the seat's belief follows first.

An agent gets what its seat may know and nothing else. The view holds no reference to the game
state: a bot that wants to search draws full states from the seat's belief (``view.belief``,
``view.determinize(rng)``), worked out from its observations only (``docs/bots.md``). And
``decision`` lists its own options only. Agents run in the same process as the engine, so they
are trusted code: nothing an agent is *handed* leads to what its seat may not see. An agent
should not carry information from one game to the next: each worker process has its own copy.

The built-in agents and how agents are named live in :mod:`rulekit.bots.registry`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias

from rulekit.bots.belief import Belief, belief_for
from rulekit.engine.decisions import Decision, Option
from rulekit.engine.state import State
from rulekit.errors import IllegalActionError, UsageError

if TYPE_CHECKING:
    from rulekit.engine.game import Game


class View:
    """What an agent is given for one decision: its seat, the rules and what it may see.

    A view belongs to one decision; the next decision comes with a new view. It holds no game
    state: ``observation`` is ``game.observe(state, role)``, plain data of its own (see
    :meth:`of`).
    """

    __slots__ = ("game", "observation", "past", "rng", "role")

    def __init__(self, game: Game, role: str, rng: random.Random,
                 observation: dict[str, Any], past: list[dict[str, Any]] | None = None
                 ) -> None:
        self.game = game
        self.role = role
        self.rng = rng
        self.observation = observation
        # The seat's observations at its earlier decisions, oldest first, where no belief has
        # followed them (a game resumed from a save): a belief built for this view follows
        # them before ``observation``, as it would have during the game, and empties the list.
        self.past = past

    @classmethod
    def of(cls, game: Game, role: str, rng: random.Random, state: State,
           past: list[dict[str, Any]] | None = None) -> View:
        """The view of ``role`` on ``state`` (which it does not keep)."""
        return cls(game, role, rng, game.observe(state, role), past)

    @property
    def belief(self) -> Belief:
        """What this seat may know of the hidden state: the full states it cannot tell from
        the real one, followed from its own observations (see ``docs/bots.md``)."""
        return belief_for(self)

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


def as_option(decision: Decision, answer: object, who: str, hint: str | None = None) -> Option:
    """An agent's answer as an Option of ``decision``: an Option as it is, a text through
    ``decision.find`` (an id or a label); ``who`` names the agent in messages."""
    if isinstance(answer, Option):
        return answer
    if isinstance(answer, str):
        try:
            return decision.find(answer)
        except IllegalActionError as exc:
            raise IllegalActionError(f"{who} answered {answer!r}: {exc.message}",
                                     exc.hint) from None
    raise UsageError(f"{who} returned {answer!r}, not an option or an option id", hint)


__all__ = ["Agent", "AgentFunction", "AgentLike", "RandomAgent", "View", "as_option",
           "choose_function"]
