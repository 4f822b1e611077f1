"""What one player may know of the hidden state: a set of weighted full states (particles).

A :class:`Belief` for an observer role R is built from R's observations only, never from the
real state. R's observation holds R's log, which lists, in order, every public event, every
event addressed to R and every answer R gave. Between two of R's answers the belief *replays
the rules*: from each particle it answers R's decisions with R's real answers and branches over
every legal option of the other players (anytime actions included), and keeps the branches
whose events, as R sees them, are the events of R's log. When R is asked, each surviving
branch must also show R exactly what R is shown now (zones, variables, the decision, who is
still deciding); cards R sees are first swapped in from places R cannot see. See
``docs/bots.md`` for the weights, the caps and the limits.
"""

from __future__ import annotations

import contextlib
import copy
import itertools
import random
import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rulekit.bots.cards import (
    Deal,
    ask_again,
    deal_to_match,
    gather,
    hidden_cards,
    in_order,
    project_cards,
    redeal,
    relabel,
    relabel_id,
    reordered,
    swappable,
)
from rulekit.bots.logs import (
    Event,
    card_pairs,
    cards_in,
    names,
    next_answer,
    same_kind,
    strings_in,
)
from rulekit.bots.sampling import stratified_pick
from rulekit.engine.decisions import Decision, Option
from rulekit.engine.game import copy_state
from rulekit.engine.observe import FrozenList
from rulekit.errors import GameRuntimeError, IllegalActionError

if TYPE_CHECKING:
    from rulekit.agents import View
    from rulekit.engine.game import Game, State

SAME, CARDS, OTHER = 0, 1, 2  # how events differ from those R saw
MAX_RESTARTS = 3  # times a belief that lost the game starts again from its beginning
SUBSET_ENUMERATED = 6  # a subset choice of more items has its answers drawn, not listed


@dataclass
class Particle:
    """One full state the observer cannot tell from the real one, with its weight.

    ``exact`` is false when the particle's events matched R's log only in kind (the same
    statement logged, other values): its visible part was then made to agree with the
    observation. Exact particles are preferred whenever there are any.
    """

    state: State
    weight: float
    exact: bool = True
    deal: Deal | None = None  # where a sample deals the unseen cards (found once)


class BeliefLost(Exception):
    """No state the rules allow shows the observer what it was shown (see docs/bots.md)."""


class Belief:
    """The states ``role`` cannot tell apart, kept up to date from its observations.

    ``particles`` caps the number of states kept (sampled by weight beyond it); ``frontier``
    caps the branches followed at once while replaying, ``keep`` the answers of another player
    kept from one state (tried in random order beyond it, at most ``tries`` of them), and
    ``budget`` the number of
    ``apply`` calls one update may make (past it the frontier shrinks). ``seeds`` is how many
    unknown generator seeds the belief starts from. Everything random comes from ``rng``, so a
    belief fed the same observations is the same.
    """

    def __init__(self, game: Game, role: str, rng: random.Random, *, particles: int = 16,
                 frontier: int = 32, budget: int = 1_000, keep: int = 6, tries: int = 64,
                 seeds: int = 4) -> None:
        self.game = game
        self.role = role
        self.rng = rng
        self.max_particles = particles
        self.max_frontier = frontier
        self.budget = budget
        self.keep = keep
        self.tries = tries
        self.seeds = seeds
        # The variables R cannot see: the states kept under a cap cover each of their values.
        self._hidden_vars = [key for key, owner, vis in game._var_keys
                             if not (vis == "public" or (vis == "owner" and owner == role))]
        self.restarts = 0
        self.particles = self._fresh()
        self.seen: list[Event] = []  # R's log as far as the particles have followed it
        self._log: list[Event] = []  # the same, as plain events (the log of a sample)
        self.observation: dict[str, Any] | None = None
        self.lost = False
        self._spent = 0
        self._loose = False

    # ------------------------------------------------------------ following the game

    def update(self, observation: dict[str, Any]) -> Belief:
        """Follow the game up to ``observation`` (R's observation now); return self.

        Agents update it when they must decide. Taken while others decide, an observation
        only says that R is not asked: the states kept are those after any number of the
        others' steps that show it.
        """
        if observation is self.observation:  # a search asks once per iteration
            return self
        log = observation["log"]
        if not continues(log, self.seen):
            raise ValueError("the observation does not continue the one this belief follows")
        if self.observation is not None and len(log) == len(self.seen) \
                and same_view(observation, self.observation):
            return self
        finals = [] if self.lost else self._follow_both_ways(log[len(self.seen):], observation)
        if not finals and self.restarts < MAX_RESTARTS and (self.seen or self.lost):
            # (a belief that has just followed the game from its beginning is not restarted)
            # Start again from the beginning of the game with other unknown seeds.
            self.restarts += 1
            self.particles = self._fresh()
            finals = self._follow_both_ways(list(log), observation)
        if finals:
            self.particles = self._resample(finals)
        self.lost = not finals
        self._log += [dict(e) for e in log[len(self.seen):]]
        self.seen = log if log.__class__ is FrozenList else list(log)  # never changed
        self.observation = observation
        return self

    def _fresh(self) -> list[Particle]:
        return [Particle(self.game.initial_state(self.rng.getrandbits(63)), 1.0 / self.seeds)
                for _ in range(self.seeds)]

    def _follow_both_ways(self, target: list[Event], observation: dict[str, Any]
                          ) -> list[Particle]:
        """The particles followed along ``target``: exactly, or else loosely (the same
        statements logged, any values; what R sees is then made to agree)."""
        finals = self._advance(target, observation)
        if not finals and self.seen:
            self._loose = True
            finals = self._advance(target, observation)
            self._loose = False
        return finals

    def _advance(self, target: list[Event], observation: dict[str, Any]) -> list[Particle]:
        game, role = self.game, self.role
        frontier: list[tuple[State, float, bool, int]] = [
            (p.state, p.weight, p.exact, 0) for p in self.particles]
        finals: list[Particle] = []
        self._spent = 0
        self._pinned: dict[tuple[int, int], set[str]] = {}
        cap = self.max_frontier
        expanded: set[tuple[Key, int]] = set()
        for _ in range(10_000):
            if not frontier:
                break
            following: dict[tuple[Key, int, bool], list[Any]] = {}
            waiting = not observation["decisions"]
            for state, weight, exact, pos in frontier:
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
                other = next((d for d in decisions if d.player != role), None)
                if other is None:
                    continue
                self._branch(state, other, weight, exact, pos, target, following)
            if self._spent > self.budget:
                cap = max(self.max_particles // 2, cap // 2)
            if self._spent > 4 * self.budget:
                cap = 1  # one state of each stratum only
            if self._spent > 16 * self.budget:
                break
            # A state met again at the same place of R's log (an anytime action declined
            # inside its own question leads back to the question) is not followed twice.
            fresh = [(s, w, e, p) for key, (s, w, e, p) in following.items()
                     if (key[0], key[1]) not in expanded]
            expanded.update((key[0], key[1]) for key in following)
            frontier = self._cap(fresh, cap)
        return finals

    def _step(self, state: State, actions: dict[str, str] | None, weight: float, exact: bool,
              pos: int, target: list[Event], following: dict[tuple[Key, int, bool], list[Any]]
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
                    ) -> dict[str, tuple[Any, Any]]:
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
            kinds = self.game._card_kinds
            for event in (*self.seen, *before[0][:before[1]]):
                cards_in(event.get("args"), kinds, found)
                cards_in(event.get("value"), kinds, found)
            if self.observation is not None:
                for view in self.observation["zones"].values():
                    cards_in(view.get("cards"), kinds, found)
            pinned = self._pinned[key] = set(found)
        for card, kind in self.game._card_kinds.items():
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
                   following: dict[tuple[Key, int, bool], list[Any]]) -> bool:
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
                 following: dict[tuple[Key, int, bool], list[Any]]) -> bool:
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
                    tries += [{player: o.id} for o in
                              self._candidates(decision, pos, target)[0][:self.keep * 4]]
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

    def _branch(self, state: State, decision: Decision, weight: float, exact: bool, pos: int,
                target: list[Event], following: dict[tuple[Key, int, bool], list[Any]],
                rescue: bool = True) -> bool:
        """Follow the answers of ``decision``'s player from ``state``: all of them, or (beyond
        ``keep``) those R's log is about to name first, then the others in random order, until
        ``keep`` continue R's log, or ``tries`` were tried, or ``keep`` more were tried after
        the named ones. Each kept branch weighs ``weight`` divided by the answers tried (the
        other player is taken to answer at random). True if a branch was kept."""
        player = decision.player
        options, named = self._candidates(decision, pos, target)
        mine: dict[tuple[Key, int, bool], list[Any]] = {}
        tried = 0
        for option in options[:self.tries]:
            tried += 1
            self._step(state, {player: option.id}, 1.0, exact, pos, target, mine)
            if len(mine) >= self.keep or (named and mine and tried >= named + self.keep):
                break
        for child, share, child_exact, child_pos in mine.values():
            self._keep(child, weight * share / tried, child_exact, child_pos, following)
        if not mine and rescue:
            return self._rescue(state, player, weight, exact, pos, target, following)
        return bool(mine)

    def _candidates(self, decision: Decision, pos: int, target: list[Event]
                    ) -> tuple[list[Option], int]:
        """The answers to try, and how many at the front answer with what R's log is about
        to name. A subset of many items is not enumerated: its answers are drawn."""
        named: list[str] = []
        for event in target[pos:pos + 4]:
            strings_in(event.get("args"), named)
        if decision.kind == "subset" and len(decision.items) > SUBSET_ENUMERATED:
            front: list[Option] = []
            picked = [i for i in decision.items if i.__class__ is str and i in named]
            if picked:
                with contextlib.suppress(IllegalActionError):
                    front.append(decision.option("+".join(picked)))
            drawn: dict[str, Option] = {o.id: o for o in front}
            for _ in range(2 * self.tries):
                if len(drawn) >= self.tries:
                    break
                option = decision.sample(self.rng)
                drawn.setdefault(option.id, option)
            return list(drawn.values()), len(front)
        options = list(decision.options())
        if len(options) <= self.keep:
            return options, 0
        self.rng.shuffle(options)
        front = [o for o in options if names(o.value, named)]
        if front:
            options = front + [o for o in options if not names(o.value, named)]
        return options, len(front)

    def _rescue(self, state: State, player: str, weight: float, exact: bool, pos: int,
                target: list[Event], following: dict[tuple[Key, int, bool], list[Any]]) -> bool:
        """No answer of ``player`` continues R's log: if that log soon names cards whose
        place R does not know (:meth:`_free_cards`), put them in the place of such cards of
        their kind (first of those the player may choose now) and try again."""
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
        for card in named[:2]:
            others = [c for c, kind in hidden.items() if kind == hidden[card] and c != card]
            mappings += [{card: other, other: card} for other in others[:4]]
        for mapping in mappings:
            try:
                parent = ask_again(self.game, relabel(state, mapping), self.rng)
            except GameRuntimeError:  # the cards renamed leave a choice with nothing to take
                continue
            again = self.game.decision_for(parent, player)
            if again is not None and self._branch(parent, again, weight, exact, pos, target,
                                                  following, rescue=False):
                return True
        return False

    def _keep(self, child: State, weight: float, exact: bool, pos: int,
              following: dict[tuple[Key, int, bool], list[Any]]) -> None:
        key = (_key(child), pos, exact)
        entry = following.get(key)
        if entry is None:
            following[key] = [child, weight, exact, pos]
        else:
            entry[1] += weight

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
                state["vars"][key] = _plain(value)
            if not same_view(self.game.observe(state, self.role), observation):
                return
        state["rng"] = self.rng.getrandbits(64)
        finals.append(Particle(state, weight, exact))

    def _cap(self, items: list[tuple[State, float, bool, int]], cap: int
             ) -> list[tuple[State, float, bool, int]]:
        """At most ``cap`` items (more if the hidden variables have more values): exact ones
        first, then drawn by weight, one of each value of each hidden variable and one of each
        stratum first (:func:`~rulekit.bots.sampling.stratified_pick`)."""
        if len(items) <= cap:
            return items
        exact = [i for i in items if i[2]]
        pool = exact if len(exact) >= cap else items
        kept = stratified_pick(pool, [i[1] for i in pool],
                               [self._stratum(i[0], i[3]) for i in pool], cap, self.rng,
                               self.max_frontier, [self._labels(i[0], i[3]) for i in pool])
        return [(pool[i][0], w, pool[i][2], pool[i][3]) for i, w in kept]

    def _stratum(self, state: State, pos: int | None = None) -> str:
        """What a cap keeps apart: the values of the variables R cannot see; while replaying,
        also how far the state has followed R's log and where the rules stand in it (the
        others' unseen answers lead to different questions, which R's log tells apart
        later)."""
        values = state["vars"]
        hidden = [values[key] for key in self._hidden_vars]
        if pos is None:
            return repr(hidden)
        return repr((pos, hidden, [frame[:2] for frame in state["stack"]]))

    def _labels(self, state: State, pos: int = -1) -> tuple[tuple[int, str, int, str], ...]:
        """The value of each variable R cannot see (while replaying, with how far the state
        has followed R's log and where the rules stand): a cap keeps one state of each (a
        cap that holds fewer states than a variable has values would otherwise drop some)."""
        values = state["vars"]
        where = repr([frame[:2] for frame in state["stack"]]) if pos >= 0 else ""
        return tuple((pos, where, i, repr(values[key]))
                     for i, key in enumerate(self._hidden_vars))

    def _resample(self, finals: list[Particle]) -> list[Particle]:
        merged: dict[tuple[Key, bool], Particle] = {}
        for p in finals:
            key = (_key(p.state), p.exact)
            if key in merged:
                merged[key].weight += p.weight
            else:
                merged[key] = p
        kept = list(merged.values())
        if any(p.exact for p in kept):
            kept = [p for p in kept if p.exact]
        if len(kept) > self.max_particles:
            picked = stratified_pick(kept, [p.weight for p in kept],
                                     [self._stratum(p.state) for p in kept], self.max_particles,
                                     self.rng, covers=[self._labels(p.state) for p in kept])
            kept = [Particle(kept[i].state, w, kept[i].exact) for i, w in picked]
        total = sum(p.weight for p in kept) or 1.0
        for p in kept:
            p.weight /= total
        return kept

    # ------------------------------------------------------------ reading the belief

    def distribution(self, variable: str) -> dict[Any, float]:
        """The values the variable ``variable`` (a key of ``state["vars"]``, such as
        ``"name"`` or ``"name.index"``) may hold, with their weights (summing to 1).
        List values are given as tuples."""
        self._check()
        result: dict[Any, float] = {}
        for p in self.particles:
            value = _hashable(p.state["vars"][variable])
            result[value] = result.get(value, 0.0) + p.weight
        return result

    def sample(self, rng: random.Random) -> State:
        """A full state drawn from the belief that R cannot tell from the real one.

        The cards R cannot see are dealt again among the places R cannot see (by kind), the
        generator is renewed, and the log is R's own, so ``observe(sample, R)`` is R's
        observation.
        """
        self._check()
        assert self.observation is not None
        weights = [p.weight for p in self.particles]
        chosen = rng.choices(self.particles, weights)[0]
        if chosen.deal is None:
            chosen.deal = Deal(self.game, chosen.state, self.role)
        state = copy_state(chosen.state)
        if redeal(self.game, state, self.role, rng, chosen.deal):
            state = ask_again(self.game, state, rng)
        state["log"] = self._log[:]  # R's log; its events are shared, as copy_state shares them
        return state

    def fork(self) -> Belief:
        """A copy that may follow the game on its own (the particles' states are shared: they
        are never changed in place)."""
        new = copy.copy(self)
        new.rng = random.Random(self.rng.getrandbits(64))
        new.particles = [Particle(p.state, p.weight, p.exact, p.deal) for p in self.particles]
        new._log = self._log[:]
        return new

    def _check(self) -> None:
        if self.observation is None:
            raise BeliefLost("the belief has not been given an observation yet")
        if self.lost:
            raise BeliefLost(f"no state the rules allow shows {self.role} what it was shown")


_beliefs: weakref.WeakKeyDictionary[random.Random, Belief] = weakref.WeakKeyDictionary()


def belief_for(view: View) -> Belief:
    """The belief of the seat ``view`` is for, brought up to its current observation.

    One belief is kept per seat and game (a seat's generator belongs to one game), fed only
    with the seat's observations; its generator is drawn from the seat's, so games replay.
    """
    belief = _beliefs.get(view.rng)
    observation = view.observation
    if belief is not None and belief.observation is observation:
        return belief  # asked again for the same decision (a search's iterations)
    if belief is not None and (belief.game is not view.game or belief.role != view.role
                               or not continues(observation["log"], belief.seen)):
        belief = None
    if belief is None:
        belief = Belief(view.game, view.role, random.Random(view.rng.getrandbits(64)))
        _beliefs[view.rng] = belief
    return belief.update(observation)


Key = tuple[tuple[tuple[str, ...], ...], str]


def _key(state: State) -> Key:
    """What tells two states of a game apart for the future (not the log, nor the generator).
    Every state of a game has the same piles and variables, in the same order: their values
    are enough."""
    return (tuple(map(tuple, state["zones"].values())),
            repr((list(state["vars"].values()), state["stack"], state["pending"],
                  state["committed"], state["round"], state["phase"], state["result"])))


def same_view(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """True if two observations agree on everything but their logs."""
    return len(a) == len(b) and all(k == "log" or (k in b and a[k] == b[k]) for k in a)


def continues(log: list[Event], seen: list[Event]) -> bool:
    """True if ``log`` begins with ``seen``. Two read-only views of logs (``Game.observe``)
    that hold the same event at the same place hold the same events before it: each view
    extends an earlier one with events of its own."""
    size = len(seen)
    if log is seen or size == 0:
        return True
    if size > len(log):
        return False
    if log.__class__ is FrozenList and seen.__class__ is FrozenList \
            and log[size - 1] is seen[size - 1]:
        return True
    return log[:size] == seen


def _hashable(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_hashable(v) for v in value)
    return value


def _plain(value: Any) -> Any:
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


__all__ = ["Belief", "BeliefLost", "Particle", "belief_for"]
