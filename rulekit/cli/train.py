"""``rulekit train PACK``: fit the evaluation the bots use when a pack declares none."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from rulekit.cli.common import Commands, add_param_option, err, games, out, progress_bar, seed

if TYPE_CHECKING:
    from rulekit.bots.learned import Weights

DEFAULT_GAMES = 2000
SHOWN = 5  # the features of most weight shown per role


def register(commands: Commands) -> None:
    parser = commands.add(
        "train", run, pack=True,
        help="learn an evaluation for the bots of a pack without `evaluate:`",
        description="Play games, then fit, per role, the chance of winning from a state "
                    "over generic features of the state (cards and their properties per "
                    "zone, variables, distances on the map). The bots use these weights for "
                    "a pack that declares no `evaluate:`. They go to the file the pack names "
                    "with `learned:` in pack.yaml, else to rulekit's cache folder; they are "
                    "valid for this version of the pack. "
                    "Ctrl-C saves the games played so far: the same command "
                    "goes on from there. See docs/bots.md.")
    add_param_option(parser)
    parser.add_argument("-n", "--games", type=games, default=DEFAULT_GAMES, metavar="N",
                        help=f"games to play and learn from (default {DEFAULT_GAMES:,})")
    parser.add_argument("--agent", default="random", metavar="AGENT",
                        help="the agent playing every seat of those games (default random; "
                             "a search bot plays on the weights learned so far)")
    parser.add_argument("--seed", type=seed, default=0, metavar="S",
                        help="seed of the run; game i uses a seed derived from it (default 0)")
    parser.add_argument("--out", type=Path, default=None, metavar="FILE",
                        help="write the weights to FILE instead")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress bar")


def run(args: argparse.Namespace) -> int:
    """Train, write the weights and say where; 130 after Ctrl-C, with the progress saved."""
    from rulekit.bots.learned import weights_path
    from rulekit.bots.registry import load_agent
    from rulekit.bots.training import progress_path, resumed, train
    from rulekit.errors import UsageError
    from rulekit.pack.loader import load_pack, parse_params

    game = load_pack(args.pack, parse_params(args.param)).game
    if game.program.evaluate:
        err(f"note: {game.pack_id} declares `evaluate:`, which the bots use before any "
            "learned weights")
    load_agent(args.agent)  # a mistyped agent is said before any game is played
    target = args.out or weights_path(game)
    if target is None:
        raise UsageError("rulekit's cache is turned off (RULEKIT_NO_CACHE)",
                         "name a file for the weights with --out, or in the pack with "
                         "`learned:`")
    progress, note = resumed(progress_path(target), game, args.agent, args.seed)
    if note:
        err(f"note: {note}")
    elif progress["games"]:
        err(f"going on from {progress['games']:,} games played before")
    with progress_bar(args.games, f"training {game.pack_id}", args.quiet) as tell:
        if tell is not None:
            tell(min(progress["games"], args.games))
        try:
            weights = train(game, progress, args.games, target, tell)
        except KeyboardInterrupt:
            err(f"interrupted after {progress['games']:,} of {args.games:,} games; run the "
                "same command again to go on")
            return 130
        except OSError as exc:
            raise UsageError(f"cannot write {target}: {exc.strerror or exc}") from None
    out(f"{game.pack_id}: learned from {weights['games']:,} games, "
        f"{len(progress['rows']):,} states; weights in {target}")
    for role in game.roles:
        out(f"  {game.role_names[role]} wins more with: {_strongest(weights, role)}")
    return 0


def _strongest(weights: Weights, role: str) -> str:
    """The features of most weight for ``role``, each with the sign of its effect."""
    pairs = zip(weights["features"], weights["weights"][role][1:], strict=True)
    ranked = sorted(pairs, key=lambda p: -abs(p[1]))[:SHOWN]
    return ", ".join(f"{'+' if w > 0 else '-'}{name}" for name, w in ranked if w)
