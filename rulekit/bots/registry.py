"""How agents are named: ``ismcts:iterations=400``, ``package.module:Name``, ``ROLE=AGENT``."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from types import ModuleType
from typing import TypeGuard

from rulekit.bots.agent import AgentLike, RandomAgent
from rulekit.bots.heuristic import HeuristicAgent
from rulekit.bots.ismcts import LEVELS, IsmctsAgent, level
from rulekit.bots.process import ProcessAgent
from rulekit.errors import UsageError, did_you_mean

BUILTIN_AGENTS: dict[str, Callable[..., AgentLike]] = {
    "random": RandomAgent,
    "heuristic": HeuristicAgent,
    "ismcts": IsmctsAgent,
    **{name: level(name) for name in LEVELS},
}
"""The built-in agents by name, and how to make each."""

BUILTIN_PARAMETERS: dict[str, dict[str, type[int] | type[float]]] = {
    "random": {},
    "heuristic": {"samples": int},
    "ismcts": {"iterations": int, "seconds": float, "depth": int, "exploration": float,
               "public": float},
}
BUILTIN_PARAMETERS.update({name: BUILTIN_PARAMETERS["ismcts"] for name in LEVELS})
"""The parameters each built-in agent takes, with their types."""

DEFAULT_AGENT = "random"
PROCESS = "exec"  # exec:COMMAND, an agent run as another program


def is_builtin(spec: str) -> bool:
    """Whether ``spec`` names a built-in agent, with parameters or none."""
    return spec.strip().partition(":")[0].strip() in BUILTIN_AGENTS


def load_agent(spec: str) -> AgentLike:
    """The agent named by ``spec``: ``name:key=value:...``, ``exec:COMMAND`` or
    ``package.module:Name``."""
    text = spec.strip()
    name, _, rest = text.partition(":")
    if name.strip() == PROCESS:
        try:
            return ProcessAgent(rest)
        except ValueError as exc:
            raise UsageError(f"agent '{spec}': {exc}") from None
    if is_builtin(text):
        return _builtin(spec, name.strip(), rest)
    if ":" not in text:
        raise _unknown_agent(spec, text)
    module_name, attr_path = name.strip(), rest.strip()
    if not module_name or not attr_path:
        raise UsageError(f"bad agent '{spec}': expected package.module:Name")
    module = _imported(spec, module_name)
    return _as_agent(spec, _attribute(spec, module, module_name, attr_path))


def _unknown_agent(spec: str, text: str) -> UsageError:
    hint = did_you_mean(text, BUILTIN_AGENTS) or (
        f"built-in agents: {', '.join(BUILTIN_AGENTS)}; or give package.module:Name")
    return UsageError(f"unknown agent '{spec}'", hint)


def _imported(spec: str, module_name: str) -> ModuleType:
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        missing = exc.name or module_name
        where = "" if missing == module_name else f" (it needs '{missing}', which is missing)"
        raise UsageError(f"agent '{spec}': no module named '{module_name}'{where}",
                         "the module must be importable: check its name and PYTHONPATH"
                         ) from None
    except Exception as exc:
        raise UsageError(f"agent '{spec}': importing '{module_name}' failed: "
                         f"{type(exc).__name__}: {exc}") from None


def _attribute(spec: str, module: ModuleType, module_name: str, attr_path: str) -> object:
    obj: object = module
    for part in attr_path.split("."):
        if not hasattr(obj, part):
            names = [n for n in dir(obj) if not n.startswith("_")]
            raise UsageError(f"agent '{spec}': '{module_name}' has no attribute '{attr_path}'",
                             did_you_mean(part, names))
        obj = getattr(obj, part)
    return obj


def _builtin(spec: str, name: str, rest: str) -> AgentLike:
    known = BUILTIN_PARAMETERS[name]
    items = filter(None, (p.strip() for p in rest.split(":")))
    params = dict(_parameter(spec, name, known, item) for item in items)
    try:
        return BUILTIN_AGENTS[name](**params)
    except ValueError as exc:
        raise UsageError(f"agent '{spec}': {exc}") from None


def _parameter(spec: str, name: str, known: dict[str, type[int] | type[float]], item: str
               ) -> tuple[str, int | float]:
    key, sep, value = (part.strip() for part in item.partition("="))
    if not sep or not key or not value:
        raise UsageError(f"bad agent '{spec}': expected {name}:KEY=VALUE",
                         f"for example {name}:{next(iter(known), 'key')}=...")
    if key not in known:
        raise _unknown_parameter(spec, name, known, key)
    return key, _converted(spec, key, known[key], value)


def _converted(spec: str, key: str, kind: type[int] | type[float], value: str) -> int | float:
    try:
        return kind(value)
    except ValueError:
        number = "whole number" if kind is int else "number"
        raise UsageError(f"agent '{spec}': {key} must be a {number}, not '{value}'") from None


def _unknown_parameter(spec: str, name: str, known: dict[str, type[int] | type[float]],
                       key: str) -> UsageError:
    hint = did_you_mean(key, known) or (
        f"{name} takes: {', '.join(known)}" if known else f"{name} takes none")
    return UsageError(f"agent '{spec}': unknown parameter '{key}'", hint)


def _is_agent(obj: object) -> TypeGuard[AgentLike]:
    return callable(getattr(obj, "choose", None)) or callable(obj)


def _as_agent(spec: str, obj: object) -> AgentLike:
    if isinstance(obj, type):
        try:
            instance = obj()
        except Exception as exc:
            raise UsageError(f"agent '{spec}': cannot create {obj.__name__}() with no "
                             f"arguments: {type(exc).__name__}: {exc}") from None
        if _is_agent(instance):
            return instance
        raise UsageError(f"agent '{spec}': {obj.__name__} has no choose(view, decision) method")
    if _is_agent(obj):
        return obj
    raise UsageError(f"agent '{spec}' is not callable ({type(obj).__name__})",
                     "name a class, an object with a choose(view, decision) method, or a "
                     "function (view, decision) -> option")


@dataclass(frozen=True)
class AssignmentWords:
    """How messages about one option's ``ROLE=VALUE`` lists name things."""

    bad: str  # "agent assignment"
    expected: str  # "ROLE=AGENT"
    option: str  # "--agents"
    things: str  # "agents"


AGENT_WORDS = AssignmentWords("agent assignment", "ROLE=AGENT", "--agents", "agents")


def parse_assignments(parts: Iterable[str], roles: list[str] | None, words: AssignmentWords,
                      example: str) -> dict[str, str]:
    """``["hunter=random,runner=mymod:Bot", ...]`` -> ``{role: value}``, in order."""
    result: dict[str, str] = {}
    for part in parts:
        for item in filter(None, (i.strip() for i in part.split(","))):
            role, value = _assignment(item, roles, words, example)
            if role in result:
                raise UsageError(f"role '{role}' is given two {words.things}")
            result[role] = value
    return result


def _assignment(item: str, roles: list[str] | None, words: AssignmentWords, example: str
                ) -> tuple[str, str]:
    role, sep, value = item.partition("=")
    role, value = role.strip(), value.strip()
    if not sep or not role or not value:
        raise UsageError(f"bad {words.bad} '{item}': expected {words.expected}",
                         f"for example {example}")
    if roles is not None and role not in roles:
        hint = did_you_mean(role, roles) or f"roles: {', '.join(roles)}"
        raise UsageError(f"unknown role '{role}' in {words.option}", hint)
    return role, value


def parse_agents(text: str | Iterable[str],
                 roles: Iterable[str] | None = None) -> dict[str, str]:
    """``"hunter=random,runner=mymod:Bot"``, or several such, -> ``{role: spec}``."""
    parts = [text] if isinstance(text, str) else list(text)
    known = None if roles is None else list(roles)
    return parse_assignments(parts, known, AGENT_WORDS, "hunter=random,runner=mymodule:MyAgent")


__all__ = ["AGENT_WORDS", "BUILTIN_AGENTS", "BUILTIN_PARAMETERS", "DEFAULT_AGENT",
           "AssignmentWords", "is_builtin", "load_agent", "parse_agents", "parse_assignments"]
