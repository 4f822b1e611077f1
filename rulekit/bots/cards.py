"""Card places a player cannot see, and dealing them again (the chance a player cannot tell)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from rulekit.errors import IllegalActionError

if TYPE_CHECKING:
    from rulekit.engine.game import Game, State


Slots = list[tuple[list[tuple[str, int]], list[str]]]  # places by kind, and their cards


def redeal(game: Game, state: State, role: str, rand: random.Random,
           slots: Slots | None = None) -> set[str]:
    """Deal again, in place, every card ``role`` cannot see among the places it cannot see.

    Each pile keeps its size, and cards move only among cards of the same kind (the same
    ``type`` and ``owner`` properties), so a token never lands where a check was. The
    generator state is renewed too. ``slots`` (from :func:`deal_slots`) saves finding the
    places again. The cards that moved.
    """
    return game._redeal(state, role, rand, slots)


def deal_slots(game: Game, state: State, role: str) -> Slots:
    """The places of ``state`` that :func:`redeal` deals again, by kind, with their cards."""
    return game._deal_slots(state, role)


def names_any(state: State, cards: set[str]) -> bool:
    """True if a pending decision of ``state`` offers, or was answered with, one of
    ``cards`` (it must then be asked again after a new deal)."""
    if not cards or not state["pending"]:
        return False
    for spec in state["pending"]:
        for item in spec["items"]:
            if item in cards if item.__class__ is str else \
                    item.__class__ is list and not cards.isdisjoint(item):
                return True
    return any(not cards.isdisjoint(answer.split("+"))
               for answer in state["committed"].values())


def ask_again(game: Game, state: State, rand: random.Random) -> State:
    """Build the pending decisions of ``state`` again from its (re-dealt) cards.

    The answers already committed are kept where they are still legal; an answer that no
    longer is gives way to another legal one drawn with ``rand``, so who is still deciding does
    not change.
    """
    if not state["pending"]:
        return state
    committed = state["committed"]
    state["pending"] = []
    state["committed"] = {}
    state["stack"][-1][1] -= 1  # a choice is a block of its own, just before the frame's pc
    game.run(state)
    for decision in game.pending(state):
        answer = committed.get(decision.player)
        if answer is None:
            continue
        try:
            option = decision.option(answer)
        except IllegalActionError:
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
    movable: dict[str, tuple[str, int]] = {}  # card -> a place it may be swapped out of
    wrong: list[tuple[str, int, str]] = []  # places showing the wrong card, and the right one
    for key, pile in zones.items():
        view = seen[key]
        if len(pile) != view["count"]:
            return -1
        shown = view.get("cards")
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
        zones[key] = filled
    return next(rest, None) is None


def hidden_cards(game: Game, state: State, role: str) -> dict[str, tuple[Any, Any]]:
    """The cards ``role`` cannot see in ``state``, with their kind (``type``, ``owner``)."""
    cards = game.symbols.cards
    zones = state["zones"]
    found: dict[str, tuple[Any, Any]] = {}
    for key, owner, vis in game._zone_keys:
        if vis == "public" or (vis == "owner" and owner == role):
            continue
        for card in zones[key]:
            props = cards[card]
            if vis == "card_owner" and props.get("owner") == role:
                continue
            found[card] = (props.get("type"), props.get("owner"))
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
    def sub(value: Any) -> Any:
        if isinstance(value, str):
            return mapping.get(value, value)
        if isinstance(value, list):
            return [sub(v) for v in value]
        if isinstance(value, dict):
            return {k: sub(v) for k, v in value.items()}
        return value

    new = {k: v if k == "log" else sub(v) for k, v in state.items()}
    new["log"] = list(state["log"])
    new["committed"] = {r: relabel_id(a, mapping) for r, a in state["committed"].items()}
    return new


def relabel_id(option_id: str, mapping: dict[str, str]) -> str:
    """An option id (card ids joined by ``+``) with card ids exchanged by ``mapping``."""
    return "+".join(mapping.get(part, part) for part in option_id.split("+"))


def gather(game: Game, state: State, player: str, hidden: dict[str, tuple[Any, Any]],
            named: list[str], offered: list[str]) -> dict[str, str]:
    """A swap of cards ``hidden`` (card -> kind) that puts every card of ``named`` not offered to
    ``player`` into the pile the offered cards lie in (else a pile only ``player`` sees), in
    the place of cards there that are not named: of the same kind where there is one, else of
    the same owner. Empty if none fits."""
    zones = state["zones"]
    piles = [key for key, cards in zones.items() if any(c in offered for c in cards)]
    piles += [key for key, owner, vis in game._zone_keys
              if vis == "owner" and owner == player and key not in piles]
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
                break
            spare.remove(victim)
            mapping[card], mapping[victim] = victim, card
        else:
            if mapping:
                return mapping
    return {}
