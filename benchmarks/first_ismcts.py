"""The ``ismcts`` search as it stood before the bots learnt mixed answers: a fixed yardstick.

    --agents law=first_ismcts:FirstIsmcts   (100 iterations, as ``ismcts``)

It is the search of commit 0078f75, on today's engine and belief: UCB at every node (each
player apart where several commit at once), no mixed answers, no card choices weighed by kind,
no steadied choices of cards, no public belief. ``bench_bots.py --ismcts
first_ismcts:FirstIsmcts`` measures the default bot against it, as the bots' goals name
"today's ismcts". Its helpers are copies of ``rulekit/bots/ismcts.py``'s, not imports, so
that a change to the search there leaves this yardstick as it is.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import math
import random
import time
from typing import TYPE_CHECKING

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
WIDTH = 16  # options considered at a node of a decision with many (subsets, say)
LARGEST = 3  # of which (about) this many are largest subsets
MAX_ITERATIONS = 1_000_000  # the largest budgets a seat may name
MAX_SECONDS = 3600.0
MAX_DEPTH = 10_000
MAX_EXPLORATION = 100.0

Stats = dict[str, list[float]]  # per option id: [visits, total reward, times available]
Joint = tuple[tuple[str, str], ...]  # each deciding player's answer, in order
Path = list[tuple["_Node", Joint]]  # the nodes an iteration walked through, and its answers


class _Memo:
    """What a node's last visit found of one player's decision."""

    __slots__ = ("ids", "legal", "scanned", "shape")

    def __init__(self) -> None:
        self.shape: tuple[object, ...] | None = None  # the decision's :func:`_shape`
        self.ids: list[str] | None = None  # every option's id, for a decision of few options
        self.legal: list[tuple[str, str]] = []  # (id tried at the node, the option's id here)
        self.scanned = 0  # how many of the node's ids tried were looked at

    def reset(self, shape: tuple[object, ...]) -> None:
        self.shape, self.ids, self.legal, self.scanned = shape, None, [], 0


class _Node:

    __slots__ = ("children", "memo", "stats")

    def __init__(self) -> None:
        self.stats: dict[str, Stats] = {}
        self.children: dict[Joint, _Node] = {}
        self.memo: dict[str, _Memo] = {}

    def memo_of(self, player: str) -> _Memo:
        memo = self.memo.get(player)
        if memo is None:
            memo = self.memo[player] = _Memo()
        return memo


class FirstIsmcts:
    """Information-set MCTS over states drawn from the seat's belief."""

    def __init__(self, iterations: int | None = None, seconds: float | None = None,
                 depth: int = DEPTH, exploration: float = 0.7,
                 evaluate: Evaluation | None = None) -> None:
        if iterations is None and seconds is None:
            iterations = ITERATIONS
        _check_budget(iterations, seconds, depth, exploration)
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
        if view.belief.lost:  # brought up to date before the clock starts
            return rollout_choice(decision, view.rng)  # no state to search: play as rollouts
        barred = idle_here(view)  # anytime actions taken here already, back with nothing new
        root = self._search(view, barred)
        answer = _most_visited(view, decision, root.stats.get(view.role, {}), barred)
        return remember(view, decision, answer)

    def _search(self, view: View, barred: set[str]) -> _Node:
        rng = random.Random(view.rng.getrandbits(64))
        evaluate = self.evaluate or pack_evaluation(view.game)
        root = _Node()
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        while not self._spent(done, deadline):
            state = view.determinize(rng)
            state["quiet"] = True  # a search builds no log lines
            # A pack's fault on a line the real game may never take counts for nothing.
            with contextlib.suppress(GameRuntimeError):
                self._iterate(view.game, state, root, rng, evaluate, (view.role, barred))
            done += 1
        self.last_iterations = done
        return root

    def _spent(self, done: int, deadline: float | None) -> bool:
        if self.iterations is not None and done >= self.iterations:
            return True
        return deadline is not None and done > 0 and time.perf_counter() >= deadline

    def _iterate(self, game: Game, state: State, root: _Node, rng: random.Random,
                 evaluate: Evaluation, barred_at_root: tuple[str, set[str]]) -> None:
        """One iteration: down the tree, a rollout, and the rewards back up."""
        path = self._descend(game, state, root, rng, barred_at_root)
        if state["result"] is None and self.depth > 0:
            rollout(game, state, rng, self.depth)
        rewards = {role: evaluate(game, state, role) for role in game.roles}
        _back_up(path, rewards)

    def _descend(self, game: Game, state: State, root: _Node, rng: random.Random,
                 barred_at_root: tuple[str, set[str]]) -> Path:
        """Walk down from ``root``, playing ``state``, until a node is added."""
        path: Path = []
        node = root
        detours = Detours()  # no going round an anytime action's loop inside the tree
        while state["result"] is None:
            decisions = game.pending(state)
            if not decisions:
                break
            at_root = barred_at_root if node is root else None
            joint = self._select_all(node, decisions, state, rng, detours, at_root)
            path.append((node, joint))
            game.apply(state, dict(joint), in_place=True)
            child = node.children.get(joint)
            if child is None:
                node.children[joint] = _Node()
                break
            node = child
        return path

    def _select_all(self, node: _Node, decisions: list[Decision], state: State,
                    rng: random.Random, detours: Detours, at_root: tuple[str, set[str]] | None
                    ) -> Joint:
        answers = []
        for d in decisions:
            barred = detours.barred(state, d)
            if at_root is not None and d.player == at_root[0]:
                barred = barred | at_root[1]
            answer = self._select(node, d, rng, barred)
            detours.took(state, d, answer)
            answers.append((d.player, answer))
        return tuple(answers)

    def _select(self, node: _Node, decision: Decision, rng: random.Random,
                barred: set[str]) -> str:
        """UCB over the options available here, untried ones first, in random order."""
        stats = node.stats.setdefault(decision.player, {})
        options = _candidates(decision, stats, rng, node.memo_of(decision.player))
        if barred:
            options = [o for o in options if o not in barred] or options
        untried = _mark_available(stats, options)
        if untried:
            return rng.choice(untried)
        return _best_ucb(stats, options, self.exploration)

    def __repr__(self) -> str:
        budget = f"seconds={self.seconds}" if self.seconds is not None else \
            f"iterations={self.iterations}"
        return f"FirstIsmcts({budget}, depth={self.depth})"


def _back_up(path: Path, rewards: dict[str, float]) -> None:
    for node, joint in path:
        for player, option_id in joint:
            entry = node.stats[player][option_id]
            entry[0] += 1
            entry[1] += rewards[player]


def _check_budget(iterations: int | None, seconds: float | None, depth: int,
                  exploration: float) -> None:
    """Refuse a budget that is not a number, or is out of its bounds."""
    if iterations is not None and not 1 <= iterations <= MAX_ITERATIONS:
        raise ValueError(f"iterations must be from 1 to {MAX_ITERATIONS:,}")
    if seconds is not None and not 0 < seconds <= MAX_SECONDS:  # (false for nan)
        raise ValueError(f"seconds must be more than 0 and at most {MAX_SECONDS:,.0f}")
    if not 0 <= depth <= MAX_DEPTH:
        raise ValueError(f"depth must be from 0 to {MAX_DEPTH:,}")
    if not 0 <= exploration <= MAX_EXPLORATION:
        raise ValueError(f"exploration must be from 0 to {MAX_EXPLORATION:,.0f}")


def _most_visited(view: View, decision: Decision, stats: Stats, barred: set[str]) -> Option:
    """The root's most visited option, unless it is idle."""
    tried = _tried(decision, stats, barred)
    if not tried:
        return view.rng.choice(own_options(decision, barred)) if barred else \
            decision.sample(view.rng)
    best = max(tried, key=lambda o: (stats[o.id][0], stats[o.id][1]))
    return unless_idle(best, tried, decision, lambda o: stats[o.id][1] / stats[o.id][0])


def _tried(decision: Decision, stats: Stats, barred: set[str]) -> list[Option]:
    tried = []
    for option_id, entry in stats.items():
        if entry[0] > 0 and option_id not in barred:
            option = decision.legal_option(option_id)
            if option is not None:
                tried.append(option)
    return tried


def _mark_available(stats: Stats, options: list[str]) -> list[str]:
    """Count ``options`` as available once more; return those never tried."""
    untried = []
    for option_id in options:
        entry = stats.get(option_id)
        if entry is None:
            entry = stats[option_id] = [0.0, 0.0, 0.0]
        entry[2] += 1
        if entry[0] == 0:
            untried.append(option_id)
    return untried


def _best_ucb(stats: Stats, options: list[str], c: float) -> str:
    """The option of the highest UCB value, the first of them on a tie."""
    best_id, best_value = options[0], -math.inf
    for option_id in options:
        visits, total, available = stats[option_id]
        value = total / visits + c * math.sqrt(math.log(available) / visits)
        if value > best_value:
            best_id, best_value = option_id, value
    return best_id


@functools.lru_cache(maxsize=1 << 16)
def _items_of(option_id: str) -> frozenset[str]:
    """The ids of the items a subset's option id names."""
    if option_id in (NONE_ID, "") or option_id[:1] == "!":
        return frozenset()
    return frozenset(option_id.split("+"))


def _candidates(decision: Decision, stats: Stats, rng: random.Random, memo: _Memo
                ) -> list[str]:
    """The ids of the options a node weighs: all of them, or :data:`WIDTH` at most."""
    shape = _shape(decision)
    if memo.shape != shape:
        memo.reset(shape)
    if decision.kind == "one" or len(decision.items) <= 4:
        return _all_ids(decision, memo)
    if len(memo.legal) < WIDTH:
        _scan(decision, stats, memo)
    found = dict(memo.legal[:WIDTH])  # id tried -> the option's id
    if len(found) < WIDTH:
        _add_largest_and_random(found, decision, rng)
    return list(found.values())


def _all_ids(decision: Decision, memo: _Memo) -> list[str]:
    if memo.ids is None:
        memo.ids = [option.id for option in decision.options()]
    return list(memo.ids)


def _scan(decision: Decision, stats: Stats, memo: _Memo) -> None:
    """Note the ids tried since the last visit that are legal now."""
    offered = decision.offered
    new_ids = itertools.islice(stats, memo.scanned, None)
    all_offered = map(offered.__ge__, map(_items_of, itertools.islice(stats, memo.scanned, None)))
    for option_id in itertools.compress(new_ids, all_offered):
        option = decision.legal_option(option_id)
        if option is not None:  # (its id names the items in the order offered here)
            memo.legal.append((option_id, option.id))
            if len(memo.legal) >= WIDTH:
                break
    memo.scanned = len(stats)


def _add_largest_and_random(found: dict[str, str], decision: Decision, rng: random.Random
                            ) -> None:
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


def _shape(decision: Decision) -> tuple[object, ...]:
    """What makes an option id legal at ``decision``: its items, kind and rules."""
    spec = decision.spec
    return (decision.kind, tuple(decision.ids), spec.get("optional", False), decision.min,
            decision.max, tuple((limit, tuple(flags)) for limit, flags in spec.get("at_most", ())),
            tuple(extra.id for extra in decision.extras))


__all__ = ["FirstIsmcts"]
