"""A state drawn from one observation alone: what ``determinize`` gives when a belief is lost.

When the belief cannot follow a role's log (a state set up by a scenario, say, or caps that
dropped the true line), the real state is not looked at for anything the role may not see: the
state drawn is a function of ``observe(state, role)`` and the generator only (and of the pack).

- Every variable the role cannot see takes a value its declaration allows, drawn uniformly:
  a ``node``, ``edge``, ``region`` or ``role`` variable any one of them, a ``bool`` either, an
  ``int`` with a ``min`` and a ``max`` any value between. A variable of any other type (a
  list, a text, an int without bounds) keeps its initial value.
- Every card the role does not see is dealt again over every place it does not see: each pile
  keeps the size it shows, and the cards shown stay where they are shown. Which kinds of card
  (the same ``type`` and ``owner``) may lie in which pile is learned once per pack from
  random games of fixed seeds (:func:`where_kinds_go`): public knowledge of the rules, never
  the real state. A deal that cannot keep to it (a kind met where those games never put it)
  deals the cards it could not place over the places left, whatever their kind. A card that
  a pile shows its owner's cards in only goes to a hidden place of that pile if the role does
  not own it.
- The answers the other players have committed (secret until all have answered) are drawn
  again among their legal options; the role's own answer is kept.
- The log is the role's own; the generator, the seed and the count of steps run are new.

What it cannot guarantee: the state drawn may be one the rules could not reach (cards in piles
and a hidden value that no history explains, values held by a procedure in progress kept as
they are); a search still plays on from it, by the rules.
"""

from __future__ import annotations

import random
import weakref
from typing import TYPE_CHECKING, Any, cast

from rulekit.bots.belief.deal import ask_again
from rulekit.engine.frozen import thaw
from rulekit.engine.game import copy_state
from rulekit.engine.hidden import Kind
from rulekit.engine.state import Event

if TYPE_CHECKING:
    from rulekit.engine.game import Game, State

LEARNING_GAMES = 6  # random games played to learn where each kind of card may lie
LEARNING_STEPS = 2_000  # decisions at most per learning game
DRAWS = 20  # draws tried for one that shows the role what it was shown

_kinds_at: weakref.WeakKeyDictionary[Game, dict[str, set[Kind]]] = weakref.WeakKeyDictionary()


def where_kinds_go(game: Game) -> dict[str, set[Kind]]:
    """The kinds of card each pile held at some point of :data:`LEARNING_GAMES` random games
    (seeds 0, 1, ...), learned once per game object."""
    known = _kinds_at.get(game)
    if known is not None:
        return known
    kinds = game.layout.card_kind
    known = {pile.key: set() for pile in game.layout.piles}
    for seed in range(LEARNING_GAMES):
        rng = random.Random(seed)
        state = game.new_game(seed)
        for _ in range(LEARNING_STEPS):
            for key, pile in state["zones"].items():
                known[key].update(kinds[card] for card in pile)
            if game.is_over(state):
                break
            state = game.apply(state, {d.player: d.sample(rng) for d in game.pending(state)},
                               in_place=True)
    _kinds_at[game] = known
    return known


def blind_state(game: Game, state: State, role: str, rand: random.Random) -> State:
    """A full state drawn from ``observe(state, role)`` and ``rand`` alone (see the module).

    A draw that would show ``role`` something else than it was shown (a value nobody sees that
    decides which options ``role`` itself is offered, say) is drawn again, up to
    :data:`DRAWS` times; the last draw is kept if none fits.
    """
    observation = game.observe(state, role)
    for _ in range(DRAWS):
        new = _draw(game, state, role, observation, rand)
        if game.observe(new, role) == observation:
            break
    return new


def _draw(game: Game, state: State, role: str, observation: dict[str, Any],
          rand: random.Random) -> State:
    """One draw of :func:`blind_state`."""
    new = copy_state(state)
    _draw_variables(game, new, role, rand)
    _deal(game, new, observation, rand)
    new["log"] = [cast(Event, dict(event)) for event in observation["log"]]
    new["rng"] = rand.getrandbits(64)
    new["seed"] = rand.getrandbits(63)
    new["steps"] = 0
    return ask_again(game, new, rand, mine=role)


def _draw_variables(game: Game, state: State, role: str, rand: random.Random) -> None:
    """Give every variable ``role`` cannot see a value drawn from its declared domain."""
    symbols = game.symbols
    board = symbols.board
    domains: dict[str, list[Any]] = {
        "node": list(board.nodes), "edge": list(board.edges), "region": list(board.regions),
        "role": list(game.roles), "bool": [False, True]}
    layout = game.layout
    declared = {key: decl for decl in symbols.variables.values()
                for key in layout.keys_of(decl.name, decl.per)}
    values = state["vars"]
    for value in layout.values:
        if value.seen_by(role):
            continue
        key = value.key
        decl = declared[key]
        domain = domains.get(decl.type)
        if domain is None and decl.type == "int" and decl.minimum is not None \
                and decl.maximum is not None:
            domain = list(range(decl.minimum, decl.maximum + 1))
        values[key] = rand.choice(domain) if domain else thaw(layout.initial_values[key])


def _deal(game: Game, state: State, observation: dict[str, Any], rand: random.Random) -> None:
    """Deal every card the observation does not show over every place it does not show."""
    kinds = game.layout.card_kind
    owner_of = game.layout.card_owner
    role = observation["role"]
    views = observation["zones"]
    shown = {card for view in views.values() for card in view.get("cards") or () if card}
    cards = [card for card in kinds if card not in shown]  # in declaration order
    places: list[tuple[str, int, bool]] = []  # (pile, index, open to the role's own cards)
    for key, view in views.items():
        seen = view.get("cards")
        by_card = seen is not None and any(c is None for c in seen)
        for index in range(view["count"]):
            if seen is None or seen[index] is None:
                places.append((key, index, not by_card))
    if len(cards) != len(places):  # cards out of every pile: deal those the state holds
        cards = [state["zones"][key][index] for key, index, _ in places]
        cards.sort(key=list(kinds).index)
    allowed = where_kinds_go(game)
    rand.shuffle(cards)
    order = list(range(len(places)))
    rand.shuffle(order)

    def fits(card: str, place: tuple[str, int, bool], strict: bool) -> bool:
        if not place[2] and owner_of.get(card) == role:
            return False
        return not strict or kinds[card] in allowed[place[0]]

    holder = _match(cards, [places[i] for i in order], fits)
    zones = state["zones"]
    for slot, card in holder.items():
        key, index, _ = places[order[slot]]
        zones[key][index] = card


def _match(cards: list[str], places: list[tuple[str, int, bool]], fits: Any) -> dict[int, str]:
    """Place -> card, each card in a place it fits (augmenting paths), those that fit nowhere
    by kind then in any place left that they may take."""
    holder: dict[int, str] = {}
    where: dict[str, int] = {}
    for card in cards:
        _place(card, True, set(), places, fits, holder, where)
    for card in cards:
        if card not in where:
            _place(card, False, set(), places, fits, holder, where)
    free = (slot for slot in range(len(places)) if slot not in holder)
    for card in cards:  # a card its owner would see wherever it went: any place left
        if card not in where:
            holder[next(free)] = card
    return holder


def _place(card: str, strict: bool, visited: set[int], places: list[tuple[str, int, bool]],
           fits: Any, holder: dict[int, str], where: dict[str, int]) -> bool:
    """Put ``card`` in a place it fits, moving the card there on along an augmenting path
    (a function of the module, not one nested in :func:`_match`: a nested function that
    calls itself is a reference cycle, freed only by the cyclic collector)."""
    for slot, spot in enumerate(places):
        if slot in visited or not fits(card, spot, strict):
            continue
        visited.add(slot)
        other = holder.get(slot)
        if other is None or _place(other, strict, visited, places, fits, holder, where):
            holder[slot] = card
            where[card] = slot
            return True
    return False
