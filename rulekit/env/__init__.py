"""Any pack as a PettingZoo environment (``pip install 'rulekit[rl]'``); see docs/python.md."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

try:
    import gymnasium  # noqa: F401
    import pettingzoo  # noqa: F401
except ModuleNotFoundError as missing:
    raise ModuleNotFoundError(f"rulekit.env needs {missing.name}: pip install 'rulekit[rl]'",
                              name=missing.name) from None

from rulekit.env.aec import DEFAULT_MAX_ROUNDS, VALUE_SLOTS, RulekitEnv
from rulekit.env.parallel import RulekitParallelEnv
from rulekit.env.spaces import Actions, Encoder
from rulekit.pack.loader import load_pack


def make(pack: str | Path, params: Mapping[str, str | int] | None = None, *,
         seed: int | None = None, max_rounds: int = DEFAULT_MAX_ROUNDS,
         value_slots: int = VALUE_SLOTS, render_mode: str | None = None) -> RulekitEnv:
    """A PettingZoo AEC environment of a pack (a path or an id); see docs/python.md."""
    return RulekitEnv(load_pack(pack, dict(params or {})), seed=seed, max_rounds=max_rounds,
                      value_slots=value_slots, render_mode=render_mode)


def parallel_env(pack: str | Path, params: Mapping[str, str | int] | None = None, *,
                 seed: int | None = None, max_rounds: int = DEFAULT_MAX_ROUNDS,
                 value_slots: int = VALUE_SLOTS, render_mode: str | None = None
                 ) -> RulekitParallelEnv:
    """:func:`make`'s environment as a PettingZoo parallel environment."""
    return RulekitParallelEnv(make(pack, params, seed=seed, max_rounds=max_rounds,
                                   value_slots=value_slots, render_mode=render_mode))

__all__ = ["Actions", "Encoder", "RulekitEnv", "RulekitParallelEnv", "make", "parallel_env"]
