"""Repairs of a replayed branch whose cards are not those the observer saw."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from typing import TYPE_CHECKING

from rulekit.bots.belief.deal import (
    Mixed,
    ask_again,
    gather,
    hidden_cards,
    in_order,
    merged_kinds,
    outside,
    relabel,
    relabel_id,
    reordered,
    swappable,
)
from rulekit.bots.belief.logs import AHEAD, SAME, Matched, cards_in
from rulekit.bots.belief.particles import Branch, Following
from rulekit.engine.observe import Observation
from rulekit.errors import GameRuntimeError

if TYPE_CHECKING:
    from rulekit.engine.decisions import Decision, Option
    from rulekit.engine.game import Game, State
    from rulekit.engine.hidden import Kind
    from rulekit.engine.state import Event

Swap = dict[str, str]  # card -> the card it is exchanged with
MAX_RENAMES = 8  # further renamings of one step that shows several hidden cards


class Repairs:
    """The repairs of a replay for the observer ``role``. The replay defines its stubs."""

    game: Game
    role: str
    rng: random.Random
    keep: int
    seen: list[Event]  # R's log as far as the belief has followed it
    observation: Observation | None  # R's last observation followed
    _target: list[Event]  # the part of R's log this update follows
    _pinned: dict[int, set[str]]  # the cards R's log has named, per position in _target

    def _play(self, state: State, actions: dict[str, str] | None, in_place: bool = False
              ) -> State | None:
        raise NotImplementedError

    def _match(self, child: State, start: int, pos: int) -> Matched | None:
        raise NotImplementedError

    def _keep(self, child: Branch, following: Following) -> None:
        raise NotImplementedError

    def _carried(self, branch: Branch, actions: dict[str, str] | None, child: State) -> Mixed:
        raise NotImplementedError

    def _branch(self, branch: Branch, decision: Decision, following: Following,
                rescue: bool = True, front: bool = False) -> bool:
        raise NotImplementedError

    def _candidates(self, decision: Decision, pos: int) -> tuple[Iterator[Option], int, int]:
        raise NotImplementedError

    def _in_answer_order(self, state: State, answer: str) -> State:
        """``state`` with the cards of R's subset ``answer`` in the order R held them."""
        decision = self.game.decision_for(state, self.role)
        cards = answer.split("+")
        if decision is None or decision.kind != "subset" or not _out_of_order(decision, cards):
            return state
        moved = in_order(state, cards)
        return state if moved is None else ask_again(self.game, moved, self.rng)

    def _free_cards(self, state: State, pos: int) -> dict[str, Kind]:
        """The cards whose place R does not know, with their kind."""
        free = hidden_cards(self.game, state, self.role)
        pinned = self._pinned.get(pos)
        if pinned is None:
            pinned = self._pinned[pos] = self._named_before(pos)
        merged = merged_kinds(self.game, state, self.role)
        free.update({card: merged.get(kind, kind)
                     for card, kind in self.game.layout.card_kind.items()
                     if card not in pinned and card not in free})
        return free

    def _named_before(self, pos: int) -> set[str]:
        found: list[str] = []
        kinds = self.game.layout.card_kind
        for event in (*self.seen, *self._target[:pos]):
            cards_in(event.get("args"), kinds, found)
            cards_in(event.get("value"), kinds, found)
        if self.observation is not None:
            for view in self.observation["zones"].values():
                cards_in(view.get("cards"), kinds, found)
        return set(found)

    def _own_cards(self, state: State, answer: str, pos: int) -> State | None:
        mapping = self._swap_for_answer(state, answer, pos)
        if not mapping:
            return None
        moved = ask_again(self.game, relabel(state, mapping), self.rng)
        return self._in_answer_order(moved, answer) if "+" in answer else moved

    def _swap_for_answer(self, state: State, answer: str, pos: int) -> Swap:
        decision = self.game.decision_for(state, self.role)
        if decision is None:
            return {}
        named = [c for c in answer.split("+") if c not in decision.items]
        pool = self._free_cards(state, pos)
        if not named or any(c not in pool for c in named):
            return {}
        return gather(self.game, state, self.role, pool, named, [])

    def _reordered(self, branch: Branch, actions: dict[str, str],
                   pairs: list[tuple[str, str]], following: Following) -> bool:
        moved = reordered(self.game, branch.state, self.role, pairs)
        if moved is None:
            return False
        parent = ask_again(self.game, moved, self.rng)
        child = self._play(parent, actions)
        return self._kept_if_same(child, branch.at(parent), actions, len(branch.state["log"]),
                                  following)

    def _renamed(self, branch: Branch, actions: dict[str, str] | None, mapping: Swap,
                 shown: set[str], following: Following) -> bool:
        """Play the transition again with cards renamed to ``shown``, those R saw.

        True if R sees it.
        """
        parent = ask_again(self.game, relabel(branch.state, mapping), self.rng)
        start = len(branch.state["log"])
        tries = self._renamed_actions(parent, actions, mapping, branch.pos)
        found = False
        for moved in tries:
            child = self._play(parent, moved)
            if self._kept_if_same(child, branch.at(parent), moved, start, following) or (
                    moved is tries[0] and self._renamed_further(
                        branch.at(parent), moved, child, shown, following)):
                found = True
                if moved is tries[0]:
                    break
        return found

    def _renamed_further(self, branch: Branch, actions: dict[str, str] | None,
                         child: State | None, named: set[str], following: Following) -> bool:
        """Rename the next cards a step shows, where one step shows several.

        A renamed card may change what the step does next, so the step shows its next hidden
        card only once the first is renamed. ``named`` holds the cards R saw so far: they
        stay. True if R sees the step at last.
        """
        state, start = branch.state, len(branch.state["log"])
        for _ in range(MAX_RENAMES):
            matched = None if child is None else self._match(child, start, branch.pos)
            if matched is None or matched.differ == SAME or not matched.pairs:
                return False
            mapping = swappable(self.game, state, self.role, matched.pairs)
            if not mapping or named & mapping.keys():
                return False
            named = named | {card for _, card in matched.pairs}
            state = ask_again(self.game, relabel(state, mapping), self.rng)
            if actions is not None:
                actions = {r: relabel_id(a, mapping) for r, a in actions.items()}
            child = self._play(state, actions)
            if self._kept_if_same(child, branch.at(state), actions, start, following):
                return True
        return False

    def _renamed_actions(self, parent: State, actions: dict[str, str] | None, mapping: Swap,
                         pos: int) -> list[dict[str, str] | None]:
        """The actions to try from ``parent``: ``actions`` renamed, then another's others."""
        if actions is None:
            return [None]
        tries: list[dict[str, str] | None] = [
            {r: relabel_id(a, mapping) for r, a in actions.items()}]
        (player,) = actions
        decision = None if player == self.role else self.game.decision_for(parent, player)
        if decision is not None:
            options = self._candidates(decision, pos)[0]
            tries += [{player: o.id} for o in itertools.islice(options, self.keep * 4)]
        return tries

    def _kept_if_same(self, child: State | None, branch: Branch,
                      actions: dict[str, str] | None, start: int, following: Following
                      ) -> bool:
        """Keep ``child``, played from ``branch``, if its new events are exactly R's next ones."""
        again = None if child is None else self._match(child, start, branch.pos)
        if child is None or again is None or again.differ != SAME:
            return False
        self._keep(Branch(child, branch.weight, branch.exact, again.pos,
                          mixed=self._carried(branch, actions, child)), following)
        return True

    def _rescue(self, branch: Branch, player: str, following: Following, first: bool = False
                ) -> bool:
        """Gather the cards R's log soon names where ``player`` chooses, and try again."""
        state, pos = branch.state, branch.pos
        hidden = self._free_cards(state, pos)
        named: list[str] = []
        for event in self._target[pos:pos + AHEAD]:
            cards_in(event.get("args"), hidden, named)
        if not named:
            return False
        swaps = self._rescues(state, player, hidden, named, first)
        return any(self._swapped(branch, player, swap, following, first) for swap in swaps)

    def _swapped(self, branch: Branch, player: str, swap: Swap, following: Following,
                 front: bool) -> bool:
        try:
            parent = ask_again(self.game, relabel(branch.state, swap), self.rng)
        except GameRuntimeError:  # the cards swapped leave a choice with nothing to take
            return False
        decision = self.game.decision_for(parent, player)
        return decision is not None and self._branch(branch.at(parent), decision, following,
                                                     rescue=False, front=front)

    def _rescues(self, state: State, player: str, hidden: dict[str, Kind], named: list[str],
                 first: bool) -> list[Swap]:
        """The swaps :meth:`_rescue` tries: offered cards of a kind, gathered, then traded."""
        decision = self.game.decision_for(state, player)
        offered: list[str] = []
        if decision is not None:
            cards_in(decision.items, hidden, offered)
        swaps = [_with_offered(hidden, named, offered),
                 gather(self.game, state, player, hidden, named, offered)]
        swaps = [swap for swap in swaps if swap]
        if not first:
            swaps += _of_kind(hidden, named[:2])
        return swaps


def _out_of_order(decision: Decision, cards: list[str]) -> bool:
    index = {item: i for i, item in enumerate(decision.items) if item.__class__ is str}
    at = [index.get(card, -1) for card in cards]
    return -1 not in at and not all(a < b for a, b in itertools.pairwise(at))


def _with_offered(hidden: dict[str, Kind], named: list[str], offered: list[str]) -> Swap:
    swap: Swap = {}
    for card in outside(named, offered):
        spare = next((c for c in outside(offered, named, swap) if hidden[c] == hidden[card]),
                     None)
        if spare is not None:
            swap[card], swap[spare] = spare, card
    return swap


def _of_kind(hidden: dict[str, Kind], cards: list[str]) -> list[Swap]:
    """Swaps of each card with four other hidden cards of its kind."""
    swaps: list[Swap] = []
    for card in cards:
        others = [c for c, kind in hidden.items() if kind == hidden[card] and c != card]
        swaps += [{card: other, other: card} for other in others[:4]]
    return swaps
