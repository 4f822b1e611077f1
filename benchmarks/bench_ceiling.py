"""The most any player could win against random play: a clairvoyant seat's wins.

    python benchmarks/bench_ceiling.py PACK ROLE [--games N] [--nodes N]

For each game (seeds 0..N-1) the seat knows everything to come: the shuffles and the other
players' random answers, each drawn from a stream of its own that no choice of the seat moves.
It tries its answers in turn until one wins. Such a seat wins at least as often as any real
player on the same games, so its rate bounds what a bot can reach against random play. A game
whose search passes ``--nodes`` decisions counts as won, so the figure stays a bound.

The bound is loose where a choice changes which card a later shuffle puts on top (the seat
then picks its deck); it is close where only the opponents' answers and the deal are unknown.
"""

from __future__ import annotations

import argparse
import random
import time

from rulekit import Game, copy_state, load_pack
from rulekit.engine.game import State
from rulekit.sim.stats import wilson_interval


class TooLong(Exception):
    """The search of one game passed its number of decisions."""


def clairvoyant_wins(game: Game, role: str, seed: int, nodes: int) -> bool:
    """Whether some answers of ``role`` win game ``seed`` against random answers."""
    searched = 0

    def wins(state: State, step: int) -> bool:
        nonlocal searched
        if game.is_over(state):
            return game.winner(state) == role
        searched += 1
        if searched > nodes:
            raise TooLong
        others, mine = {}, None
        for decision in game.pending(state):
            if decision.player == role:
                mine = decision
            else:  # the same answer whatever the seat did before
                others[decision.player] = decision.sample(
                    random.Random(f"{seed}/{step}/{decision.player}")).id
        answers = [None] if mine is None else [option.id for option in mine.options()]
        for answer in answers:
            trial = copy_state(state)
            game.apply(trial, others if answer is None else {**others, role: answer},
                       in_place=True)
            if wins(trial, step + 1):
                return True
        return False

    return wins(game.initial_state(seed, quiet=True), 0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pack")
    parser.add_argument("role")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--nodes", type=int, default=100_000,
                        help="decisions searched per game before it counts as won")
    args = parser.parse_args()
    game = load_pack(args.pack).game
    start = time.process_time()
    won = too_long = 0
    for seed in range(args.games):
        try:
            won += clairvoyant_wins(game, args.role, seed, args.nodes)
        except TooLong:
            won += 1
            too_long += 1
    low, high = wilson_interval(won, args.games)
    print(f"{args.pack} {args.role}: a clairvoyant seat won {won}/{args.games} against random"
          f" = {won / args.games:.0%} [{low:.0%}, {high:.0%}]; {too_long} games counted won"
          f" unsearched; {time.process_time() - start:.0f} s of CPU")


if __name__ == "__main__":
    main()
