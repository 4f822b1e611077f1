"""How often a bot seat's belief loses the game, in games with search bots.

    python benchmarks/bench_belief_loss.py PACK [--games N] [--agent SPEC] [--max-rounds R]
                                                [--caps P,F,K] [--json]

For each role in turn, that role is played by ``--agent`` (default ``ismcts:iterations=20``)
against random, over ``N`` games (seeds 0, 1, ...; at most ``R`` rounds). At each of the seat's
decisions its belief (``view.belief``, fed as the agent feeds it) is read and compared with the
real state. Figures per role: ``decisions``; how many of them found the belief lost
(``lost_decisions``; ``lost_games``: games where it was lost at least once); how many found it
not lost but without the true value of a variable the seat cannot see
(``true_value_missing_*``); how many found no particle from which a draw (its unseen cards
dealt again, as ``Belief.sample`` deals them) can give the real cards (``true_cards_missing_*``);
restarts from the beginning of the game; and the CPU time of the
belief's updates (median, 90th and 99th percentile, largest; milliseconds). ``--caps`` gives the
belief's particles, frontier and keep (default: those of a bot seat). Nothing here is a
pass/fail test: the script prints figures.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

from rulekit.bots import belief as beliefs
from rulekit.bots.agent import View, as_option, choose_function
from rulekit.bots.belief.deal import Deal
from rulekit.bots.registry import load_agent
from rulekit.pack.loader import load_pack
from rulekit.sim.simulation import seat_rng


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def measure(pack: str, role: str, games: int, agent_spec: str, max_rounds: int,
            caps: dict[str, int]) -> dict[str, Any]:
    game = load_pack(pack).game
    choose = choose_function(load_agent(agent_spec))
    decisions = lost = missed = restarts = cards_missed = 0
    games_lost = games_missed = games_cards_missed = 0
    spent: list[float] = []
    original = beliefs.Belief.update
    defaults = beliefs.Belief.__init__.__kwdefaults__
    saved = dict(defaults)
    defaults.update(caps)

    def timed(self: beliefs.Belief, observation: dict[str, Any]) -> beliefs.Belief:
        started = time.process_time()
        try:
            return original(self, observation)
        finally:
            spent.append(time.process_time() - started)

    beliefs.Belief.update = timed  # type: ignore[method-assign]
    try:
        for seed in range(games):
            state = game.new_game(seed)
            rngs = {r: seat_rng(seed, r) for r in game.roles}
            was_lost = was_missed = was_cards_missed = False
            belief = None
            kept = beliefs.SeatBelief()  # the seat's belief, followed from decision to decision
            while state["result"] is None and state["round"] <= max_rounds:
                actions: dict[str, Any] = {}
                for decision in game.pending(state):
                    if decision.player != role:
                        actions[decision.player] = decision.sample(rngs[decision.player])
                        continue
                    view = View.of(game, role, rngs[role], state, kept=kept)
                    belief = view.belief
                    decisions += 1
                    if belief.lost:
                        lost += 1
                        was_lost = True
                    elif any(_plain(state["vars"][key]) not in belief.distribution(key)
                             for key in belief.caps.hidden_vars):
                        missed += 1
                        was_missed = True
                    if not belief.lost and not any(
                            p.deal is not None and drawable(p.state, p.deal, state)
                            for p in belief.particles):
                        cards_missed += 1
                        was_cards_missed = True
                    actions[role] = as_option(decision, choose(view, decision), role)
                game.apply(state, actions, in_place=True)
            games_lost += was_lost
            games_missed += was_missed
            games_cards_missed += was_cards_missed
            restarts += belief.restarts if belief is not None else 0
    finally:
        beliefs.Belief.update = original  # type: ignore[method-assign]
        defaults.clear()
        defaults.update(saved)
    ms = [s * 1e3 for s in spent]
    return {"pack": pack, "role": role, "agent": agent_spec, "games": games,
            "caps": caps or "default", "decisions": decisions,
            "lost_decisions": lost, "lost_games": games_lost,
            "true_value_missing_decisions": missed, "true_value_missing_games": games_missed,
            "true_cards_missing_decisions": cards_missed,
            "true_cards_missing_games": games_cards_missed,
            "restarts": restarts,
            "update_ms": {"median": round(statistics.median(ms), 2) if ms else None,
                          "p90": round(percentile(ms, 0.9), 1),
                          "p99": round(percentile(ms, 0.99), 1),
                          "max": round(max(ms, default=0.0), 1)}}


def drawable(particle: dict[str, Any], deal: Deal, real: dict[str, Any]) -> bool:
    """Whether a new deal of ``particle``'s unseen cards can give ``real``'s cards."""
    pool_of = [i for i, pool in enumerate(deal.pools) for _ in pool]
    pools = [set(pool) for pool in deal.pools]
    plans = dict(deal.piles)
    for key, pile in real["zones"].items():
        mine, plan = particle["zones"][key], plans.get(key)
        if len(mine) != len(pile):
            return False
        for index, card in enumerate(pile):
            at = -1 if plan is None else plan[index]
            if card not in pools[pool_of[at]] if 0 <= at < len(pool_of) else \
                    mine[index] != card:
                return False
    return True


def _plain(value: Any) -> Any:
    return tuple(_plain(v) for v in value) if isinstance(value, list) else value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pack", nargs="?", default="carchase")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--agent", default="ismcts:iterations=20")
    parser.add_argument("--roles", default=None, help="comma-separated roles (default: all)")
    parser.add_argument("--max-rounds", type=int, default=40)
    parser.add_argument("--caps", default=None, help="the belief's particles,frontier,keep")
    parser.add_argument("--json", action="store_true", help="print one JSON object per role")
    args = parser.parse_args()
    caps = {} if args.caps is None else dict(
        zip(("particles", "frontier", "keep"), map(int, args.caps.split(",")), strict=True))
    game = load_pack(args.pack).game
    roles = args.roles.split(",") if args.roles else game.roles
    random.seed(0)
    for role in roles:
        figures = measure(args.pack, role, args.games, args.agent, args.max_rounds, caps)
        if args.json:
            print(json.dumps(figures))
        else:
            print(" ".join(f"{k}={v}" for k, v in figures.items()))


if __name__ == "__main__":
    main()
