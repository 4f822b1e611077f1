"""Replaying the rules along an observer's log: the states that show it what it saw."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import TYPE_CHECKING

from rulekit.bots.belief.compare import Key, hashable, plain, same_view, state_key
from rulekit.bots.belief.deal import (
    Mixed,
    ask_again,
    common,
    deal_to_match,
    project_cards,
    swappable,
)
from rulekit.bots.belief.logs import (
    AHEAD,
    ASTRAY,
    OTHER,
    SAME,
    Matched,
    difference,
    leaves,
    names,
    next_answer,
    strings_in,
)
from rulekit.bots.belief.mixing import carried
from rulekit.bots.belief.particles import Branch, Caps, Following, Particle
from rulekit.bots.belief.repairs import Repairs
from rulekit.engine.game import copy_state
from rulekit.engine.observe import Observation
from rulekit.errors import IllegalActionError

if TYPE_CHECKING:
    from rulekit.engine.decisions import Decision, Option
    from rulekit.engine.game import State
    from rulekit.engine.state import Event

_NO_TRAIL: frozenset[Key] = frozenset()
SUBSET_ENUMERATED = 6  # a subset choice of more items has its answers drawn, not listed
MAX_STEPS = 10_000  # steps of the rules one update follows at most


class Replay(Repairs):
    """One observer's replay of the rules; ``budget`` and ``tries`` bound its work."""

    caps: Caps
    particles: list[Particle]
    budget: int
    tries: int
    _spent: int  # apply calls made in this update
    _loose: bool  # events that match R's only in kind are kept (a second pass)
    _trail: frozenset[Key]  # the branch being followed, and those it came from
    _at: int  # where in R's log that branch stands
    asked: tuple[str, str] | None  # (player, question) where R's update ends, if R is never asked

    def _advance(self, target: list[Event], observation: Observation) -> list[Particle]:
        """The particles followed along ``target``, the new part of R's log."""
        self._target, self._spent, self._pinned = target, 0, {}
        finals: list[Particle] = []
        frontier = [Branch(p.state, p.weight, p.exact, 0, state_key(p.state), mixed=p.mixed)
                    for p in self.particles]
        cap = self.caps.max_frontier
        for _ in range(MAX_STEPS):
            if not frontier:
                break
            following = self._follow_all(frontier, observation, finals)
            cap = self._frontier_cap(cap)
            if self._spent > 16 * self.budget:
                break
            frontier = self.caps.cap(_fresh(following), cap, self.rng)
        return finals

    def _follow_all(self, frontier: list[Branch], observation: Observation,
                    finals: list[Particle]) -> Following:
        following: Following = {}
        for branch in frontier:
            self._trail, self._at = branch.trail | {branch.key}, branch.pos
            self._follow(branch, observation, finals, following)
        return following

    def _frontier_cap(self, cap: int) -> int:
        """The branches to follow at once, fewer past the budget."""
        if self._spent > 4 * self.budget:
            return 1  # one state of each stratum only
        if self._spent > self.budget:
            return max(self.caps.max_particles // 2, cap // 2)
        return cap

    def _follow(self, branch: Branch, observation: Observation, finals: list[Particle],
                following: Following) -> None:
        """Follow ``branch`` one step, or make it final."""
        if self._ends_here(branch, observation) and self._finish(branch, observation, finals):
            return  # (else others may still act unseen: an observer never asked, say)
        state = branch.state
        if state["result"] is not None:
            return  # the game ended before R's log did
        if state["pending"]:
            self._decide(branch, observation, finals, following)
        else:
            self._step(branch, None, following)  # the rules run on

    def _ends_here(self, branch: Branch, observation: Observation) -> bool:
        """Whether R may be at ``branch`` now. The game must be over, or R waiting."""
        state = branch.state
        if branch.pos != len(self._target):
            return False
        if state["result"] is not None:
            return True
        if observation["decisions"] or any(spec["player"] == self.role
                                           for spec in state["pending"]):
            return False
        committed = state["committed"]  # (others act unseen until the same players wait)
        waiting = [spec for spec in state["pending"] if spec["player"] not in committed]
        return [spec["player"] for spec in waiting] == observation["waiting_for"] and (
            self.asked is None
            or any((spec["player"], spec["prompt"]) == self.asked for spec in waiting))

    def _decide(self, branch: Branch, observation: Observation, finals: list[Particle],
                following: Following) -> None:
        decisions = self.game.pending(branch.state)
        if any(d.player == self.role for d in decisions) \
                and self._answered(branch, decisions, observation, finals, following):
            return
        other = next((d for d in decisions if d.player != self.role), None)
        if other is not None:
            self._branch(branch, other, following)

    def _answered(self, branch: Branch, decisions: list[Decision], observation: Observation,
                  finals: list[Particle], following: Following) -> bool:
        """Follow R's answer, or finish ``branch``. True if the others are not followed."""
        answer = next_answer(self._target, branch.pos, self.role)
        if answer is not None:
            self._step(branch, {self.role: answer}, following)
            return True
        if branch.pos != len(self._target):
            return False
        self._finish(branch, observation, finals)
        waiting = observation["waiting_for"]
        return all(d.player == self.role or d.player in waiting for d in decisions)

    def _step(self, branch: Branch, actions: dict[str, str] | None, following: Following
              ) -> None:
        """Play one transition, kept if its events continue R's log, repaired if need be."""
        branch, child = self._played(branch, actions)
        if child is None:
            return
        matched = self._match(child, len(branch.state["log"]), branch.pos)
        if matched is None:
            return
        pos, differ, pairs = matched
        if self._repaired(branch, actions, differ, pairs, following):
            return
        if differ < OTHER or (differ == OTHER and self._loose):
            self._keep(Branch(child, branch.weight, branch.exact and differ == SAME, pos,
                              mixed=self._carried(branch, actions, child)), following)

    def _played(self, branch: Branch, actions: dict[str, str] | None
                ) -> tuple[Branch, State | None]:
        """The branch played from, and the state after ``actions``."""
        mine = None if actions is None else actions.get(self.role)
        if mine is not None and "+" in mine:
            branch = branch.at(self._in_answer_order(branch.state, mine))
        child = self._play(branch.state, actions)
        if child is not None or mine is None:
            return branch, child
        moved = self._own_cards(branch.state, mine, branch.pos)
        if moved is None:
            return branch, None
        return branch.at(moved), self._play(moved, actions)

    def _repaired(self, branch: Branch, actions: dict[str, str] | None, differ: int,
                  pairs: list[tuple[str, str]], following: Following) -> bool:
        if differ == SAME or not pairs:
            return False
        if actions is not None and self._reordered(branch, actions, pairs, following):
            return True
        mapping = swappable(self.game, branch.state, self.role, pairs)
        return bool(mapping) and self._renamed(branch, actions, mapping,
                                               {card for _, card in pairs}, following)

    def _branch(self, branch: Branch, decision: Decision, following: Following,
                rescue: bool = True, front: bool = False) -> bool:
        """Follow the answers of ``decision``'s player, named ones first. True if one is kept."""
        player = decision.player
        options, named, total = self._candidates(decision, branch.pos)
        if rescue and self._gathered_first(branch, decision, named, front, following):
            return True
        unit = Branch(branch.state, 1.0, branch.exact, branch.pos, mixed=branch.mixed)
        mine: Following = {}
        limit = named if front else self.tries
        tried, done = self._try_named(unit, decision, itertools.islice(options, min(named, limit)),
                                      total, mine)
        if rescue and _all_failed(named, tried, mine) \
                and self._rescue(branch, player, following, first=True):
            return True  # no answer the log names continues it: their cards gathered first
        if not done:
            tried = self._try_more(unit, player, itertools.islice(options, limit - tried), tried,
                                   named, mine)
        if not front and tried < total:
            tried = self._cover(unit, player, itertools.islice(options, limit - tried), tried,
                                mine)
        self._share(mine, branch.weight, tried, following)
        if not mine and rescue:
            return self._rescue(branch, player, following)
        return bool(mine)

    def _gathered_first(self, branch: Branch, decision: Decision, named: int, front: bool,
                        following: Following) -> bool:
        """Gather the cards R's log names if ``decision`` offers none."""
        if named or front or not self._unoffered(branch.state, decision, branch.pos):
            return False
        return self._rescue(branch, decision.player, following, first=True)

    def _try_named(self, unit: Branch, decision: Decision, options: Iterator[Option],
                   total: int, mine: Following) -> tuple[int, bool]:
        """Try the answers R's log names: how many were tried, and whether that is enough."""
        tried = 0
        for option in options:
            tried += 1
            self._step(unit, {decision.player: option.id}, mine)
            if len(mine) == 1 and self._revealed(option, mine, unit.pos):
                for extra in decision.extras:
                    self._step(unit, {decision.player: extra.id}, mine)
                return total, True
            if len(mine) >= self.keep:
                return tried, True
        return tried, False

    def _try_more(self, unit: Branch, player: str, options: Iterator[Option], tried: int,
                  named: int, mine: Following) -> int:
        for option in options:
            tried += 1
            self._step(unit, {player: option.id}, mine)
            if len(mine) >= self.keep or (named and mine and tried >= named + self.keep):
                break
        return tried

    def _cover(self, unit: Branch, player: str, options: Iterator[Option], tried: int,
               mine: Following) -> int:
        """Try the other answers if those kept differ in a hidden value, keeping a branch for
        each new value, so that a cap on the answers drops no place a hidden piece may be."""
        held = {self._hidden(child): child for child in reversed(mine.values())}
        if len({key[1:] for key in held}) < 2:
            return tried  # the answers do not move a hidden value
        for option in options:
            tried += 1
            found: Following = {}
            self._step(unit, {player: option.id}, found)
            for key, child in found.items():
                hidden = self._hidden(child)
                same = held.get(hidden)
                if same is None:
                    held[hidden] = mine[key] = child
                else:
                    same.weight += child.weight
        return tried

    def _hidden(self, branch: Branch) -> tuple[object, ...]:
        """Where ``branch`` stands in R's log, and the values R cannot see."""
        values = branch.state["vars"]
        return (branch.pos, *(hashable(values[key]) for key in self.caps.hidden_vars))

    def _share(self, mine: Following, weight: float, tried: int, following: Following) -> None:
        for key, child in mine.items():
            self._add(key, Branch(child.state, weight * child.weight / tried, child.exact,
                                  child.pos, mixed=child.mixed), following)

    def _revealed(self, option: Option, mine: Following, pos: int) -> bool:
        """Whether the one branch of ``mine`` showed R every item of ``option``."""
        items: list[object] = []
        leaves(option.value, items)
        if not items:
            return False
        (only,) = mine.values()
        shown: list[str] = []
        for event in self._target[pos:only.pos]:
            strings_in(event.get("args"), shown)
        return all(item.__class__ is str and item in shown for item in items)

    def _named_soon(self, pos: int) -> list[str]:
        """The texts the next events of R's log name: cards, places..."""
        named: list[str] = []
        for event in self._target[pos:pos + AHEAD]:
            strings_in(event.get("args"), named)
        return named

    def _unoffered(self, state: State, decision: Decision, pos: int) -> bool:
        """Whether R's log soon names a card ``decision`` does not offer, of those whose place R
        does not know (a card dealt to R's own hand in a branch may be another's)."""
        offered: list[str] = []
        strings_in(decision.items, offered)
        free = self._free_cards(state, pos)
        return any(name in free and name not in offered for name in self._named_soon(pos))

    def _candidates(self, decision: Decision, pos: int) -> tuple[Iterator[Option], int, int]:
        """The answers to try, named ones first. Then how many are named, and in all."""
        named = self._named_soon(pos)
        if decision.kind == "subset" and len(decision.items) > SUBSET_ENUMERATED:
            return self._drawn_subsets(decision, named)
        options = list(decision.options())
        total = len(options)
        if total > self.keep:
            self.rng.shuffle(options)
        front, rest = _split_named(options, named)
        return iter(front + rest), len(front), total

    def _drawn_subsets(self, decision: Decision, named: list[str]
                       ) -> tuple[Iterator[Option], int, int]:
        picked = [i for i in decision.items if i.__class__ is str and i in named]
        chosen = decision.legal_option("+".join(picked)) if picked else None
        front = [] if chosen is None else [chosen]
        return self._drawn(decision, front), len(front), self.tries

    def _drawn(self, decision: Decision, front: list[Option]) -> Iterator[Option]:
        drawn = {o.id for o in front}
        yield from front
        for _ in range(2 * self.tries):
            if len(drawn) >= self.tries:
                return
            option = decision.sample(self.rng)
            if option.id not in drawn:
                drawn.add(option.id)
                yield option

    def _keep(self, child: Branch, following: Following) -> None:
        self._add((state_key(child.state), child.pos, child.exact), child, following)

    def _add(self, key: tuple[Key, int, bool], child: Branch, following: Following) -> None:
        trail = self._trail if child.pos == self._at else _NO_TRAIL
        entry = following.get(key)
        if entry is None:
            child.key, child.trail = key[0], trail
            following[key] = child
        else:
            entry.weight += child.weight
            entry.trail = entry.trail | trail
            entry.mixed = common(entry.mixed, child.mixed)

    def _carried(self, branch: Branch, actions: dict[str, str] | None, child: State) -> Mixed:
        """The kinds R cannot tell apart after the step from ``branch`` to ``child``."""
        return carried(self.game, self.role, branch.state, branch.mixed, actions, child,
                       self._play)

    def _play(self, state: State, actions: dict[str, str] | None, in_place: bool = False
              ) -> State | None:
        self._spent += 1
        if actions is None:
            return self.game.run(state if in_place else copy_state(state))
        try:
            return self.game.apply(state, actions, in_place=in_place)
        except IllegalActionError:
            return None

    def _match(self, child: State, start: int, pos: int) -> Matched | None:
        """How ``child``'s new events continue R's log from ``pos``. None if not."""
        differ = SAME
        pairs: list[tuple[str, str]] = []
        cards = self.game.symbols.cards
        for event in child["log"][start:]:
            if event["to"] not in (None, self.role):
                continue  # (R does not see it)
            found = None if pos >= len(self._target) else difference(
                event, self._target[pos], cards, pairs)
            if found is None:
                return Matched(pos, ASTRAY, pairs) if pairs else None
            differ = max(differ, found)
            pos += 1
        return Matched(pos, differ, pairs)

    def _finish(self, branch: Branch, observation: Observation, finals: list[Particle]
                ) -> bool:
        """Keep ``branch``'s state if it shows R ``observation``; whether it does."""
        state = copy_state(branch.state)
        state["log"] = []
        shown = self._cards_as_shown(state, observation)
        if shown is None:
            return False
        state, cards_exact = shown
        values_exact = self._values_as_shown(state, observation)
        if values_exact is None:
            return False
        state["rng"] = self.rng.getrandbits(64)
        finals.append(Particle(state, branch.weight,
                               branch.exact and cards_exact and values_exact, mixed=branch.mixed))
        return True

    def _cards_as_shown(self, state: State, observation: Observation
                        ) -> tuple[State, bool] | None:
        """``state`` with its cards as shown, and whether they were."""
        swaps = project_cards(state, observation)
        exact = swaps >= 0
        if not exact and not (self._loose and deal_to_match(state, observation)):
            return None
        if swaps:
            state = ask_again(self.game, state, self.rng)
        return state, exact

    def _values_as_shown(self, state: State, observation: Observation) -> bool | None:
        """True if ``state`` shows R ``observation``. False once made to agree."""
        if same_view(self.game.observe(state, self.role), observation):
            return True
        if not self._loose:
            return None
        for key, value in observation["vars"].items():
            state["vars"][key] = plain(value)
        return False if same_view(self.game.observe(state, self.role), observation) else None


def _fresh(following: Following) -> list[Branch]:
    """The branches of ``following`` but those met again on their own way."""
    return [branch for branch in following.values() if branch.key not in branch.trail]


def _split_named(options: list[Option], named: list[str]
                 ) -> tuple[list[Option], list[Option]]:
    """The options whose values ``named`` names, the largest first, and the others."""
    front = [o for o in options if names(o.value, named)]
    front.sort(key=lambda o: -len(o.value) if isinstance(o.value, list) else -1)
    return front, [o for o in options if not names(o.value, named)]


def _all_failed(named: int, tried: int, mine: Following) -> bool:
    return named > 0 and tried == named and not mine
