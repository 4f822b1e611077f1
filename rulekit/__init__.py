"""rulekit: a rules-as-data engine for two-player tabletop games with hidden information.

The names below are the public API, each imported when first used, so that ``import rulekit``
stays quick for the command line. docs/python.md shows how to use them.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from rulekit.errors import (
    GameRuntimeError,
    IllegalActionError,
    Location,
    PackError,
    PackErrors,
    RulekitError,
    SaveFileError,
    UsageError,
)

__version__ = "0.1.0"

if TYPE_CHECKING:
    from rulekit.bots.agent import Agent, RandomAgent, View
    from rulekit.bots.determinize import determinize
    from rulekit.bots.registry import load_agent
    from rulekit.engine.decisions import Decision, Option
    from rulekit.engine.draws import RandomChooser
    from rulekit.engine.game import Game, State, copy_state
    from rulekit.engine.playout import playout
    from rulekit.pack.loader import LoadedPack, load_pack
    from rulekit.scenarios.runner import run_scenarios
    from rulekit.sim.result import SimulationResult
    from rulekit.sim.simulation import play_game, simulate


# Where each public name lives.
_HOMES = {name: home for home, names in {
    "rulekit.pack.loader": ("load_pack", "LoadedPack"),
    "rulekit.engine.game": ("Game", "State", "copy_state"),
    "rulekit.engine.decisions": ("Decision", "Option"),
    "rulekit.engine.playout": ("playout",),
    "rulekit.engine.draws": ("RandomChooser",),
    "rulekit.bots.agent": ("Agent", "RandomAgent", "View"),
    "rulekit.bots.registry": ("load_agent",),
    "rulekit.bots.determinize": ("determinize",),
    "rulekit.sim.simulation": ("simulate", "play_game"),
    "rulekit.sim.result": ("SimulationResult",),
    "rulekit.scenarios.runner": ("run_scenarios",),
}.items() for name in names}

__all__ = [
    "Agent", "Decision", "Game", "GameRuntimeError", "IllegalActionError", "LoadedPack",
    "Location", "Option", "PackError", "PackErrors", "RandomAgent", "RandomChooser",
    "RulekitError", "SaveFileError", "SimulationResult", "State", "UsageError", "View",
    "__version__", "copy_state", "determinize", "load_agent", "load_pack", "play_game",
    "playout", "run_scenarios", "simulate",
]


def __getattr__(name: str) -> object:
    """Import the public name ``name`` from its home, once."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'rulekit' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value
