"""``rulekit train``: play games, keep their states' features, and fit a learned evaluation."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

from rulekit.bots.agent import (
    AgentLike,
    RandomAgent,
    SeatBelief,
    View,
    as_option,
    asked,
    choose_function,
)
from rulekit.bots.features import Features
from rulekit.bots.learned import Weights, fit, write_weights
from rulekit.bots.registry import load_agent
from rulekit.engine.decisions import Option
from rulekit.engine.rng import derive

if TYPE_CHECKING:
    from rulekit.engine.game import Game

MAX_ROUNDS = 1000  # a game still on after this many rounds is left out
SAVE_EVERY = 20  # games between two saves of the progress


class Progress(TypedDict):
    """A training's progress file: the states' features so far, and who won each game."""

    pack_hash: str
    agent: str
    seed: int
    features: list[str]
    games: int
    rows: list[list[float]]
    winners: list[str | None]


def progress_path(out: Path) -> Path:
    """Where a training that writes ``out`` keeps its progress."""
    return out.with_name(out.name + ".partial")


def resumed(path: Path, game: Game, agent: str, seed: int) -> tuple[Progress, str | None]:
    """The progress saved in ``path`` for this run, or a new one and why the saved one was
    not taken (None if there was none)."""
    names = Features(game).names
    fresh = Progress(pack_hash=game.pack_hash, agent=agent, seed=seed, features=names,
                     games=0, rows=[], winners=[])
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return fresh, None
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        return fresh, f"{path} cannot be read ({type(exc).__name__}): starting again"
    same = isinstance(data, dict) and all(
        data.get(key) == fresh[key] for key in ("pack_hash", "agent", "seed", "features"))
    if not same or not _fits(data, len(names)):
        return fresh, f"{path} is from another run or pack version: starting again"
    return data, None  # (checked above)


def _fits(data: dict[str, object], width: int) -> bool:
    rows, winners, games = data.get("rows"), data.get("winners"), data.get("games")
    return (isinstance(rows, list) and isinstance(winners, list) and isinstance(games, int)
            and len(rows) == len(winners) and games >= 0
            and all(isinstance(r, list) and len(r) == width for r in rows))


def train(game: Game, progress: Progress, games: int, out: Path,
          tell: Callable[[int], None] | None = None) -> Weights:
    """Play on from ``progress`` up to ``games`` games, saving it beside ``out`` (on a
    KeyboardInterrupt too), then fit and write the weights to ``out``."""
    partial = progress_path(out)
    agent, seed = progress["agent"], progress["seed"]
    features = Features(game)
    agents = {role: load_agent(agent) for role in game.roles}
    try:
        while progress["games"] < games:
            index = progress["games"]
            rows, winner = _played(game, derive(seed, index), agents, features, agent)
            progress["rows"] += rows
            progress["winners"] += [winner] * len(rows)
            progress["games"] = index + 1
            if tell is not None:
                tell(1)
            if progress["games"] % SAVE_EVERY == 0:
                write_weights(partial, dict(progress))
    except KeyboardInterrupt:
        write_weights(partial, dict(progress))
        raise
    weights = fit(game, progress["rows"], progress["winners"], progress["games"])
    write_weights(out, weights)
    partial.unlink(missing_ok=True)
    return weights


def _played(game: Game, seed: int, agents: Mapping[str, AgentLike], features: Features,
            spec: str) -> tuple[list[list[float]], str | None]:
    """The features of each state of one game where a decision waits (none if it does not
    end within ``MAX_ROUNDS``), and its winner."""
    state = game.new_game(seed, quiet=all(type(a) is RandomAgent for a in agents.values()))
    rngs = {role: random.Random(f"rulekit-train:{seed}:{role}") for role in game.roles}
    kept = {role: SeatBelief() for role in game.roles}
    rows = []
    while state["result"] is None:
        if state["round"] > MAX_ROUNDS:
            return [], None
        rows.append(features(state))
        answers: dict[str, str | Option] = {}
        for decision in game.pending(state):
            role, agent = decision.player, agents[decision.player]
            if type(agent) is RandomAgent:
                answers[role] = decision.sample(rngs[role])
                continue
            who = f"the agent of {role} ({spec}) in the game with seed {seed}"
            view = View.of(game, role, rngs[role], state, kept=kept[role])
            answer = asked(choose_function(agent), view, decision, who)
            answers[role] = as_option(decision, answer, who)
        state = game.apply(state, answers)
    result = state["result"]
    return rows, result["winner"]


__all__ = ["Progress", "progress_path", "resumed", "train"]
