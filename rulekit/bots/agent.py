"""Agents: who takes a player's decisions in simulated games.

An agent is any object with a ``choose(view, decision)`` method, or a plain function
``(view, decision)``, that returns the chosen :class:`~rulekit.engine.decisions.Option` or an
option id (a label or a unique label prefix is accepted too). The :class:`View` tells the agent
who it plays (``role``), the rules (``game``: the compiled pack, its labels and map; it holds
no game in progress), a random generator of its own (``rng``, seeded from the game's seed and
the role, so games replay exactly) and what the player may know of the game (``observation``:
plain data from :meth:`Game.observe`, a copy made for this decision). In a game resumed from a
save, ``past`` holds the seat's observations at its decisions before the save, which the seat's
belief follows first (None otherwise).

An agent gets what its seat may know and nothing else: the view holds no reference to the game
state (a bot that wants to search draws full states from its belief, ``view.determinize``),
and ``decision`` lists its own options only. Agents run in the same process as the
engine, so they are trusted code: nothing stops a program from walking Python's own frames,
but nothing an agent is *handed* leads to what its seat may not see.

Agents named on the command line are built-in names (see :data:`BUILTIN_AGENTS`), with
parameters if they take any (``ismcts:iterations=400``, ``ismcts:seconds=0.5:depth=20``,
``heuristic``), or ``package.module:Name``: a class (created with no arguments), an agent object
or a function. A view also offers the seat's belief over the hidden state (``view.belief``,
``view.determinize(rng)``), worked out from its observations only (``docs/bots.md``).
An agent should not carry information from one game to the next: with several worker
processes each process has its own copy of the agent, and games are split among them.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias

from rulekit.engine.decisions import Decision, Option
from rulekit.errors import IllegalActionError, UsageError, did_you_mean

if TYPE_CHECKING:
    from rulekit.bots.belief import Belief
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
    def of(cls, game: Game, role: str, rng: random.Random, state: dict[str, Any],
           past: list[dict[str, Any]] | None = None) -> View:
        """The view of ``role`` on ``state`` (which it does not keep)."""
        return cls(game, role, rng, game.observe(state, role), past)

    @property
    def belief(self) -> Belief:
        """What this seat may know of the hidden state: the full states it cannot tell from
        the real one, followed from its own observations (see ``docs/bots.md``)."""
        from rulekit.bots.belief import belief_for  # the bots build on this module

        return belief_for(self)

    def determinize(self, rng: random.Random) -> dict[str, Any]:
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


def _ismcts(**params: Any) -> AgentLike:
    from rulekit.bots.ismcts import IsmctsAgent

    return IsmctsAgent(**params)


def _heuristic(**params: Any) -> AgentLike:
    from rulekit.bots.heuristic import HeuristicAgent

    return HeuristicAgent(**params)


BUILTIN_AGENTS: dict[str, Callable[..., AgentLike]] = {
    "random": RandomAgent,
    "heuristic": _heuristic,
    "ismcts": _ismcts,
}
"""Agent names usable without a module path, and how to make each (with parameters)."""

BUILTIN_PARAMETERS: dict[str, dict[str, type]] = {
    "random": {},
    "heuristic": {"samples": int},
    "ismcts": {"iterations": int, "seconds": float, "depth": int, "exploration": float},
}
"""The parameters each built-in agent takes (``ismcts:iterations=400:depth=20``)."""

DEFAULT_AGENT = "random"


def is_builtin(spec: str) -> bool:
    """Whether ``spec`` names a built-in agent (with parameters or none): one that
    :func:`load_agent` makes without importing any module."""
    return spec.strip().partition(":")[0].strip() in BUILTIN_AGENTS


def load_agent(spec: str) -> AgentLike:
    """The agent named by ``spec``: a built-in name (``name:key=value:...``) or
    ``package.module:Name``.

    A class is created with no arguments; an object with a ``choose`` method or a function is
    used as is. Any problem is a :class:`UsageError`.
    """
    text = spec.strip()
    name, _, rest = text.partition(":")
    if is_builtin(text):
        return _builtin(spec, name.strip(), rest)
    if ":" not in text:
        hint = did_you_mean(text, BUILTIN_AGENTS) or (
            f"built-in agents: {', '.join(BUILTIN_AGENTS)}; or give package.module:Name")
        raise UsageError(f"unknown agent '{spec}'", hint)
    module_name, _, attr_path = text.partition(":")
    module_name, attr_path = module_name.strip(), attr_path.strip()
    if not module_name or not attr_path:
        raise UsageError(f"bad agent '{spec}': expected package.module:Name")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        missing = exc.name or module_name
        where = "" if missing == module_name else f" (it needs '{missing}', which is missing)"
        raise UsageError(f"agent '{spec}': no module named '{module_name}'{where}",
                         "the module must be importable: check its name and PYTHONPATH"
                         ) from None
    except Exception as exc:
        raise UsageError(f"agent '{spec}': importing '{module_name}' failed: "
                         f"{type(exc).__name__}: {exc}") from None
    obj: Any = module
    for part in attr_path.split("."):
        if not hasattr(obj, part):
            names = [n for n in dir(obj) if not n.startswith("_")]
            raise UsageError(f"agent '{spec}': '{module_name}' has no attribute '{attr_path}'",
                             did_you_mean(part, names))
        obj = getattr(obj, part)
    return _as_agent(spec, obj)


def _builtin(spec: str, name: str, rest: str) -> AgentLike:
    """A built-in agent with its ``key=value`` parameters (separated by ``:``)."""
    known = BUILTIN_PARAMETERS[name]
    params: dict[str, Any] = {}
    for item in filter(None, (p.strip() for p in rest.split(":"))):
        key, sep, value = (part.strip() for part in item.partition("="))
        if not sep or not key or not value:
            raise UsageError(f"bad agent '{spec}': expected {name}:KEY=VALUE",
                             f"for example {name}:{next(iter(known), 'key')}=...")
        if key not in known:
            hint = did_you_mean(key, known) or (
                f"{name} takes: {', '.join(known)}" if known else f"{name} takes none")
            raise UsageError(f"agent '{spec}': unknown parameter '{key}'", hint)
        try:
            params[key] = known[key](value)
        except ValueError:
            raise UsageError(f"agent '{spec}': {key} must be a "
                             f"{'whole number' if known[key] is int else 'number'}, "
                             f"not '{value}'") from None
    try:
        return BUILTIN_AGENTS[name](**params)
    except ValueError as exc:
        raise UsageError(f"agent '{spec}': {exc}") from None


def _as_agent(spec: str, obj: Any) -> AgentLike:
    if isinstance(obj, type):
        try:
            instance = obj()
        except Exception as exc:
            raise UsageError(f"agent '{spec}': cannot create {obj.__name__}() with no "
                             f"arguments: {type(exc).__name__}: {exc}") from None
        if callable(getattr(instance, "choose", None)):
            return instance  # type: ignore[no-any-return]
        if callable(instance):
            return instance  # type: ignore[no-any-return]
        raise UsageError(f"agent '{spec}': {obj.__name__} has no choose(view, decision) method")
    if callable(getattr(obj, "choose", None)):
        return obj  # type: ignore[no-any-return]
    if callable(obj):
        return obj  # type: ignore[no-any-return]
    raise UsageError(f"agent '{spec}' is not callable ({type(obj).__name__})",
                     "name a class, an object with a choose(view, decision) method, or a "
                     "function (view, decision) -> option")


def choose_function(agent: AgentLike) -> AgentFunction:
    """The ``(view, decision) -> option`` function of an agent object or function."""
    method = getattr(agent, "choose", None)
    if callable(method):
        return method  # type: ignore[no-any-return]
    if callable(agent):
        return agent
    raise UsageError(f"{agent!r} is not an agent: it has no choose(view, decision) method")


@dataclass(frozen=True)
class AssignmentWords:
    """How messages about ``ROLE=VALUE`` lists name things, for one command-line option."""

    bad: str  # "agent assignment"
    expected: str  # "ROLE=AGENT"
    option: str  # "--agents"
    things: str  # "agents"


AGENT_WORDS = AssignmentWords("agent assignment", "ROLE=AGENT", "--agents", "agents")


def parse_assignments(parts: Iterable[str], roles: list[str] | None, words: AssignmentWords,
                      example: str) -> dict[str, str]:
    """``["hunter=random,runner=mymod:Bot", ...]`` -> ``{role: value}`` in the given order.

    With ``roles``, a role that is not one of them is a :class:`UsageError`; so is a role
    given twice or an item that is not ``ROLE=VALUE`` (``example`` is the hint then).
    """
    result: dict[str, str] = {}
    for part in parts:
        for item in part.split(","):
            item = item.strip()
            if not item:
                continue
            role, sep, value = item.partition("=")
            role, value = role.strip(), value.strip()
            if not sep or not role or not value:
                raise UsageError(f"bad {words.bad} '{item}': expected {words.expected}",
                                 f"for example {example}")
            if roles is not None and role not in roles:
                hint = did_you_mean(role, roles) or f"roles: {', '.join(roles)}"
                raise UsageError(f"unknown role '{role}' in {words.option}", hint)
            if role in result:
                raise UsageError(f"role '{role}' is given two {words.things}")
            result[role] = value
    return result


def parse_agents(text: str | Iterable[str],
                 roles: Iterable[str] | None = None) -> dict[str, str]:
    """``"hunter=random,runner=mymod:Bot"`` (or several such texts) -> ``{role: spec}``.

    With ``roles``, a role that is not one of them is a :class:`UsageError`.
    """
    parts = [text] if isinstance(text, str) else list(text)
    known = None if roles is None else list(roles)
    return parse_assignments(parts, known, AGENT_WORDS, "hunter=random,runner=mymodule:MyAgent")


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


__all__ = ["AGENT_WORDS", "BUILTIN_AGENTS", "BUILTIN_PARAMETERS", "DEFAULT_AGENT", "Agent",
           "AgentFunction", "AgentLike", "AssignmentWords", "RandomAgent", "View", "as_option",
           "choose_function", "is_builtin", "load_agent", "parse_agents", "parse_assignments"]
