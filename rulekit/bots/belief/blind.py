"""A state drawn from one observation alone: what ``determinize`` gives when a belief is lost."""

from __future__ import annotations

import random
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple, cast

from rulekit.bots.belief.deal import PileView, ask_again, shown_cards
from rulekit.engine.frozen import thaw
from rulekit.engine.game import copy_state
from rulekit.engine.hidden import Kind
from rulekit.engine.observe import Observation
from rulekit.engine.state import Event

if TYPE_CHECKING:
    from rulekit.engine.game import Game, State
    from rulekit.model.symbols import VarDecl

LEARNING_GAMES = 6  # random games played to learn where each kind of card may lie
LEARNING_STEPS = 2_000  # decisions at most per learning game
DRAWS = 20  # draws tried for one that shows the role what it was shown


class Slot(NamedTuple):
    """A place the role does not see a card in."""

    key: str  # the pile's
    at: int  # the index in the pile
    open_to_own: bool  # whether the role's own cards may go there, unseen


Fits = Callable[[str, Slot, bool], bool]  # (card, slot, by kind too) -> whether it may go there

_kinds_at: weakref.WeakKeyDictionary[Game, dict[str, set[Kind]]] = weakref.WeakKeyDictionary()


def where_kinds_go(game: Game) -> dict[str, set[Kind]]:
    """The kinds of card each pile held in random games: public knowledge of the rules."""
    known = _kinds_at.get(game)
    if known is None:
        known = {pile.key: set() for pile in game.layout.piles}
        for seed in range(LEARNING_GAMES):
            _note_kinds(game, seed, known)
        _kinds_at[game] = known
    return known


def _note_kinds(game: Game, seed: int, known: dict[str, set[Kind]]) -> None:
    """Play a random game, noting the kinds of card each pile holds."""
    kinds = game.layout.card_kind
    rng = random.Random(seed)
    state = game.new_game(seed)
    for _ in range(LEARNING_STEPS):
        for key, pile in state["zones"].items():
            known[key].update(kinds[card] for card in pile)
        if game.is_over(state):
            break
        state = game.apply(state, {d.player: d.sample(rng) for d in game.pending(state)},
                           in_place=True)


def blind_state(game: Game, state: State, role: str, rand: random.Random) -> State:
    """A full state drawn from ``observe(state, role)`` and ``rand`` alone."""
    observation = game.observe(state, role)
    for _ in range(DRAWS):
        new = _draw(game, state, role, observation, rand)
        if game.observe(new, role) == observation:
            break
    return new


def _draw(game: Game, state: State, role: str, observation: Observation,
          rand: random.Random) -> State:
    new = copy_state(state)
    _draw_variables(game, new, role, rand)
    _deal(game, new, observation, rand)
    new["log"] = [cast(Event, dict(event)) for event in observation["log"]]
    new["rng"] = rand.getrandbits(64)
    new["seed"] = rand.getrandbits(63)
    new["steps"] = 0
    return ask_again(game, new, rand, mine=role)


def _draw_variables(game: Game, state: State, role: str, rand: random.Random) -> None:
    domains = _domains(game)
    layout = game.layout
    declared = {key: decl for decl in game.symbols.variables.values()
                for key in layout.keys_of(decl.name, decl.per)}
    values = state["vars"]
    for value in layout.values:
        if not value.seen_by(role):
            domain = _domain(declared[value.key], domains)
            values[value.key] = rand.choice(domain) if domain else \
                thaw(layout.initial_values[value.key])


def _domains(game: Game) -> dict[str, list[object]]:
    board = game.symbols.board
    return {"node": list(board.nodes), "edge": list(board.edges), "region": list(board.regions),
            "role": list(game.roles), "bool": [False, True]}


def _domain(decl: VarDecl, domains: dict[str, list[object]]) -> list[object] | None:
    domain = domains.get(decl.type)
    if domain is None and decl.type == "int" and decl.minimum is not None \
            and decl.maximum is not None:
        domain = list(range(decl.minimum, decl.maximum + 1))
    return domain


def _deal(game: Game, state: State, observation: Observation, rand: random.Random) -> None:
    """Deal the cards the observation does not show over the places it does not show."""
    views: dict[str, PileView] = observation["zones"]
    slots = _unseen_slots(views)
    cards = _unseen_cards(game, state, views, slots)
    rand.shuffle(cards)
    order = list(range(len(slots)))
    rand.shuffle(order)
    fits = _Placing(game, observation["role"]).fits
    holder = _match(cards, [slots[i] for i in order], fits)
    zones = state["zones"]
    for slot, card in holder.items():
        key, index, _ = slots[order[slot]]
        zones[key][index] = card


def _unseen_slots(views: dict[str, PileView]) -> list[Slot]:
    slots: list[Slot] = []
    for key, view in views.items():
        seen = view.get("cards")
        by_card = seen is not None and None in seen
        slots += [Slot(key, index, not by_card) for index in range(view["count"])
                  if seen is None or seen[index] is None]
    return slots


def _unseen_cards(game: Game, state: State, views: dict[str, PileView], slots: list[Slot]
                  ) -> list[str]:
    kinds = game.layout.card_kind
    shown = shown_cards(views)
    cards = [card for card in kinds if card not in shown]
    if len(cards) != len(slots):
        cards = [state["zones"][key][index] for key, index, _ in slots]
        cards.sort(key=list(kinds).index)
    return cards


class _Placing:
    """Where unseen cards may be dealt: by owner, and by kind if ``strict``."""

    def __init__(self, game: Game, role: str) -> None:
        self.kinds = game.layout.card_kind
        self.owner_of = game.layout.card_owner
        self.allowed = where_kinds_go(game)
        self.role = role

    def fits(self, card: str, slot: Slot, strict: bool) -> bool:
        if not slot.open_to_own and self.owner_of.get(card) == self.role:
            return False
        return not strict or self.kinds[card] in self.allowed[slot.key]


def _match(cards: list[str], slots: list[Slot], fits: Fits) -> dict[int, str]:
    """Slot -> card: by kind first, then by owner, then any slot left."""
    matching = _Matching(slots, fits)
    for strict in (True, False):
        for card in matching.unplaced(cards):
            matching.place(card, strict, set())
    free = (slot for slot in range(len(slots)) if slot not in matching.holder)
    for card in matching.unplaced(cards):
        matching.holder[next(free)] = card
    return matching.holder


class _Matching:
    """Cards put in slots they fit, by augmenting paths."""

    __slots__ = ("fits", "holder", "slots", "where")

    def __init__(self, slots: list[Slot], fits: Fits) -> None:
        self.slots = slots
        self.fits = fits
        self.holder: dict[int, str] = {}  # slot -> card
        self.where: dict[str, int] = {}  # card -> slot

    def unplaced(self, cards: list[str]) -> list[str]:
        return [card for card in cards if card not in self.where]

    def place(self, card: str, strict: bool, visited: set[int]) -> bool:
        """Put ``card`` in a slot it fits, along an augmenting path."""
        for slot, spot in enumerate(self.slots):
            if slot in visited or not self.fits(card, spot, strict):
                continue
            visited.add(slot)
            other = self.holder.get(slot)
            if other is None or self.place(other, strict, visited):
                self.holder[slot] = card
                self.where[card] = slot
                return True
        return False
