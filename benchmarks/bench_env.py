"""The PettingZoo environment of a pack (``rulekit.env``): its cost over the engine, its games.

    python benchmarks/bench_env.py [PACK] [--games N] [--repeat R] [--win-games W]

Figures:

- ``apply_us``: the engine's own ``Game.apply`` per answer (one per decision of the engine),
  along random games played through the environment, replayed with the same answers;
- ``step_us``: ``env.step`` per engine decision, the same games (a subset question takes one
  step per item offered: every step of a decision is counted in its figure); ``last_us``:
  ``env.last()`` (the observation vector and the mask) for each step, per engine decision;
- ``step_ratio``: ``step_us / apply_us``; ``loop_ratio``: ``(step_us + last_us) / apply_us``,
  what a training loop pays; each the median of R runs;
- with ``--win-games W`` (1,000 by default, 0 for none): W games of a random policy
  (``action_space.sample(mask)``) through the environment, the run of seed 0 (the games of
  ``rulekit simulate --seed 0``), and that command's win rates with their 95% intervals, side
  by side.

Times are CPU time (``time.process_time``). Nothing here is a pass/fail test: it prints figures.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from rulekit import simulate
from rulekit.engine.rng import derive
from rulekit.env import RulekitEnv, make
from rulekit.sim.stats import wilson_interval


def record(env: RulekitEnv, seed: int) -> tuple[list[int], list[dict[str, str]]]:
    """A random game's actions through the environment, and the answers the engine got."""
    game = env.game
    answers: list[dict[str, str]] = []
    apply = game.apply

    def recorded(state: Any, actions: Any, **kwargs: Any) -> Any:
        answers.append(dict(actions))
        return apply(state, actions, **kwargs)

    game.apply = recorded  # type: ignore[method-assign]
    actions: list[int] = []
    env.reset(seed=seed)
    for agent in env.agent_iter():
        obs, _, ended, cut, _ = env.last()
        if ended or cut:
            env.step(None)
            continue
        actions.append(int(env.action_space(agent).sample(obs["action_mask"])))
        env.step(actions[-1])
    del game.apply
    return actions, answers


def timed_env(env: RulekitEnv, seed: int, actions: list[int]) -> tuple[float, float]:
    """The CPU time of the game's steps, and of a ``last()`` before each."""
    env.reset(seed=seed)
    started = time.process_time()
    for action in actions:
        env.step(action)
    steps = time.process_time() - started
    env.reset(seed=seed)
    lasts = 0.0
    for action in actions:
        started = time.process_time()
        env.last()
        lasts += time.process_time() - started
        env.step(action)
    return steps, lasts


def timed_apply(env: RulekitEnv, seed: int, answers: list[dict[str, str]]) -> float:
    game = env.game
    state = game.new_game(derive(seed, 0))  # the first game of the run, as env.reset plays it
    started = time.process_time()
    for actions in answers:
        game.apply(state, actions, in_place=True)
    return time.process_time() - started


def overhead(env: RulekitEnv, games: int, run: int) -> tuple[float, float, float, int]:
    """Per engine decision: apply, step and last, in µs; and the decisions counted."""
    applied = stepped = lasted = 0.0
    decisions = 0
    for i in range(games):
        seed = run * 1_000_000 + i
        for agent in env.possible_agents:
            env.action_space(agent).seed(seed)
        actions, answers = record(env, seed)
        step, last = timed_env(env, seed, actions)
        stepped, lasted = stepped + step, lasted + last
        applied += timed_apply(env, seed, answers)
        decisions += len(answers)
    scale = 1e6 / decisions
    return applied * scale, stepped * scale, lasted * scale, decisions


def win_rates(pack: str, games: int) -> None:
    env = make(pack, seed=0)
    for agent in env.possible_agents:
        env.action_space(agent).seed(0)
    wins = dict.fromkeys(env.possible_agents, 0)
    for _ in range(games):
        env.reset()
        for agent in env.agent_iter():
            obs, reward, ended, cut, _ = env.last()
            if ended or cut:
                wins[agent] += reward > 0
                env.step(None)
            else:
                env.step(env.action_space(agent).sample(obs["action_mask"]))
    result = simulate(pack, games=games, seed=0)
    print(f"{games} games of seed 0: role, environment, rulekit simulate")
    for role in env.possible_agents:
        low, high = wilson_interval(result.wins[role], games)
        print(f"  {role}: {wins[role] / games:.1%} | {result.wins[role] / games:.1%} "
              f"(95% CI {low:.1%} - {high:.1%})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pack", nargs="?", default="carchase")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--win-games", type=int, default=1000)
    args = parser.parse_args()
    env = make(args.pack)
    rows = [overhead(env, args.games, run) for run in range(args.repeat)]
    apply_us, step_us, last_us, decisions = (statistics.median(column)
                                             for column in zip(*rows, strict=True))
    print(f"{args.pack}: {args.games} games x {args.repeat} runs, {decisions:.0f} decisions "
          "per run")
    print(f"apply_us {apply_us:.1f}  step_us {step_us:.1f}  last_us {last_us:.1f}")
    print(f"step_ratio {statistics.median(s / a for a, s, _, _ in rows):.2f}  "
          f"loop_ratio {statistics.median((s + last) / a for a, s, last, _ in rows):.2f}")
    if args.win_games:
        win_rates(args.pack, args.win_games)


if __name__ == "__main__":
    main()
