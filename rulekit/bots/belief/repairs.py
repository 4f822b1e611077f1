"""Repairs of a replayed branch whose cards are not those the observer saw.

A state followed from the start of a game it never saw has not dealt the cards the game dealt:
the observer's own answers, and the events it saw, may name cards the branch holds elsewhere.
Where the observer could not tell those cards apart, the branch is repaired: its cards are put
in the order the observer's log lists them, swapped into the observer's hand, renamed, or
gathered where the log's next events need them (``rescue``), and the transition is played again.
:class:`~rulekit.bots.belief.history.Replay` builds on these.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from rulekit.bots.belief.deal import (
    ask_again,
    gather,
    hidden_cards,
    in_order,
    relabel,
    relabel_id,
    reordered,
)
from rulekit.bots.belief.logs import Event, cards_in
from rulekit.errors import GameRuntimeError

if TYPE_CHECKING:
    from rulekit.bots.belief.compare import Key
    from rulekit.engine.decisions import Decision, Option
    from rulekit.engine.game import Game, State
    from rulekit.engine.hidden import Kind

Following = dict[tuple["Key", int, bool], list[Any]]  # the states kept after a step, by key
SAME, CARDS, OTHER = 0, 1, 2  # how events differ from those R saw


class Repairs:
    """The repairs of a replay for the observer ``role`` (see the module's docstring)."""

    game: Game
    role: str
    rng: random.Random
    keep: int
    seen: list[Event]  # R's log as far as the belief has followed it
    observation: dict[str, Any] | None  # R's last observation followed
    _pinned: dict[tuple[int, int], set[str]]  # the cards R's log has named, per position

    # ------------------------------------------------------------ what the replay provides

    def _play(self, state: State, actions: dict[str, str] | None, in_place: bool = False
              ) -> State | None:
        raise NotImplementedError

    def _match(self, child: State, start: int, pos: int, target: list[Event]
               ) -> tuple[int, int, list[tuple[str, str]]] | None:
        raise NotImplementedError

    def _keep(self, child: State, weight: float, exact: bool, pos: int,
              following: Following) -> None:
        raise NotImplementedError

    def _branch(self, state: State, decision: Decision, weight: float, exact: bool, pos: int,
                target: list[Event], following: Following, rescue: bool = True,
                front: bool = False) -> bool:
        raise NotImplementedError

    def _candidates(self, decision: Decision, pos: int, target: list[Event]
                    ) -> tuple[Iterator[Option], int, int]:
        raise NotImplementedError

    # ------------------------------------------------------------ repairs

    def _in_answer_order(self, state: State, answer: str) -> State:
        """``state`` with the cards of R's subset ``answer`` in the order R's log lists them
        (the order R held them in; a state followed from the start of the game may hold
        them in another order, and its answer would then list them otherwise)."""
        decision = self.game.decision_for(state, self.role)
        if decision is None or decision.kind != "subset":
            return state
        cards = answer.split("+")
        index = {item: i for i, item in enumerate(decision.items) if item.__class__ is str}
        at = [index.get(card, -1) for card in cards]
        if -1 in at or all(a < b for a, b in itertools.pairwise(at)):
            return state
        moved = in_order(state, cards)
        return state if moved is None else ask_again(self.game, moved, self.rng)

    def _free_cards(self, state: State, before: tuple[list[Event], int]
                    ) -> dict[str, Kind]:
        """The cards whose place in ``state`` R does not know, with their kind: those R cannot
        see, then those R's log has never named up to ``before`` (R's log and a position in
        it) and R was not shown in its last observation (where the rules moved cards
        without a word, a state followed from the start may hold other cards than R saw
        there; the end of the update checks what R sees now)."""
        free = hidden_cards(self.game, state, self.role)
        key = (id(before[0]), before[1])
        pinned = self._pinned.get(key)
        if pinned is None:
            found: list[str] = []
            kinds = self.game.layout.card_kind
            for event in (*self.seen, *before[0][:before[1]]):
                cards_in(event.get("args"), kinds, found)
                cards_in(event.get("value"), kinds, found)
            if self.observation is not None:
                for view in self.observation["zones"].values():
                    cards_in(view.get("cards"), kinds, found)
            pinned = self._pinned[key] = set(found)
        for card, kind in self.game.layout.card_kind.items():
            if card not in pinned and card not in free:
                free[card] = kind
        return free

    def _own_cards(self, state: State, answer: str, before: tuple[list[Event], int]
                   ) -> State | None:
        """``state`` with the cards R's ``answer`` names, and R's decision does not offer,
        swapped in from places whose cards R does not know (:meth:`_free_cards`; a state
        followed from the start of the game has not dealt R the cards R held); None if that
        cannot be done."""
        decision = self.game.decision_for(state, self.role)
        if decision is None:
            return None
        named = [c for c in answer.split("+") if c not in decision.items]
        pool = self._free_cards(state, before)
        if not named or any(c not in pool for c in named):
            return None
        mapping = gather(self.game, state, self.role, pool, named, [])
        if not mapping:
            return None
        moved = ask_again(self.game, relabel(state, mapping), self.rng)
        return self._in_answer_order(moved, answer) if "+" in answer else moved

    def _reordered(self, state: State, actions: dict[str, str], pairs: list[tuple[str, str]],
                   weight: float, exact: bool, pos: int, target: list[Event],
                   following: Following) -> bool:
        """Play the transition again from ``state`` with cards in another order within a pile
        R cannot see (an answer of several of those cards lists them in the order they lie);
        true if it then shows R exactly what R saw."""
        moved = reordered(self.game, state, self.role, pairs)
        if moved is None:
            return False
        start = len(state["log"])
        child = self._play(ask_again(self.game, moved, self.rng), actions, in_place=True)
        again = None if child is None else self._match(child, start, pos, target)
        if child is None or again is None or again[1] != SAME:
            return False
        self._keep(child, weight, exact, again[0], following)
        return True

    def _renamed(self, state: State, actions: dict[str, str] | None, mapping: dict[str, str],
                 weight: float, exact: bool, pos: int, target: list[Event],
                 following: Following) -> bool:
        """Play the transition again from ``state`` with cards renamed; true if it then
        shows R exactly what R saw."""
        parent = ask_again(self.game, relabel(state, mapping), self.rng)
        start = len(state["log"])
        tries: list[dict[str, str] | None] = [None]
        if actions is not None:
            tries = [{r: relabel_id(a, mapping) for r, a in actions.items()}]
            (player,) = actions
            if player != self.role:
                decision = self.game.decision_for(parent, player)
                if decision is not None:
                    options = self._candidates(decision, pos, target)[0]
                    tries += [{player: o.id} for o in itertools.islice(options, self.keep * 4)]
        found = False
        alone = len(tries) == 1  # the renamed parent is played once: no copy of it is needed
        for moved in tries:
            child = self._play(parent, moved, in_place=alone)
            again = None if child is None else self._match(child, start, pos, target)
            if child is not None and again is not None and again[1] == SAME:
                self._keep(child, weight, exact, again[0], following)
                found = True
                if moved is tries[0]:
                    break
        return found

    def _rescue(self, state: State, player: str, weight: float, exact: bool, pos: int,
                target: list[Event], following: Following, first: bool = False) -> bool:
        """No answer of ``player`` continues R's log: if that log soon names cards whose
        place R does not know (:meth:`_free_cards`), put them in the place of such cards of
        their kind (first of those the player may choose now) and try again. ``first``: the
        answers the log names did not continue it and the others are not tried yet: only
        the cards gathered are tried, with those answers only."""
        hidden = self._free_cards(state, (target, pos))
        named: list[str] = []
        for event in target[pos:pos + 4]:
            cards_in(event.get("args"), hidden, named)
        if not named:
            return False
        decision = self.game.decision_for(state, player)
        offered: list[str] = []
        if decision is not None:
            cards_in(decision.items, hidden, offered)
        mappings: list[dict[str, str]] = []
        together: dict[str, str] = {}
        for card in named:
            if card in offered:
                continue
            spare = next((c for c in offered if hidden[c] == hidden[card] and c not in named
                          and c not in together), None)
            if spare is not None:
                together[card], together[spare] = spare, card
        if together:
            mappings.append(together)
        gathered = gather(self.game, state, player, hidden, named, offered)
        if gathered:
            mappings.append(gathered)
        for card in [] if first else named[:2]:
            others = [c for c, kind in hidden.items() if kind == hidden[card] and c != card]
            mappings += [{card: other, other: card} for other in others[:4]]
        for mapping in mappings:
            try:
                parent = ask_again(self.game, relabel(state, mapping), self.rng)
            except GameRuntimeError:  # the cards renamed leave a choice with nothing to take
                continue
            again = self.game.decision_for(parent, player)
            if again is not None and self._branch(parent, again, weight, exact, pos, target,
                                                  following, rescue=False, front=first):
                return True
        return False
