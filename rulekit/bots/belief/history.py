"""Replaying the rules along an observer's log: the states that show it what it saw.

From each state it follows, the replay answers the observer R's decisions with R's real answers
and branches over the legal options of the other players (anytime actions included), keeping
the branches whose events, as R sees them, continue R's log (repaired where they name other
cards R could not tell apart: :mod:`rulekit.bots.belief.repairs`). When R is asked, each surviving
branch must also show R exactly what R is shown now. The caps of
:mod:`rulekit.bots.belief.particles` bound how many branches are followed at once.
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from rulekit.bots.belief.compare import Key, plain, same_view, state_key
from rulekit.bots.belief.deal import (
    ask_again,
    deal_to_match,
    hidden_cards,
    project_cards,
    swappable,
)
from rulekit.bots.belief.logs import (
    Event,
    card_pairs,
    leaves,
    names,
    next_answer,
    same_kind,
    strings_in,
)
from rulekit.bots.belief.particles import Caps, Item, Particle
from rulekit.bots.belief.repairs import CARDS, OTHER, SAME, Following, Repairs
from rulekit.engine.game import copy_state
from rulekit.errors import IllegalActionError

if TYPE_CHECKING:
    from rulekit.engine.decisions import Decision, Option
    from rulekit.engine.game import State

_NO_TRAIL: frozenset[Key] = frozenset()
SUBSET_ENUMERATED = 6  # a subset choice of more items has its answers drawn, not listed


class Replay(Repairs):
    """One observer's replay of the rules (:class:`~rulekit.bots.belief.Belief` follows the
    game with it). ``budget`` bounds the ``apply`` calls of one update (past it the frontier
    shrinks), ``tries`` the answers of another player tried from one state."""

    caps: Caps
    particles: list[Particle]
    budget: int
    tries: int
    _spent: int  # apply calls made in this update
    _loose: bool  # events that match R's only in kind are kept (a second pass)
    _trail: frozenset[Key]  # the state being followed, and those it came from (_advance)
    _at: int  # where in R's log it stands

    def _advance(self, target: list[Event], observation: dict[str, Any]) -> list[Particle]:
        game, role = self.game, self.role
        frontier: list[Item] = [
            (p.state, p.weight, p.exact, 0) for p in self.particles]
        finals: list[Particle] = []
        self._spent = 0
        self._pinned: dict[tuple[int, int], set[str]] = {}
        cap = self.caps.max_frontier
        # Each state's key, and the keys of the states it came from since R's log last moved
        # on: a state met again on its own way (an anytime action declined inside its own
        # question leads back to the question) is not followed again; one reached by two
        # ways (an anytime action taken at one question or the next) is, with each weight.
        paths: dict[int, tuple[Key, frozenset[Key]]] = {
            id(p.state): (state_key(p.state), frozenset()) for p in self.particles}
        for _ in range(10_000):
            if not frontier:
                break
            following: Following = {}
            waiting = not observation["decisions"]
            for state, weight, exact, pos in frontier:
                key, trail = paths[id(state)]
                self._trail, self._at = trail | {key}, pos
                if waiting and pos == len(target) and state["result"] is None \
                        and not any(s["player"] == role for s in state["pending"]):
                    self._finish(state, weight, exact, observation, finals)
                    continue
                if state["result"] is not None:
                    if pos == len(target):
                        self._finish(state, weight, exact, observation, finals)
                    continue
                if not state["pending"]:
                    self._step(state, None, weight, exact, pos, target, following)
                    continue
                decisions = game.pending(state)
                if any(d.player == role for d in decisions):
                    answer = next_answer(target, pos, role)
                    if answer is not None:
                        self._step(state, {role: answer}, weight, exact, pos, target,
                                   following)
                        continue
                    if pos == len(target):
                        self._finish(state, weight, exact, observation, finals)
                        if all(d.player == role or d.player in observation["waiting_for"]
                               for d in decisions):
                            continue  # R sees that the others have not answered yet
                other = next((d for d in decisions if d.player != role), None)
                if other is None:
                    continue
                self._branch(state, other, weight, exact, pos, target, following)
            if self._spent > self.budget:
                cap = max(self.caps.max_particles // 2, cap // 2)
            if self._spent > 4 * self.budget:
                cap = 1  # one state of each stratum only
            if self._spent > 16 * self.budget:
                break
            fresh = [(s, w, e, p) for key, (s, w, e, p, trail) in following.items()
                     if key[0] not in trail]
            paths = {id(entry[0]): (key[0], entry[4]) for key, entry in following.items()}
            frontier = self.caps.cap(fresh, cap, self.rng)
        return finals

    def _step(self, state: State, actions: dict[str, str] | None, weight: float, exact: bool,
              pos: int, target: list[Event], following: Following
              ) -> None:
        """Play one transition from ``state`` and keep the result if the events it adds, as R
        sees them, continue R's log.

        Where they name other cards than R saw, and R could not tell those cards from the
        ones it saw, the cards are renamed in ``state`` and the transition is played again
        (with the renamed answer, or else every answer of the same player)."""
        if actions is not None and "+" in actions.get(self.role, ""):
            state = self._in_answer_order(state, actions[self.role])
        child = self._play(state, actions)
        if child is None and actions is not None and self.role in actions:
            # R's own answer names cards this state had not dealt to R: deal them to R.
            moved = self._own_cards(state, actions[self.role], (target, pos))
            if moved is not None:
                state, child = moved, self._play(moved, actions)
        if child is None:
            return
        start = len(state["log"])
        matched = self._match(child, start, pos, target)
        if matched is None:
            return
        new_pos, differ, pairs = matched
        if differ != SAME and pairs:
            if actions is not None and self._reordered(state, actions, pairs, weight, exact,
                                                       pos, target, following):
                return
            mapping = swappable(self.game, state, self.role, pairs)
            if mapping and self._renamed(state, actions, mapping, weight, exact, pos, target,
                                         following):
                return
        if differ != OTHER or self._loose:
            self._keep(child, weight, exact and differ == SAME, new_pos, following)

    def _branch(self, state: State, decision: Decision, weight: float, exact: bool, pos: int,
                target: list[Event], following: Following, rescue: bool = True,
                front: bool = False) -> bool:
        """Follow the answers of ``decision``'s player from ``state``: all of them, or (beyond
        ``keep``) those R's log is about to name first, then the others in random order, until
        ``keep`` continue R's log, or ``tries`` were tried, or ``keep`` more were tried after
        the named ones. Each kept branch weighs ``weight`` divided by the answers tried (the
        other player is taken to answer at random). True if a branch was kept.

        An answer R saw whole is not looked for further: if the first answer that continues
        R's log is one of those R's log names, and the events it showed R name every item of
        it, the other answers (which would show R other items) are not tried, but for anytime
        actions, and its branch weighs ``weight`` divided by the number of answers. If none
        of the named answers continues R's log, the cards it names are first gathered where
        the player may choose them (:meth:`_rescue`), before other answers are tried.
        ``front``: only the named answers are tried."""
        player = decision.player
        options, named, total = self._candidates(decision, pos, target)
        if not named and rescue and not front and self._unoffered(state, decision, pos, target) \
                and self._rescue(state, player, weight, exact, pos, target, following,
                                 first=True):
            return True  # the cards R's log names were not offered: gathered first
        mine: Following = {}
        tried = 0
        for option in itertools.islice(options, named if front else self.tries):
            tried += 1
            self._step(state, {player: option.id}, 1.0, exact, pos, target, mine)
            if tried <= named and len(mine) == 1 and self._revealed(option, mine, pos, target):
                for extra in decision.extras:  # an anytime action first, then the same answer
                    self._step(state, {player: extra.id}, 1.0, exact, pos, target, mine)
                tried = total
                break
            if tried == named and not mine and rescue and self._rescue(
                    state, player, weight, exact, pos, target, following, first=True):
                return True
            if len(mine) >= self.keep or (named and mine and tried >= named + self.keep):
                break
        for key, (child, share, child_exact, child_pos, _) in mine.items():
            self._add(key, child, weight * share / tried, child_exact, child_pos, following)
        if not mine and rescue:
            return self._rescue(state, player, weight, exact, pos, target, following)
        return bool(mine)

    @staticmethod
    def _revealed(option: Option, mine: Following, pos: int, target: list[Event]) -> bool:
        """True if the events that the one branch of ``mine`` showed R (from ``pos`` of R's
        log) name every item of ``option``, and it has one at least."""
        items: list[Any] = []
        leaves(option.value, items)
        if not items:
            return False
        ((_, _, _, new_pos, _),) = mine.values()
        shown: list[str] = []
        for event in target[pos:new_pos]:
            strings_in(event.get("args"), shown)
        return all(item.__class__ is str and item in shown for item in items)

    def _unoffered(self, state: State, decision: Decision, pos: int, target: list[Event]
                   ) -> bool:
        """True if R's log is about to name a card R cannot see in ``state`` that
        ``decision`` does not offer (no answer can name it before the cards are gathered,
        and drawing answers is vain)."""
        named: list[str] = []
        for event in target[pos:pos + 4]:
            strings_in(event.get("args"), named)
        offered: list[str] = []
        strings_in(decision.items, offered)
        hidden = hidden_cards(self.game, state, self.role)
        return any(name in hidden and name not in offered for name in named)

    def _candidates(self, decision: Decision, pos: int, target: list[Event]
                    ) -> tuple[Iterator[Option], int, int]:
        """The answers to try, how many at the front answer with what R's log is about
        to name (the largest first), and how many answers there are (at most ``tries`` are
        counted where they are drawn). A subset of many items is not enumerated: its answers
        are drawn (as they are needed)."""
        named: list[str] = []
        for event in target[pos:pos + 4]:
            strings_in(event.get("args"), named)
        if decision.kind == "subset" and len(decision.items) > SUBSET_ENUMERATED:
            front: list[Option] = []
            picked = [i for i in decision.items if i.__class__ is str and i in named]
            if picked:
                with contextlib.suppress(IllegalActionError):
                    front.append(decision.option("+".join(picked)))
            return self._drawn(decision, front), len(front), self.tries
        options = list(decision.options())
        total = len(options)
        if total > self.keep:
            self.rng.shuffle(options)
        front = [o for o in options if names(o.value, named)]
        if front:
            front.sort(key=lambda o: -len(o.value) if isinstance(o.value, list) else -1)
            options = front + [o for o in options if not names(o.value, named)]
        return iter(options), len(front), total

    def _drawn(self, decision: Decision, front: list[Option]) -> Iterator[Option]:
        """``front``, then distinct answers of ``decision`` drawn at random (``tries`` in all,
        or fewer if draws keep repeating)."""
        drawn = {o.id for o in front}
        yield from front
        for _ in range(2 * self.tries):
            if len(drawn) >= self.tries:
                return
            option = decision.sample(self.rng)
            if option.id not in drawn:
                drawn.add(option.id)
                yield option

    def _keep(self, child: State, weight: float, exact: bool, pos: int,
              following: Following) -> None:
        self._add((state_key(child), pos, exact), child, weight, exact, pos, following)

    def _add(self, key: tuple[Key, int, bool], child: State, weight: float, exact: bool,
             pos: int, following: Following) -> None:
        trail = self._trail if pos == self._at else _NO_TRAIL
        entry = following.get(key)
        if entry is None:
            following[key] = [child, weight, exact, pos, trail]
        else:
            entry[1] += weight
            entry[4] = entry[4] | trail

    def _play(self, state: State, actions: dict[str, str] | None, in_place: bool = False
              ) -> State | None:
        """The state after ``actions`` (or, if None, after the rules run on); ``state`` itself
        changed if ``in_place`` (one no one else holds); None if an answer is not legal."""
        self._spent += 1
        if actions is None:
            return self.game.run(state if in_place else copy_state(state))
        try:
            return self.game.apply(state, actions, in_place=in_place)
        except IllegalActionError:
            return None

    def _match(self, child: State, start: int, pos: int, target: list[Event]
               ) -> tuple[int, int, list[tuple[str, str]]] | None:
        """How the events ``child`` added from ``start`` continue R's log from ``pos``: the new
        position, how they differ (:data:`SAME`, :data:`CARDS`: only in which cards they
        name, :data:`OTHER`) and the pairs of (named card, card R saw); None if they cannot
        be R's (another statement, or more events than R saw)."""
        role = self.role
        differ = SAME
        pairs: list[tuple[str, str]] = []
        cards = self.game.symbols.cards
        for event in child["log"][start:]:
            if event["to"] is not None and event["to"] != role:
                continue
            if pos >= len(target):
                return None
            wanted = target[pos]
            if event != wanted:
                if not same_kind(event, wanted):
                    return None
                only_cards = card_pairs(event.get("args"), wanted.get("args"), cards, pairs)
                differ = max(differ, CARDS if only_cards else OTHER)
            pos += 1
        return pos, differ, pairs

    def _finish(self, state: State, weight: float, exact: bool, observation: dict[str, Any],
                finals: list[Particle]) -> None:
        """Keep ``state`` if it shows R exactly ``observation`` (cards swapped in first)."""
        state = copy_state(state)
        state["log"] = []
        swaps = project_cards(state, observation)
        if swaps < 0:
            if not self._loose or not deal_to_match(state, observation):
                return
            exact = False
        if swaps:
            state = ask_again(self.game, state, self.rng)
        seen = self.game.observe(state, self.role)
        if not same_view(seen, observation):
            if not self._loose:
                return
            exact = False
            for key, value in observation["vars"].items():
                state["vars"][key] = plain(value)
            if not same_view(self.game.observe(state, self.role), observation):
                return
        state["rng"] = self.rng.getrandbits(64)
        finals.append(Particle(state, weight, exact))
