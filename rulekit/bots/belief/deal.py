"""Card places a player cannot see, and dealing them again (the chance a player cannot tell)."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from rulekit.engine.game import copy_state
from rulekit.errors import IllegalActionError

if TYPE_CHECKING:
    from rulekit.engine.game import Game, State
    from rulekit.engine.hidden import Kind


class Deal:
    """Where :func:`redeal` deals the cards a role cannot see, in one layout of the cards.

    It is found once and used for every new deal of a state with the same cards in the same
    places. ``pools`` holds the cards of each kind (the same ``type`` and ``owner``) with at
    least two such cards, in the order of their places. A deal shuffles each pool and lays the
    pools end to end, then ``fixed``, the cards that stay. ``piles`` gives each pile that holds
    a pooled card as the positions of its cards in that flat list. ``watched`` holds the
    places of the cards a pending decision offers or was answered with: a deal that moves one
    asks the decision again.
    """

    __slots__ = ("fixed", "piles", "pools", "watched")

    def __init__(self, game: Game, state: State, role: str) -> None:
        kinds = game.layout.card_kind
        zones = state["zones"]
        by_kind: dict[Kind, list[tuple[str, int, str]]] = {}
        for key, own_shown in game.layout.hidden_piles[role]:
            for index, card in enumerate(zones[key]):
                kind = kinds[card]
                if own_shown and kind.owner == role:
                    continue
                by_kind.setdefault(kind, []).append((key, index, card))
        groups = [places for places in by_kind.values() if len(places) > 1]
        self.pools = [[card for _, _, card in places] for places in groups]
        flat: dict[tuple[str, int], int] = {}
        for places in groups:
            for key, index, _ in places:
                flat[key, index] = len(flat)
        self.fixed: list[str] = []
        self.piles: list[tuple[str, list[int]]] = []
        for key in dict.fromkeys(key for places in groups for key, _, _ in places):
            plan = []
            for index, card in enumerate(zones[key]):
                at = flat.get((key, index))
                if at is None:
                    at = len(flat) + len(self.fixed)
                    self.fixed.append(card)
                plan.append(at)
            self.piles.append((key, plan))
        named = named_cards(state)
        self.watched = [(key, index, card) for places in groups for key, index, card in places
                        if card in named]


def named_cards(state: State) -> set[str]:
    """The cards a pending decision of ``state`` offers or was answered with."""
    named: set[str] = set()
    for spec in state["pending"]:
        for item in spec["items"]:
            if item.__class__ is str:
                named.add(item)
            elif item.__class__ is list:
                named.update(i for i in item if i.__class__ is str)
    for answer in state["committed"].values():
        named.update(answer.split("+"))
    return named


def redeal(game: Game, state: State, role: str, rand: random.Random,
           deal: Deal | None = None) -> bool:
    """Deal again, in place, every card ``role`` cannot see among the places it cannot see.

    Each pile keeps its size, and cards move only among cards of the same kind (the same
    ``type`` and ``owner`` properties), so a token never lands where a check was: each kind's
    cards take a uniform random order over its places. The generator state is renewed too.
    ``deal`` (a :class:`Deal` of this state, or of one with the same cards in the same places)
    saves finding the places again. True if a card that a pending decision offers or was
    answered with moved (the decision must then be asked again).
    """
    if deal is None:
        deal = Deal(game, state, role)
    flat: list[str] = []
    for pool in deal.pools:
        cards = pool.copy()
        rand.shuffle(cards)
        flat += cards
    flat += deal.fixed
    zones = state["zones"]
    for key, plan in deal.piles:
        zones[key] = [flat[at] for at in plan]
    state["rng"] = rand.getrandbits(64)
    return any(zones[key][index] != card for key, index, card in deal.watched)


def ask_again(game: Game, state: State, rand: random.Random, *, mine: str | None = None
              ) -> State:
    """Build the pending decisions of ``state`` again from its (re-dealt) cards.

    The answers already committed are kept where they are still legal; an answer that no
    longer is gives way to another legal one drawn with ``rand``, so who is still deciding does
    not change. With ``mine``, only that player's answer is kept so: the answers of the others
    (which ``mine`` has not seen) are all drawn again.
    """
    if not state["pending"]:
        return state
    committed = state["committed"]
    state["pending"] = []
    state["committed"] = {}
    state["stack"][-1]["pc"] -= 1  # a choice is a block of its own, just before the frame's pc
    game.run(state)
    if not committed:
        return state
    for decision in game.pending(state):
        answer = committed.get(decision.player)
        if answer is None:
            continue
        option = None
        if mine is None or decision.player == mine:
            with contextlib.suppress(IllegalActionError):  # no longer legal: drawn below
                option = decision.option(answer)
        if option is None:
            option = decision.sample(rand)
        state = game.apply(state, {decision.player: option}, in_place=True)
    return state


def project_cards(state: State, observation: dict[str, Any]) -> int:
    """Make the cards of ``state`` show what ``observation`` shows, in place.

    Every card the observer sees at a place is swapped in from a place it cannot see, or from
    another place it sees that shows the wrong card; pile sizes must already agree. The number
    of swaps made, or -1 if that is impossible (the state is then inconsistent).
    """
    zones = state["zones"]
    seen = observation["zones"]
    counts, shown_piles = _shown(observation, zones)
    if tuple(map(len, zones.values())) != counts:
        return -1
    for key, shown in shown_piles:
        pile = zones[key]
        if shown != pile and not all(s is None or s == c
                                     for s, c in zip(shown, pile, strict=True)):
            break
    else:  # every card shown is where it is shown (most states a replay reaches)
        return 0
    movable: dict[str, tuple[str, int]] = {}  # card -> a place it may be swapped out of
    wrong: list[tuple[str, int, str]] = []  # places showing the wrong card, and the right one
    for key, pile in zones.items():  # (the sizes agree: compared above)
        shown = seen[key].get("cards")
        for index, card in enumerate(pile):
            if shown is None or shown[index] is None:
                movable[card] = (key, index)
            elif shown[index] != card:
                movable[card] = (key, index)
                wrong.append((key, index, shown[index]))
    for key, index, card in wrong:
        place = movable.pop(card, None)
        if place is None:
            return -1
        other = zones[key][index]
        if other == card:
            continue
        zones[place[0]][place[1]] = other
        zones[key][index] = card
        movable[other] = place
    return len(wrong)


# The last observation :func:`project_cards` was given, with what it reads of it (a replay
# projects every state it keeps on the same observation): (observation, the piles' keys, the
# size of each pile, and each pile whose cards it shows, with those cards).
_last_shown: list[tuple[Any, tuple[str, ...], tuple[int, ...], list[tuple[str, Any]]]] = []


def _shown(observation: dict[str, Any], zones: dict[str, list[str]]
           ) -> tuple[tuple[int, ...], list[tuple[str, Any]]]:
    """The size ``observation`` shows of each pile of ``zones`` (in their order), and the
    piles it shows cards of, with the cards (``None`` for a card it does not show)."""
    keys = tuple(zones)
    if _last_shown:
        last, last_keys, counts, shown = _last_shown[0]
        if last is observation and last_keys == keys:
            return counts, shown
    seen = observation["zones"]
    counts = tuple(seen[key]["count"] for key in keys)
    shown = [(key, cards) for key in keys if (cards := seen[key].get("cards")) is not None]
    _last_shown[:] = [(observation, keys, counts, shown)]
    return counts, shown


def deal_to_match(state: State, observation: dict[str, Any]) -> bool:
    """Lay the cards of ``state`` out again, in place, so that every pile has the size the
    observation shows and every card it shows is where it shows it; the other places keep
    their card where they can and take the rest in order. False if cards are missing."""
    zones = state["zones"]
    seen = observation["zones"]
    shown_cards = {c for view in seen.values() for c in view.get("cards") or () if c is not None}
    pool = [c for pile in zones.values() for c in pile if c not in shown_cards]
    free = dict.fromkeys(pool)
    layout: dict[str, list[str | None]] = {}
    for key, view in seen.items():
        shown = view.get("cards") or [None] * view["count"]
        old = zones[key]
        pile: list[str | None] = []
        for index, card in enumerate(shown):
            if card is None and index < len(old) and old[index] in free:
                card = old[index]
                del free[card]
            pile.append(card)
        layout[key] = pile
    rest = iter(list(free))
    for key, pile in layout.items():
        filled = [card if card is not None else next(rest, None) for card in pile]
        if None in filled:
            return False
        zones[key] = cast(list[str], filled)
    return next(rest, None) is None


def hidden_cards(game: Game, state: State, role: str) -> dict[str, Kind]:
    """The cards ``role`` cannot see in ``state``, with their kind (``type``, ``owner``)."""
    kinds = game.layout.card_kind
    zones = state["zones"]
    found: dict[str, Kind] = {}
    for key, own_shown in game.layout.hidden_piles[role]:
        for card in zones[key]:
            kind = kinds[card]
            if own_shown and kind.owner == role:
                continue
            found[card] = kind
    return found


def swappable(game: Game, state: State, role: str, pairs: list[tuple[str, str]]
              ) -> dict[str, str]:
    """A renaming of cards (a permutation) that names ``wanted`` what was ``shown``, for
    each ``(shown, wanted)`` pair, if every card it moves lies where ``role`` cannot see it
    and keeps its kind; otherwise an empty mapping."""
    hidden = hidden_cards(game, state, role)
    mapping: dict[str, str] = {}
    images: dict[str, None] = {}  # an ordered set: nothing depends on hash order
    for shown, wanted in pairs:
        if mapping.get(shown, wanted) != wanted:
            return {}
        kind = hidden.get(shown)
        if kind is None or hidden.get(wanted) != kind or (
                wanted in images and mapping.get(shown) != wanted):
            return {}
        mapping[shown] = wanted
        images[wanted] = None
    # Close it into a permutation: cards named but not renamed take the freed names.
    free_names = [c for c in mapping if c not in images]
    unnamed = [c for c in images if c not in mapping]
    for card in unnamed:
        kind = hidden[card]
        name = next((n for n in free_names if hidden[n] == kind), None)
        if name is None:
            return {}
        free_names.remove(name)
        mapping[card] = name
    return mapping


def relabel(state: State, mapping: dict[str, str]) -> State:
    """A copy of ``state`` with card ids exchanged by ``mapping`` everywhere but the log."""
    get = mapping.get
    new = cast("State", {k: v if k == "log" or k == "zones" else _relabelled(v, get)
                       for k, v in state.items()})
    new["zones"] = {key: [get(card, card) for card in pile]
                    for key, pile in state["zones"].items()}
    new["log"] = list(state["log"])
    new["committed"] = {r: relabel_id(a, mapping) for r, a in state["committed"].items()}
    return new


def _relabelled(value: Any, get: Callable[[str, str], str]) -> Any:
    """``value`` with each text ``t`` in it (at any depth) made ``get(t, t)`` (a function of
    the module, not one nested in :func:`relabel`: a nested function that calls itself is a
    reference cycle, freed only by the cyclic collector)."""
    kind = value.__class__
    if kind is str:
        return get(value, value)
    if kind is list:
        return [_relabelled(v, get) for v in value]
    if kind is dict:
        return {k: _relabelled(v, get) for k, v in value.items()}
    return value


def in_order(state: State, cards: list[str]) -> State | None:
    """A copy of ``state`` whose places holding ``cards`` hold them in that order (the cards
    trade places within their pile); None if they are already in order or do not all lie in
    one pile. A subset answer lists its cards in the order of their pile."""
    for key, pile in state["zones"].items():
        if cards[0] not in pile:
            continue
        places = sorted(pile.index(card) for card in cards if card in pile)
        if len(places) != len(cards) or all(pile[i] == c for i, c in zip(places, cards,
                                                                            strict=True)):
            return None
        new = copy_state(state)
        moved = new["zones"][key]
        for i, card in zip(places, cards, strict=True):
            moved[i] = card
        return new
    return None


def reordered(game: Game, state: State, role: str, pairs: list[tuple[str, str]]
              ) -> State | None:
    """A copy of ``state`` where, for each ``(shown, wanted)`` pair, ``wanted`` takes the
    place of ``shown``, if the pairs only reorder cards within one pile ``role`` cannot see
    (an order it cannot tell); otherwise None."""
    shown = [a for a, _ in pairs]
    if sorted(shown) != sorted(b for _, b in pairs) or len(set(shown)) != len(shown):
        return None
    zones = state["zones"]
    for key, _ in game.layout.hidden_piles[role]:
        pile = zones[key]
        if shown[0] not in pile:
            continue
        if any(card not in pile for card in shown):
            return None
        new = copy_state(state)
        moved = new["zones"][key]
        for a, b in pairs:
            moved[pile.index(a)] = b
        return new
    return None


def relabel_id(option_id: str, mapping: dict[str, str]) -> str:
    """An option id (card ids joined by ``+``) with card ids exchanged by ``mapping``."""
    return "+".join(mapping.get(part, part) for part in option_id.split("+"))


def gather(game: Game, state: State, player: str, hidden: dict[str, Kind],
            named: list[str], offered: list[str]) -> dict[str, str]:
    """A swap of cards ``hidden`` (card -> kind) that puts the cards of ``named`` not offered
    to ``player`` into the pile the offered cards lie in (else a pile only ``player`` sees), in
    the place of cards there that are not named: of the same kind where there is one, else of
    the same owner. A named card with no such place in a pile stays where it is (the log names
    cards of several kinds, which do not all go to one pile). Empty if none fits."""
    zones = state["zones"]
    piles = [key for key, cards in zones.items() if any(c in offered for c in cards)]
    piles += [pile.key for pile in game.layout.piles
              if pile.visibility == "owner" and pile.owner == player and pile.key not in piles]
    for key in piles:
        pile = zones[key]
        missing = [c for c in named if c not in pile and c not in offered]
        spare = [c for c in pile if c in hidden and c not in named and c not in offered]
        mapping: dict[str, str] = {}
        for card in missing:
            kind = hidden[card]
            victim = next((c for c in spare if hidden[c] == kind), None) or \
                next((c for c in spare if hidden[c][1] == kind[1]), None)
            if victim is None:
                continue  # a card of another kind (named further on) goes elsewhere or not
            spare.remove(victim)
            mapping[card], mapping[victim] = victim, card
        if mapping:
            return mapping
    return {}
