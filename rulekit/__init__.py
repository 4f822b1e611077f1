"""rulekit: a rules-as-data engine for two-player tabletop games with hidden information.

::

    from rulekit import load_pack

    game = load_pack("path/to/pack").game
    state = game.new_game(seed=1)
    for decision in game.pending(state):
        print(decision.player, [option.label for option in decision.options()])

The names below are the public API. Each is imported when first used. So ``import rulekit``
stays quick for the command line.
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
_HOMES = {
    "load_pack": "rulekit.pack.loader", "LoadedPack": "rulekit.pack.loader",
    "Game": "rulekit.engine.game", "State": "rulekit.engine.game",
    "copy_state": "rulekit.engine.game",
    "Decision": "rulekit.engine.decisions", "Option": "rulekit.engine.decisions",
    "playout": "rulekit.engine.playout", "RandomChooser": "rulekit.engine.draws",
    "Agent": "rulekit.bots.agent", "RandomAgent": "rulekit.bots.agent",
    "View": "rulekit.bots.agent", "load_agent": "rulekit.bots.registry",
    "determinize": "rulekit.bots.determinize",
    "simulate": "rulekit.sim.simulation", "play_game": "rulekit.sim.simulation",
    "SimulationResult": "rulekit.sim.result",
    "run_scenarios": "rulekit.scenarios.runner",
}

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
