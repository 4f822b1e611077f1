"""A learned evaluation: a logistic regression per role over a state's generic features."""

from __future__ import annotations

import json
import math
import os
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

from rulekit.bots.features import Features
from rulekit.source.datafiles import cache_dir

if TYPE_CHECKING:
    from rulekit.engine.game import Game
    from rulekit.engine.state import State

FORMAT = 1
EPOCHS = 30  # passes of the fit over the states
RATE = 0.05  # the fit's first step size, on standardized features
DECAY = 1e-4  # how much the fit pulls each weight towards 0
MAX_BYTES = 16 * 1024 * 1024  # the largest weights file read


class Weights(TypedDict):
    """A weights file: a logistic regression per role over the pack's features."""

    format: int
    pack: str
    pack_hash: str
    games: int  # games played to fit them
    features: list[str]
    mean: list[float]  # each feature's mean and spread over the states fitted on
    scale: list[float]
    weights: dict[str, list[float]]  # per role: the bias, then one per feature


def weights_path(game: Game) -> Path | None:
    """Where the weights of ``game``'s pack are: its ``learned:`` file, else in the cache."""
    if game.learned_file is not None:
        return Path(game.learned_file)
    folder = cache_dir()
    return None if folder is None else folder / "learned" / f"{game.pack_id}.json"


def fit(game: Game, rows: Sequence[list[float]], winners: Sequence[str | None],
        games: int) -> Weights:
    """Weights fitted on ``rows`` of features, each from a game won by ``winners[i]``."""
    names = Features(game).names
    count = max(1, len(rows))
    mean = [sum(column) / count for column in zip(*rows, strict=True)] or [0.0] * len(names)
    scale = [math.sqrt(sum((x - m) ** 2 for x in column) / count) or 1.0
             for column, m in zip(zip(*rows, strict=True), mean, strict=True)] \
        or [1.0] * len(names)
    standard = [[(x - m) / s for x, m, s in zip(row, mean, scale, strict=True)] for row in rows]
    weights = {role: _logistic(standard, [1.0 if w == role else 0.5 if w is None else 0.0
                                          for w in winners])
               for role in game.roles}
    return Weights(format=FORMAT, pack=game.pack_id, pack_hash=game.pack_hash, games=games,
                   features=names, mean=mean, scale=scale, weights=weights)


def _logistic(rows: list[list[float]], labels: list[float]) -> list[float]:
    """The bias and weights of a logistic regression, by stochastic gradient descent."""
    width = len(rows[0]) if rows else 0
    bias, weights = 0.0, [0.0] * width
    order = list(range(len(rows)))
    shuffle = random.Random(0).shuffle
    for epoch in range(EPOCHS):
        rate = RATE / (1 + epoch)
        shuffle(order)
        for i in order:
            row = rows[i]
            error = _sigmoid(bias + sum(w * x for w, x in zip(weights, row, strict=True))) \
                - labels[i]
            bias -= rate * error
            weights = [w - rate * (error * x + DECAY * w)
                       for w, x in zip(weights, row, strict=True)]
    return [bias, *weights]


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, x))))


def write_weights(path: Path, weights: Weights | dict[str, object]) -> None:
    """Write ``weights`` (or a training's progress) to ``path`` whole, or not at all."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    temporary.write_text(json.dumps(weights), encoding="utf-8")
    os.replace(temporary, path)


def read_weights(path: Path, game: Game) -> tuple[Weights | None, str | None]:
    """The weights in ``path`` for ``game``, else None and why not (None if no file)."""
    try:
        if path.stat().st_size > MAX_BYTES:
            return None, f"{path} is larger than {MAX_BYTES // 2**20} MB: ignored"
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None, None
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        return None, f"{path} cannot be read ({type(exc).__name__}): ignored"
    problem = _problem(data, game)
    if problem:
        return None, f"the learned weights in {path} {problem}: ignored"
    return data, None  # (checked by _problem)


def _problem(data: object, game: Game) -> str | None:
    """What makes ``data`` unfit as weights for ``game``, or None."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return "are not a weights file of this version of rulekit"
    if data.get("pack") != game.pack_id or data.get("pack_hash") != game.pack_hash:
        return (f"are for another version of the pack {game.pack_id!r} "
                f"(run `rulekit train {game.pack_id}` again)")
    names = Features(game).names
    if data.get("features") != names:
        return "were fitted on other features (run `rulekit train` again)"
    width = len(names)
    vectors = [data.get("mean"), data.get("scale")] + \
        [data.get("weights", {}).get(role) for role in game.roles]
    sizes = [width, width] + [width + 1] * len(game.roles)
    for vector, size in zip(vectors, sizes, strict=True):
        if not (isinstance(vector, list) and len(vector) == size and
                all(isinstance(x, int | float) and math.isfinite(x) for x in vector)):
            return "are damaged"
    return None


def learned_evaluation(game: Game, weights: Weights) -> Callable[[Game, State, str], float]:
    """An evaluation scoring a running state by the learned chance of each role's win."""
    features = Features(game)
    folded: dict[str, tuple[float, list[float]]] = {}
    for role, (bias, *ws) in weights["weights"].items():
        slopes = [w / s for w, s in zip(ws, weights["scale"], strict=True)]
        folded[role] = (bias - sum(k * m for k, m in zip(slopes, weights["mean"], strict=True)),
                        slopes)

    def evaluate(game: Game, state: State, role: str) -> float:
        result = state["result"]
        if result is not None:
            winner = result["winner"]
            return 0.5 if winner is None else 1.0 if winner == role else 0.0
        bias, slopes = folded[role]
        chance = _sigmoid(bias + sum(k * x for k, x in zip(slopes, features(state),
                                                             strict=True)))
        return 0.05 + 0.9 * chance
    return evaluate


__all__ = [
    "Weights",
    "fit",
    "learned_evaluation",
    "read_weights",
    "weights_path",
    "write_weights",
]
