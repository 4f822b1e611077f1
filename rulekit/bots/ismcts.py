"""The ``ismcts`` agent: single-observer information-set Monte Carlo tree search.

Each iteration draws a full state from the seat's belief (a *determinization*: nothing the seat
may not know is taken from the real game), walks down one tree shared by all iterations,
choosing every pending player's answer by UCB, adds one node, then plays a *rollout* on the
fast playout path (:mod:`rulekit.engine.playout`) for at most ``depth`` decisions, and scores
the state reached with the evaluation (win/loss at the end; the pack's ``evaluate:`` when cut).
By default ``depth`` is 0: the new node's state is scored as it is, which measured stronger
than random rollouts on the shipped packs (they add noise that 100 iterations do not average
out; ``docs/bots.md``).
The rollout policy is random with two generic leanings (see :mod:`rulekit.bots.rollout`): a
subset choice is often answered with a largest subset, and an optional choice is seldom
declined. For a subset choice of many items a node weighs a few largest subsets, the empty one
and random ones. Options that exist in one determinization and not in another are scored by
how often they were *available* (the ISMCTS rule). Players deciding at the same time each
choose from their own statistics at the node (decoupled UCB), so neither side's choice depends
on the other's commitment. The answer is the most visited option at the root. A seat whose
belief has lost the game has no state to search on: it answers as the rollout policy would.

Budgets: ``iterations`` per decision (deterministic for a given seed), or ``seconds`` per
decision (then the count depends on the machine's speed).
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import math
import random
import time
from typing import TYPE_CHECKING, Any

from rulekit.bots.anytime import Detours, idle_here, own_options, remember, unless_idle
from rulekit.bots.evaluation import Evaluation, pack_evaluation
from rulekit.bots.rollout import largest_option, rollout, rollout_choice
from rulekit.engine.decisions import NONE_ID, Decision, Option
from rulekit.errors import GameRuntimeError

if TYPE_CHECKING:
    from rulekit.bots.agent import View
    from rulekit.engine.game import Game, State


ITERATIONS = 100  # the default budget per decision
DEPTH = 0  # the default number of rollout decisions before the evaluation scores the state


class _Node:
    """A point of the tree: per player, per option id, [visits, total reward, available]."""

    __slots__ = ("children", "memo", "stats")

    def __init__(self) -> None:
        self.stats: dict[str, dict[str, list[float]]] = {}
        self.children: dict[tuple[tuple[str, str], ...], _Node] = {}
        self.memo: dict[str, list[Any]] = {}  # per player, see _candidates


class IsmctsAgent:
    """Information-set MCTS over determinizations of the seat's belief."""

    def __init__(self, iterations: int | None = None, seconds: float | None = None,
                 depth: int = DEPTH, exploration: float = 0.7,
                 evaluate: Evaluation | None = None) -> None:
        if iterations is None and seconds is None:
            iterations = ITERATIONS
        if iterations is not None and iterations < 1:
            raise ValueError("iterations must be at least 1")
        if seconds is not None and seconds <= 0:
            raise ValueError("seconds must be more than 0")
        if depth < 0:
            raise ValueError("depth must be 0 or more")
        self.iterations = iterations
        self.seconds = seconds
        self.depth = depth
        self.exploration = exploration
        self.evaluate = evaluate
        self.last_iterations = 0  # how many the last decision ran (for benchmarks)

    def choose(self, view: View, decision: Decision) -> Option:
        self.last_iterations = 0
        options = decision.options()
        if len(options) == 1:
            return options[0]
        game, role = view.game, view.role
        if view.belief.lost:  # brought up to date before the clock starts
            return rollout_choice(decision, view.rng)  # no state to search: play as rollouts
        barred = idle_here(view)  # anytime actions taken here already, back with nothing new
        rng = random.Random(view.rng.getrandbits(64))
        evaluate = self.evaluate or pack_evaluation(game)
        root = _Node()
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        while True:
            if self.iterations is not None and done >= self.iterations:
                break
            if deadline is not None and done > 0 and time.perf_counter() >= deadline:
                break
            state = view.determinize(rng)
            state["quiet"] = True  # a search builds no log lines
            # A pack's fault on a line of play the real game may never take: the iteration
            # counts for nothing (a real game that takes it says where).
            with contextlib.suppress(GameRuntimeError):
                self._iterate(game, state, root, rng, evaluate, (role, barred))
            done += 1
        self.last_iterations = done
        stats = root.stats.get(role, {})
        tried = []
        for option_id, entry in stats.items():
            if entry[0] > 0 and option_id not in barred:
                option = decision.legal_option(option_id)
                if option is not None:
                    tried.append(option)
        if not tried:
            options = own_options(decision, barred)
            return remember(view, decision, view.rng.choice(options) if barred else
                            decision.sample(view.rng))
        best = max(tried, key=lambda o: (stats[o.id][0], stats[o.id][1]))
        best = unless_idle(best, tried, decision, lambda o: stats[o.id][1] / stats[o.id][0])
        return remember(view, decision, best)

    def _iterate(self, game: Game, state: State, root: _Node, rng: random.Random,
                 evaluate: Evaluation, barred_at_root: tuple[str, set[str]]) -> None:
        path: list[tuple[_Node, tuple[tuple[str, str], ...]]] = []
        node = root
        expanded = False
        detours = Detours()  # no going round an anytime action's loop inside the tree
        while state["result"] is None and not expanded:
            decisions = game.pending(state)
            if not decisions:
                break
            answers = []
            for d in decisions:
                barred = detours.barred(state, d)
                if node is root and d.player == barred_at_root[0]:
                    barred = barred | barred_at_root[1]
                answer = self._select(node, d, rng, barred)
                detours.took(state, d, answer)
                answers.append((d.player, answer))
            joint = tuple(answers)
            path.append((node, joint))
            game.apply(state, dict(joint), in_place=True)
            child = node.children.get(joint)
            if child is None:
                child = node.children[joint] = _Node()
                expanded = True
            node = child
        if state["result"] is None and self.depth > 0:
            rollout(game, state, rng, self.depth)
        rewards = {role: evaluate(game, state, role) for role in game.roles}
        for node, joint in path:
            for player, option_id in joint:
                entry = node.stats[player][option_id]
                entry[0] += 1
                entry[1] += rewards[player]

    def _select(self, node: _Node, decision: Decision, rng: random.Random,
                barred: set[str]) -> str:
        """UCB over the options available here but ``barred`` anytime actions, untried ones
        first (in random order)."""
        stats = node.stats.setdefault(decision.player, {})
        options = _candidates(decision, stats, rng, node.memo.setdefault(decision.player, []))
        if barred:
            options = [o for o in options if o not in barred] or options
        untried = []
        for option_id in options:
            entry = stats.get(option_id)
            if entry is None:
                entry = stats[option_id] = [0.0, 0.0, 0.0]
            entry[2] += 1
            if entry[0] == 0:
                untried.append(option_id)
        if untried:
            return rng.choice(untried)
        c = self.exploration
        best_id, best_value = options[0], -math.inf
        for option_id in options:
            visits, total, available = stats[option_id]
            value = total / visits + c * math.sqrt(math.log(available) / visits)
            if value > best_value:
                best_id, best_value = option_id, value
        return best_id

    def __repr__(self) -> str:
        budget = f"seconds={self.seconds}" if self.seconds is not None else \
            f"iterations={self.iterations}"
        return f"IsmctsAgent({budget}, depth={self.depth})"


@functools.lru_cache(maxsize=1 << 16)
def _items_of(option_id: str) -> frozenset[str]:
    """The ids of the items a subset's option id names (none for the empty subset, nor for
    an anytime action's ``!name``)."""
    if option_id in (NONE_ID, "") or option_id[:1] == "!":
        return frozenset()
    return frozenset(option_id.split("+"))


WIDTH = 16  # options considered at a node of a decision with many (subsets, say)
LARGEST = 3  # of which (about) this many are largest subsets


def _candidates(decision: Decision, stats: dict[str, list[float]], rng: random.Random,
                memo: list[Any]) -> list[str]:
    """The ids of the options a node weighs: all of them, or for a decision with very many
    (subsets of many items), those already tried here that are legal now, then a few largest
    subsets and the empty one, then random ones, up to :data:`WIDTH`.

    ``memo`` (the node's, for this player) keeps what the last visit found of the ids tried
    here, with the decision's :func:`_shape`: a visit to the same decision (the searching
    player's own, whose cards every state drawn shares) goes on from there."""
    shape = _shape(decision)
    known = bool(memo) and memo[0] == shape
    if decision.kind == "one" or len(decision.items) <= 4:
        if not known:
            memo[:] = [shape, 0, [option.id for option in decision.options()]]
        return list(memo[2])
    scanned, legal = (memo[1], memo[2]) if known else (0, [])
    if len(legal) < WIDTH:
        # Most ids tried at a node of another player name cards of other deals: those that
        # name an item not offered now are passed over in C before an option is looked for.
        offered = decision.offered
        new_ids = itertools.islice(stats, scanned, None)  # (tried since the last visit)
        all_offered = map(offered.__ge__, map(_items_of, itertools.islice(stats, scanned, None)))
        for option_id in itertools.compress(new_ids, all_offered):
            option = decision.legal_option(option_id)
            if option is not None:  # (its id names the items in the order offered here)
                legal.append((option_id, option.id))
                if len(legal) >= WIDTH:
                    break
        memo[:] = [shape, len(stats), legal]
    found = dict(legal[:WIDTH])  # id tried -> the option's id
    if len(found) >= WIDTH:
        return list(found.values())
    for _ in range(2 * LARGEST):
        option = largest_option(decision, rng)
        if option is not None:
            found.setdefault(option.id, option.id)
    if decision.min == 0:
        found.setdefault(NONE_ID, NONE_ID)
    for _ in range(2 * WIDTH):
        if len(found) >= WIDTH:
            break
        option = decision.sample(rng)
        found.setdefault(option.id, option.id)
    return list(found.values())


def _shape(decision: Decision) -> tuple[Any, ...]:
    """What makes an option id legal at ``decision``: its items' ids, in order, its kind,
    bounds and ``at most`` rules, and its anytime actions."""
    spec = decision.spec
    return (decision.kind, tuple(decision.ids), spec.get("optional", False), decision.min,
            decision.max, tuple((limit, tuple(flags)) for limit, flags in spec.get("at_most", ())),
            tuple(extra.id for extra in decision.extras))


__all__ = ["IsmctsAgent"]
