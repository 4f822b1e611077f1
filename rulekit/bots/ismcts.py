"""The ``ismcts`` agent: single-observer information-set Monte Carlo tree search."""

from __future__ import annotations

import contextlib
import functools
import itertools
import math
import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from rulekit.bots.anytime import (
    MARGIN,
    Detours,
    idle_here,
    own_options,
    remember,
    unless_idle,
)
from rulekit.bots.belief.others import Expected
from rulekit.bots.evaluation import Evaluation, outcome, pack_evaluation
from rulekit.bots.information import telling
from rulekit.bots.rollout import largest_option, rollout, rollout_choice, subset_in_order
from rulekit.engine.decisions import NONE_ID, Decision, Option
from rulekit.engine.game import copy_state
from rulekit.engine.hidden import PUBLIC
from rulekit.errors import GameRuntimeError

if TYPE_CHECKING:
    from rulekit.bots.agent import View
    from rulekit.bots.belief import Belief
    from rulekit.engine.game import Game, State


ITERATIONS = 100  # the default budget per decision
DEPTH = 0  # the default number of rollout decisions before the evaluation scores the state
WIDTH = 16  # options considered at a node of a decision with many (subsets, say)
LARGEST = 3  # of which (about) this many are largest subsets
RANKS = 4  # states on which a node scores each item alone (its 2nd to 5th visits)
MAX_ITERATIONS = 1_000_000  # the largest budgets a seat may name
MAX_SECONDS = 3600.0
MAX_DEPTH = 10_000
MAX_EXPLORATION = 100.0
FLOOR = 0.1  # a mixed answer leaves out the options of fewer visits than this share
STEADY = 16  # states drawn to tell apart the answers to a choice of cards found as good
STEADY_SHARE = 8  # ... at most one answer played on a state per this many iterations run
ANY_LARGEST = "*largest"  # an answer to a choice of cards drawn anew: as many as allowed
ANY_SUBSET = "*any"  # the same: a subset drawn at random
JUDGED = 8  # states on which the others' answers are matched with what followed

LEVELS: dict[str, dict[str, float]] = {
    "easy": {"iterations": 100},
    "normal": {"seconds": 1.0, "public": 0.5},
    "hard": {"seconds": 3.0, "public": 0.5},
}
"""The players' levels: a budget per decision, which any budget a seat names replaces."""
BUDGETS = {"iterations", "seconds"}

Stats = dict[str, list[float]]  # per option id: [visits, total reward, times available]
Joint = tuple[tuple[str, str], ...]  # each deciding player's answer, in order
Learnt = list[tuple[Stats, str, str]]  # statistics an iteration learns on: player, answer


class _Memo:
    """What a node's last visit found of one player's decision."""

    __slots__ = ("ids", "legal", "ranked", "scanned", "scores", "shape", "visits")

    def __init__(self) -> None:
        self.shape: tuple[object, ...] | None = None  # the decision's :func:`_shape`
        self.ids: list[str] | None = None  # every option's id, for a decision of few options
        self.legal: list[tuple[str, str]] = []  # (id tried at the node, the option's id here)
        self.scanned = 0  # how many of the node's ids tried were looked at
        self.ranked: list[str] | None = None  # the subsets of the items best one by one
        self.scores: list[float] = []  # each item's scores alone, added up over states
        self.visits = 0  # visits with this shape

    def reset(self, shape: tuple[object, ...]) -> None:
        self.shape, self.ids, self.legal, self.scanned = shape, None, [], 0
        self.ranked, self.scores, self.visits = None, [], 0


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


class _Opponents:
    """The other players' statistics, kept by what every player sees rather than by node.

    They learn only on states drawn from the public belief, so the searcher's secrets never
    show in them: a move that tells where the searcher is costs what it would at the table.
    """

    __slots__ = ("belief", "from_public", "piles", "searcher", "table", "values")

    def __init__(self, game: Game, searcher: str, belief: Belief) -> None:
        layout = game.layout
        self.searcher = searcher
        self.belief = belief  # the public belief the opponents' iterations draw from
        self.values = [value.key for value in layout.values if value.seen_by(PUBLIC)]
        self.piles = [(pile.key, pile.seen_by(PUBLIC)) for pile in layout.piles]
        self.table: dict[str, Stats] = {}
        self.from_public = False  # whether this iteration's state is drawn from it

    def learns(self, player: str) -> bool:
        """Whether ``player``'s statistics learn from this iteration."""
        return (player != self.searcher) == self.from_public

    def stats(self, decision: Decision, state: State) -> Stats:
        """The statistics of ``decision``, an opponent's, on what every player sees."""
        values, zones = state["vars"], state["zones"]
        key = repr((decision.player, decision.prompt, state["round"], state["phase"],
                    [values[k] for k in self.values],
                    [zones[k] if seen else len(zones[k]) for k, seen in self.piles]))
        return self.table.setdefault(key, {})


class IsmctsAgent:
    """Information-set MCTS over states drawn from the seat's belief."""

    def __init__(self, iterations: int | None = None, seconds: float | None = None,
                 depth: int = DEPTH, exploration: float = 0.7, public: float = 0.0,
                 evaluate: Evaluation | None = None) -> None:
        if iterations is None and seconds is None:
            iterations = ITERATIONS
        _check_budget(iterations, seconds, depth, exploration, public)
        self.iterations = iterations
        self.seconds = seconds
        self.depth = depth
        self.exploration = exploration
        self.public = public  # the share of iterations drawn from what every player knows
        self.evaluate = evaluate
        self.last_iterations = 0  # how many the last decision ran (for benchmarks)
        self._evaluation: Evaluation = evaluate or outcome  # the search's, once it starts
        self._at_random = 0.0  # the share of iterations where the others answer at random
        self._at_random_but: str | None = None  # on this iteration, all but this player do

    def choose(self, view: View, decision: Decision) -> Option:
        self.last_iterations = 0
        options = decision.options()
        if len(options) == 1:
            return options[0]
        # The clock runs from here: the belief's update counts in the time spent.
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        if view.belief.lost:
            return rollout_choice(decision, view.rng)  # no state to search: play as rollouts
        others = view.kept.others
        others.judge(view.game, view.observation)
        self._at_random = others.at_random()
        barred = idle_here(view)  # anytime actions taken here already, back with nothing new
        evaluate = self.evaluate or pack_evaluation(view.game)
        told = telling(view, decision, barred, evaluate)
        if told is not None:
            return remember(view, decision, told)
        root, rng = self._search(view, barred, deadline, evaluate)
        stats = root.stats.get(view.role, {})
        if len(view.observation["waiting_for"]) > 1:  # players commit at once: a mix
            answer = _mixed(view, decision, stats, barred)
            others.expect(_expected(view, root, rng, answer))
            return answer
        if decision.kind == "subset":
            return remember(view, decision, self._steadiest(view, decision, stats, barred))
        return remember(view, decision, _most_visited(view, decision, stats, barred))

    def _steadiest(self, view: View, decision: Decision, stats: Stats, barred: set[str]
                   ) -> Option:
        """Of the answers to a choice of cards found as good, the best one step ahead.

        Each is played on the same drawn states, so that the noise of the unseen cards dealt
        anew at each draw does not hide what a card is worth.
        """
        best, kept = _as_good(view, decision, stats, barred)
        if len(kept) < 2:
            return best
        game, role = view.game, view.role
        rng = random.Random(view.rng.getrandbits(64))
        scores = [0.0] * len(kept)
        for _ in range(max(1, min(STEADY, self.last_iterations // (STEADY_SHARE * len(kept))))):
            state = view.determinize(rng)
            state["quiet"] = True
            others = {d.player: d.sample(rng).id for d in game.pending(state)
                      if d.player != role}
            for i, option in enumerate(kept):
                trial = copy_state(state)
                with contextlib.suppress(GameRuntimeError):
                    game.apply(trial, {**others, role: option.id}, in_place=True)
                    scores[i] += self._evaluation(game, trial, role)
        return kept[max(range(len(kept)), key=lambda i: (scores[i], stats[kept[i].id][0]))]

    def _search(self, view: View, barred: set[str], deadline: float | None,
                evaluate: Evaluation) -> tuple[_Node, random.Random]:
        """The root of a search's tree, and the search's generator."""
        rng = random.Random(view.rng.getrandbits(64))
        self._evaluation = evaluate
        root = _Node()
        opponents = self._opponents(view)
        done = 0
        while not self._spent(done, deadline):
            if opponents is not None:
                opponents.from_public = int((done + 1) * self.public) > int(done * self.public)
            state = opponents.belief.sample(rng) if opponents and opponents.from_public \
                else view.determinize(rng)
            state["quiet"] = True  # a search builds no log lines
            at_random = self._at_random > 0 and rng.random() < self._at_random
            self._at_random_but = view.role if at_random else None
            # A pack's fault on a line the real game may never take counts for nothing.
            with contextlib.suppress(GameRuntimeError):
                self._iterate(view.game, state, root, rng, evaluate, (view.role, barred),
                              opponents)
            done += 1
        self.last_iterations = done
        return root, rng

    def _opponents(self, view: View) -> _Opponents | None:
        """The opponents' statistics apart, if the seat keeps a secret value and can draw from
        what every player knows."""
        if not self.public or not _keeps_secret_values(view.game, view.role):
            return None
        belief = view.kept.public_at(view)
        return None if belief.lost else _Opponents(view.game, view.role, belief)

    def _spent(self, done: int, deadline: float | None) -> bool:
        if self.iterations is not None and done >= self.iterations:
            return True
        return deadline is not None and done > 0 and time.perf_counter() >= deadline

    def _iterate(self, game: Game, state: State, root: _Node, rng: random.Random,
                 evaluate: Evaluation, barred_at_root: tuple[str, set[str]],
                 opponents: _Opponents | None) -> None:
        """One iteration: down the tree, a rollout, and the rewards back up."""
        learnt: Learnt = []
        self._descend(game, state, root, rng, barred_at_root, opponents, learnt)
        if state["result"] is None and self.depth > 0:
            rollout(game, state, rng, self.depth)
        rewards = {role: evaluate(game, state, role) for role in game.roles}
        for stats, player, answer in learnt:
            entry = stats[answer]
            entry[0] += 1
            entry[1] += rewards[player]

    def _descend(self, game: Game, state: State, root: _Node, rng: random.Random,
                 barred_at_root: tuple[str, set[str]], opponents: _Opponents | None,
                 learnt: Learnt) -> None:
        """Walk down from ``root``, playing ``state``, until a node is added."""
        node = root
        detours = Detours()  # no going round an anytime action's loop inside the tree
        while state["result"] is None:
            decisions = game.pending(state)
            if not decisions:
                break
            at_root = barred_at_root if node is root else None
            joint, actions = self._select_all(game, node, decisions, state, rng, detours,
                                              at_root, opponents, learnt)
            game.apply(state, actions, in_place=True)
            child = node.children.get(joint)
            if child is None:
                node.children[joint] = _Node()
                break
            node = child

    def _select_all(self, game: Game, node: _Node, decisions: list[Decision], state: State,
                    rng: random.Random, detours: Detours, at_root: tuple[str, set[str]] | None,
                    opponents: _Opponents | None, learnt: Learnt
                    ) -> tuple[Joint, dict[str, str]]:
        """Each player's answer by UCB over its own statistics (decoupled where several
        commit at once: none sees the others' answers), and the option ids they name."""
        answers = []
        actions = {}
        for d in decisions:
            barred = detours.barred(state, d)
            if at_root is not None and d.player == at_root[0]:
                barred = barred | at_root[1]
            stats = node.stats.setdefault(d.player, {}) if opponents is None \
                or d.player == opponents.searcher else opponents.stats(d, state)
            if at_root is not None:
                node.stats[d.player] = stats  # (the root keeps every player's, for Others)
            if self._at_random_but not in (None, d.player):
                answer = d.sample(rng).id  # this iteration's others answer at random
            elif opponents is None or opponents.learns(d.player):
                answer = self._explored(game, node, decisions, d, state, stats, barred, rng)
                learnt.append((stats, d.player, answer))
            else:  # (its node's memo is left as its learning visits found it)
                answer = _best_known(d, stats, barred, rng)
            option_id = _labelled(d, answer, rng)
            detours.took(state, d, option_id)
            answers.append((d.player, answer))
            actions[d.player] = option_id
        return tuple(answers), actions

    def _explored(self, game: Game, node: _Node, decisions: list[Decision], d: Decision,
                  state: State, stats: Stats, barred: set[str], rng: random.Random) -> str:
        """An untried option of those the node weighs, or the best by UCB; each counted as
        available once more."""
        memo = node.memo_of(d.player)
        if _drawn_anew(d, memo):
            options = _labels(d)
        else:
            options = _candidates(d, stats, rng, memo, functools.partial(
                self._ranked, game, state, decisions, d, rng, memo.scores))
        if barred:
            options = [o for o in options if o not in barred] or options
        untried = _mark_available(stats, options)
        return rng.choice(untried) if untried else \
            _best_ucb(stats, options, self.exploration, rng)

    def _ranked(self, game: Game, state: State, decisions: list[Decision], decision: Decision,
                rng: random.Random, scores: list[float]) -> list[str]:
        """The ids of subsets of each size of the items that score best alone.

        ``scores`` adds up each item's scores over the states of the calls, so that the noise
        of one drawn state weighs less at each call.
        """
        n = len(decision.items)
        if decision.min > 1 or decision.max < 1:
            return []
        if not scores:
            scores.extend([0.0] * n)
        for i in range(n):
            if subset_in_order(decision, [i], 1) != [i]:
                continue
            answers = {d.player: d.sample(rng).id for d in decisions if d is not decision}
            answers[decision.player] = decision.subset_option([i]).id
            trial = copy_state(state)
            with contextlib.suppress(GameRuntimeError):
                game.apply(trial, answers, in_place=True)
                scores[i] += self._evaluation(game, trial, decision.player)
        order = sorted(range(n), key=lambda i: -scores[i])
        ranked = (subset_in_order(decision, order, size)
                  for size in range(decision.min, decision.max + 1))
        return list(dict.fromkeys(decision.subset_option(chosen).id for chosen in ranked
                                  if len(chosen) >= decision.min))

    def __repr__(self) -> str:
        budget = f"seconds={self.seconds}" if self.seconds is not None else \
            f"iterations={self.iterations}"
        return f"IsmctsAgent({budget}, depth={self.depth})"


def level(name: str) -> Callable[..., IsmctsAgent]:
    """What makes the ``ismcts`` agent of level ``name`` (:data:`LEVELS`)."""
    preset = LEVELS[name]

    def make(**params: float) -> IsmctsAgent:
        own = preset
        if BUDGETS & params.keys():  # a budget named replaces the level's
            own = {key: value for key, value in preset.items() if key not in BUDGETS}
        return IsmctsAgent(**{**own, **params})  # type: ignore[arg-type]
    return make


def _check_budget(iterations: int | None, seconds: float | None, depth: int,
                  exploration: float, public: float) -> None:
    """Refuse a budget that is not a number, or is out of its bounds."""
    if iterations is not None and not 1 <= iterations <= MAX_ITERATIONS:
        raise ValueError(f"iterations must be from 1 to {MAX_ITERATIONS:,}")
    if seconds is not None and not 0 < seconds <= MAX_SECONDS:  # (false for nan)
        raise ValueError(f"seconds must be more than 0 and at most {MAX_SECONDS:,.0f}")
    if not 0 <= depth <= MAX_DEPTH:
        raise ValueError(f"depth must be from 0 to {MAX_DEPTH:,}")
    if not 0 <= exploration <= MAX_EXPLORATION:
        raise ValueError(f"exploration must be from 0 to {MAX_EXPLORATION:,.0f}")
    if not 0 <= public <= 1:
        raise ValueError("public must be from 0 to 1")


def _expected(view: View, root: _Node, rng: random.Random, answer: Option
              ) -> Expected | None:
    """What the search expects of the others at a choice made at once, for :class:`Others`;
    None unless one of them chooses one option (a choice of cards is weighed by kind)."""
    states = [view.determinize(rng)]
    if not any(d.kind == "one" for d in view.game.pending(states[0]) if d.player != view.role):
        return None
    visits = {player: {option_id: entry[0] for option_id, entry in stats.items()}
              for player, stats in root.stats.items() if player != view.role}
    states += [view.determinize(rng) for _ in range(JUDGED - 1)]
    return Expected(states, view.role, answer.id, len(view.observation["log"]), visits)


def _most_visited(view: View, decision: Decision, stats: Stats, barred: set[str]) -> Option:
    """The root's most visited option, unless it is idle."""
    tried = _tried(decision, stats, barred)
    if not tried:
        return view.rng.choice(own_options(decision, barred)) if barred else \
            decision.sample(view.rng)
    best = max(tried, key=lambda o: (stats[o.id][0], stats[o.id][1]))
    return unless_idle(best, tried, decision, lambda o: stats[o.id][1] / stats[o.id][0])


def _mixed(view: View, decision: Decision, stats: Stats, barred: set[str]) -> Option:
    """An option drawn by visits among those as good as the most visited.

    Where players commit at once, a best answer that never varies can be read and countered.
    """
    best, kept = _as_good(view, decision, stats, barred)
    if not kept:
        return remember(view, decision, best)
    if decision.kind == "subset":
        kept = _fullest(kept)
    return view.rng.choices(kept, [stats[o.id][0] for o in kept])[0]


def _as_good(view: View, decision: Decision, stats: Stats, barred: set[str]
             ) -> tuple[Option, list[Option]]:
    """The most visited option, and those worth as much within :data:`MARGIN` and visited
    at least :data:`FLOOR` as often (none if the best is untried or an anytime action)."""
    best = _most_visited(view, decision, stats, barred)
    if best.id not in stats or any(o.id == best.id for o in decision.extras):
        return best, []
    visits, total = stats[best.id][:2]
    extras = {o.id for o in decision.extras}  # (taken only if better by the margin)
    return best, [o for o in _tried(decision, stats, barred | extras)
                  if stats[o.id][0] >= FLOOR * visits
                  and stats[o.id][1] / stats[o.id][0] >= total / visits - MARGIN]


def _fullest(options: list[Option]) -> list[Option]:
    """The subsets of ``options`` that no other one of them holds.

    A search can seldom tell a set of cards from the same set with a card held back.
    """
    items = [_items_of(o.id) for o in options]
    return [o for o, mine in zip(options, items, strict=True)
            if not any(mine < other for other in items)]


def _keeps_secret_values(game: Game, role: str) -> bool:
    """Whether ``role`` sees a variable that not every player sees."""
    return any(value.seen_by(role) and not value.seen_by(PUBLIC) for value in game.layout.values)


def _tried(decision: Decision, stats: Stats, barred: set[str]) -> list[Option]:
    tried = []
    for option_id, entry in stats.items():
        if entry[0] > 0 and option_id not in barred:
            option = decision.legal_option(option_id)
            if option is not None:
                tried.append(option)
    return tried


def _best_known(decision: Decision, stats: Stats, barred: set[str], rng: random.Random
                ) -> str:
    """The answer of the best mean reward that is legal here, or an option at random."""
    ranked = sorted(((entry[1] / entry[0], answer) for answer, entry in stats.items()
                     if entry[0] > 0 and answer not in barred), reverse=True)
    for _, answer in ranked:
        if answer in (ANY_LARGEST, ANY_SUBSET) or decision.legal_option(answer) is not None:
            return answer
    return decision.sample(rng).id


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


def _best_ucb(stats: Stats, options: list[str], c: float, rng: random.Random) -> str:
    """The option of the highest UCB value, one of them at random on a tie (else players
    that commit at once, with equal statistics, would pick in step)."""
    best_id, best_value, ties = options[0], -math.inf, 0
    for option_id in options:
        visits, total, available = stats[option_id]
        value = total / visits + c * math.sqrt(math.log(available) / visits)
        if value > best_value:
            best_id, best_value, ties = option_id, value, 1
        elif value == best_value:
            ties += 1
            if rng.random() * ties < 1:
                best_id = option_id
    return best_id


@functools.lru_cache(maxsize=1 << 16)
def _items_of(option_id: str) -> frozenset[str]:
    """The ids of the items a subset's option id names."""
    if option_id in (NONE_ID, "") or option_id[:1] == "!":
        return frozenset()
    return frozenset(option_id.split("+"))


def _candidates(decision: Decision, stats: Stats, rng: random.Random, memo: _Memo,
                rank: Callable[[], list[str]]) -> list[str]:
    """The ids of the options a node weighs: all of them, or :data:`WIDTH` at most, those of
    the ranked items first (ranked again at each of :data:`RANKS` visits)."""
    shape = _shape(decision)
    if memo.shape != shape:
        memo.reset(shape)
    if decision.kind == "one" or len(decision.items) <= 4:
        return _all_ids(decision, memo)
    memo.visits += 1
    if 1 < memo.visits <= 1 + RANKS:
        memo.ranked = rank()
    if len(memo.legal) < WIDTH:
        _scan(decision, stats, memo)
    found = {option_id: option_id for option_id in memo.ranked or ()}
    for tried, option_id in memo.legal[:WIDTH]:  # id tried -> the option's id
        found.setdefault(tried, option_id)
    if len(found) < WIDTH:
        _add_largest_and_random(found, decision, rng)
    return list(found.values())


def _drawn_anew(decision: Decision, memo: _Memo) -> bool:
    """Whether a choice of cards offers other cards than at the node's last visit.

    Unseen cards are drawn anew at each iteration, so such a choice's subsets seldom recur
    and their statistics never add up. It is weighed by kind instead (:func:`_labels`).
    """
    if decision.kind != "subset" or len(decision.items) < 2:
        return False
    shape = _shape(decision)
    if memo.shape is None or memo.shape == shape:
        return False
    memo.reset(shape)
    return True


def _labels(decision: Decision) -> list[str]:
    labels = [ANY_LARGEST, ANY_SUBSET]
    return [NONE_ID, *labels] if decision.min == 0 else labels


def _labelled(decision: Decision, answer: str, rng: random.Random) -> str:
    """The option id ``answer`` stands for: itself, or one of the kind a label names."""
    if answer == ANY_LARGEST:
        option = largest_option(decision, rng)
        return decision.sample(rng).id if option is None else option.id
    if answer == ANY_SUBSET:
        return decision.sample(rng).id
    return answer


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


__all__ = ["LEVELS", "IsmctsAgent", "level"]
