"""How agents are named: the built-in ones, a module's, and ``ROLE=AGENT`` lists.

Agents named on the command line are built-in names (see :data:`BUILTIN_AGENTS`), with
parameters if they take any (``ismcts:iterations=400``, ``ismcts:seconds=0.5:depth=20``,
``heuristic``), or ``package.module:Name``: a class (created with no arguments), an agent
object or a function.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from rulekit.bots.agent import AgentLike, RandomAgent
from rulekit.bots.heuristic import HeuristicAgent
from rulekit.bots.ismcts import IsmctsAgent
from rulekit.errors import UsageError, did_you_mean

BUILTIN_AGENTS: dict[str, Callable[..., AgentLike]] = {
    "random": RandomAgent,
    "heuristic": HeuristicAgent,
    "ismcts": IsmctsAgent,
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


__all__ = ["AGENT_WORDS", "BUILTIN_AGENTS", "BUILTIN_PARAMETERS", "DEFAULT_AGENT",
           "AssignmentWords", "is_builtin", "load_agent", "parse_agents", "parse_assignments"]
