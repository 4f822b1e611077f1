"""The card places a player cannot see, and dealing their cards again."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, NamedTuple, NotRequired, TypedDict, cast

from rulekit.engine.game import copy_state
from rulekit.engine.observe import Observation

if TYPE_CHECKING:
    from rulekit.engine.decisions import Decision, Option
    from rulekit.engine.game import Game, State
    from rulekit.engine.hidden import Kind


Mixed = tuple[tuple["Kind", ...], ...]  # kinds one to a player since they lay together


class Place(NamedTuple):
    """A card in its place: a pile's key and an index in it."""

    key: str
    at: int
    card: str


class PileView(TypedDict):
    """What an observation shows of a pile: its size, and maybe its cards."""

    count: int
    cards: NotRequired[list[str | None]]  # None where a card is not shown


class Deal:
    """Where :func:`redeal` deals the cards a role cannot see: each pool (a kind of two cards
    or more) shuffled, laid end to end, then ``fixed``; ``piles`` as positions in that list."""

    __slots__ = ("fixed", "piles", "pools", "watched")

    def __init__(self, game: Game, state: State, role: str, mixed: Mixed = ()) -> None:
        groups = _pools(game, state, role, mixed)
        self.pools = [[card for _, _, card in places] for places in groups]
        pooled = list(itertools.chain.from_iterable(groups))
        self.fixed: list[str] = []
        self.piles = self._plans(pooled, state["zones"])
        named = named_cards(state)
        self.watched = [place for place in pooled if place.card in named]

    def _plans(self, pooled: list[Place], zones: dict[str, list[str]]
               ) -> list[tuple[str, list[int]]]:
        flat = {(key, index): at for at, (key, index, _) in enumerate(pooled)}
        keys = dict.fromkeys(key for key, _, _ in pooled)
        return [(key, self._plan(key, zones[key], flat)) for key in keys]

    def _plan(self, key: str, pile: list[str], flat: dict[tuple[str, int], int]) -> list[int]:
        plan = []
        for index, card in enumerate(pile):
            at = flat.get((key, index))
            if at is None:
                at = len(flat) + len(self.fixed)
                self.fixed.append(card)
            plan.append(at)
        return plan


def _pools(game: Game, state: State, role: str, mixed: Mixed) -> list[list[Place]]:
    pools: dict[Kind, list[Place]] = {}
    for key, index, card, kind in _hidden_places(game, state, role, mixed):
        pools.setdefault(kind, []).append(Place(key, index, card))
    return [places for places in pools.values() if len(places) > 1]


def _hidden_places(game: Game, state: State, role: str, mixed: Mixed = ()
                   ) -> Iterator[tuple[str, int, str, Kind]]:
    """The cards ``role`` cannot see, where they lie, and the kind it may tell them by."""
    merged = merged_kinds(game, state, role, mixed)
    for key, index, card, kind in _unseen(game, state, role):
        yield key, index, card, merged.get(kind, kind)


def merged_kinds(game: Game, state: State, role: str, mixed: Mixed = ()) -> dict[Kind, Kind]:
    """Each kind of card as ``role`` tells it: kinds that lie together in a pile it cannot see
    are one (a shuffled deck shows no card's type), and so are those of each group of ``mixed``."""
    parent: dict[Kind, Kind] = {}
    first_in: dict[str, Kind] = {}  # a pile -> the kind of its first unseen card

    def root(kind: Kind) -> Kind:
        while parent.get(kind, kind) != kind:
            kind = parent[kind]
        return kind

    for key, _, _, kind in _unseen(game, state, role):
        parent[root(kind)] = root(first_in.setdefault(key, kind))
    for group in mixed:
        for kind in group[1:]:
            parent[root(kind)] = root(group[0])
    return {kind: root(kind) for kind in parent}


def kind_groups(merged: Mapping[Kind, Kind]) -> Mixed:
    """The groups of two kinds or more that ``merged`` makes one, in a steady order."""
    groups: dict[Kind, list[Kind]] = {}
    for kind, root in merged.items():
        groups.setdefault(root, []).append(kind)
    return tuple(tuple(sorted(group, key=repr)) for group in groups.values() if len(group) > 1)


def common(a: Mixed, b: Mixed) -> Mixed:
    """The groups of kinds that are one in both ``a`` and ``b``."""
    if a == b:
        return a
    found = (tuple(k for k in one if k in other) for one in a for other in b)
    return tuple(group for group in found if len(group) > 1)


def _unseen(game: Game, state: State, role: str) -> Iterator[tuple[str, int, str, Kind]]:
    kinds = game.layout.card_kind
    for key, own_shown in game.layout.hidden_piles[role]:
        for index, card in enumerate(state["zones"][key]):
            kind = kinds[card]
            if not own_shown or kind.owner != role:
                yield key, index, card, kind


def named_cards(state: State) -> set[str]:
    """The cards a pending decision offers or was answered with."""
    named = {card for answer in state["committed"].values() for card in answer.split("+")}
    for spec in state["pending"]:
        for item in spec["items"]:
            named.update(_texts(item))
    return named


def _texts(item: object) -> list[str]:
    if type(item) is str:
        return [item]
    if type(item) is list:
        return [i for i in item if i.__class__ is str]
    return []


def redeal(game: Game, state: State, role: str, rand: random.Random,
           deal: Deal | None = None) -> bool:
    """Deal again, in place, the cards ``role`` cannot see. True if a named card moved or
    another player is asked (its options may hang on the cards it now holds)."""
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
    if deal.pools and any(spec["player"] != role for spec in state["pending"]):
        return True
    return any(zones[key][index] != card for key, index, card in deal.watched)


def ask_again(game: Game, state: State, rand: random.Random, *, mine: str | None = None
              ) -> State:
    """Ask the pending decisions again after a new deal, keeping the answers still legal."""
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
        if answer is not None:
            option = _answer_again(decision, answer, rand, mine)
            state = game.apply(state, {decision.player: option}, in_place=True)
    return state


def _answer_again(decision: Decision, answer: str, rand: random.Random, mine: str | None
                  ) -> Option:
    option = None
    if mine is None or decision.player == mine:
        option = decision.legal_option(answer)
    return decision.sample(rand) if option is None else option


def project_cards(state: State, observation: Observation) -> int:
    """Swap the cards of ``state`` to show ``observation``. The swaps, or -1."""
    zones = state["zones"]
    seen = observation["zones"]
    if any(len(pile) != seen[key]["count"] for key, pile in zones.items()):
        return -1
    movable, wrong = _misplaced(zones, seen)
    return _swap_in(zones, movable, wrong)


def _misplaced(zones: dict[str, list[str]], seen: Mapping[str, PileView]
               ) -> tuple[dict[str, tuple[str, int]], list[Place]]:
    """The cards that may move, and the places showing a wrong card."""
    movable: dict[str, tuple[str, int]] = {}
    wrong: list[Place] = []
    for key, pile in zones.items():
        shown = seen[key].get("cards")
        for index, card in enumerate(pile):
            want = None if shown is None else shown[index]
            if want != card:
                movable[card] = (key, index)
                if want is not None:
                    wrong.append(Place(key, index, want))
    return movable, wrong


def _swap_in(zones: dict[str, list[str]], movable: dict[str, tuple[str, int]],
             wrong: list[Place]) -> int:
    """Swap the right card into each ``wrong`` place; -1 if one is missing."""
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


def deal_to_match(state: State, observation: Observation) -> bool:
    """Lay the cards of ``state`` out again to show ``observation``. False if it cannot."""
    zones = state["zones"]
    seen = observation["zones"]
    shown = shown_cards(seen)
    free = dict.fromkeys(c for pile in zones.values() for c in pile if c not in shown)
    layout = {key: _unshown_kept(view, zones[key], free) for key, view in seen.items()}
    return _filled(zones, layout, iter(list(free)))


def shown_cards(views: Mapping[str, PileView]) -> set[str]:
    """The cards an observation's piles show."""
    return {card for view in views.values() for card in view.get("cards") or () if card}


def _filled(zones: dict[str, list[str]], layout: dict[str, list[str | None]],
            rest: Iterator[str]) -> bool:
    for key, pile in layout.items():
        filled = [card or next(rest, None) for card in pile]
        cards = [card for card in filled if card is not None]
        if len(cards) != len(filled):
            return False
        zones[key] = cards
    return next(rest, None) is None


def _unshown_kept(view: PileView, old: list[str], free: dict[str, None]) -> list[str | None]:
    """A pile as ``view`` shows it, keeping the ``free`` cards of ``old``."""
    shown = view.get("cards") or [None] * view["count"]
    pile: list[str | None] = []
    for index, card in enumerate(shown):
        if card is None and index < len(old) and old[index] in free:
            card = old[index]
            del free[card]
        pile.append(card)
    return pile


def unseen_cards(game: Game, state: State, role: str) -> dict[str, Kind]:
    """The cards ``role`` cannot see in ``state``, with their own kind."""
    return {card: kind for _, _, card, kind in _unseen(game, state, role)}


def hidden_cards(game: Game, state: State, role: str) -> dict[str, Kind]:
    """The cards ``role`` cannot see in ``state``, with their kind."""
    return {card: kind for _, _, card, kind in _hidden_places(game, state, role)}


def swappable(game: Game, state: State, role: str, pairs: list[tuple[str, str]]
              ) -> dict[str, str]:
    """A renaming of hidden cards, by kind, naming ``wanted`` what was ``shown``."""
    hidden = hidden_cards(game, state, role)
    mapping = _renaming(hidden, pairs)
    return {} if mapping is None else _closed(mapping, hidden)


def _renaming(hidden: dict[str, Kind], pairs: list[tuple[str, str]]) -> dict[str, str] | None:
    mapping = dict(pairs)
    one_to_one = len(mapping) == len(set(pairs)) == len(set(mapping.values()))
    if one_to_one and all(a in hidden and hidden[a] == hidden.get(b) for a, b in pairs):
        return mapping
    return None


def _closed(mapping: dict[str, str], hidden: dict[str, Kind]) -> dict[str, str]:
    images = list(mapping.values())
    free_names = outside(mapping, images)
    for card in outside(images, mapping):
        name = next((n for n in free_names if hidden[n] == hidden[card]), None)
        if name is None:
            return {}
        free_names.remove(name)
        mapping[card] = name
    return mapping


def relabel(state: State, mapping: dict[str, str]) -> State:
    """A copy of ``state`` with cards renamed by ``mapping``, but in its log."""
    get = mapping.get
    new = cast("State", {k: v if k in ("log", "zones") else _relabelled(v, get)
                       for k, v in state.items()})
    new["zones"] = {key: [get(card, card) for card in pile]
                    for key, pile in state["zones"].items()}
    new["log"] = list(state["log"])
    new["committed"] = {r: relabel_id(a, mapping) for r, a in state["committed"].items()}
    return new


def _relabelled(value: object, get: Callable[[str, str], str]) -> object:
    """``value`` with each text ``t`` made ``get(t, t)``. Not nested: that makes a cycle."""
    if type(value) is str:
        return get(value, value)
    if type(value) is list:
        return [_relabelled(v, get) for v in value]
    if type(value) is dict:
        return {k: _relabelled(v, get) for k, v in value.items()}
    return value


def relabel_id(option_id: str, mapping: dict[str, str]) -> str:
    """An option id with its cards renamed by ``mapping``."""
    return "+".join(mapping.get(part, part) for part in option_id.split("+"))


def in_order(state: State, cards: list[str]) -> State | None:
    """A copy of ``state`` with ``cards`` in that order in their pile, or None."""
    key = _pile_holding(state["zones"], state["zones"], cards)
    if key is None:
        return None
    pile = state["zones"][key]
    places = sorted(pile.index(card) for card in cards)
    if all(pile[i] == c for i, c in zip(places, cards, strict=True)):
        return None
    return _with_cards_at(state, key, zip(places, cards, strict=True))


def reordered(game: Game, state: State, role: str, pairs: list[tuple[str, str]]
              ) -> State | None:
    """A copy of ``state`` with ``wanted`` for ``shown`` within one hidden pile, else None."""
    if not _reorders(pairs):
        return None
    zones = state["zones"]
    key = _pile_holding(zones, [key for key, _ in game.layout.hidden_piles[role]],
                        [a for a, _ in pairs])
    if key is None:
        return None
    pile = zones[key]
    return _with_cards_at(state, key, [(pile.index(a), b) for a, b in pairs])


def _reorders(pairs: list[tuple[str, str]]) -> bool:
    shown = [a for a, _ in pairs]
    return sorted(shown) == sorted(b for _, b in pairs) and len(set(shown)) == len(shown)


def _pile_holding(zones: dict[str, list[str]], keys: Iterable[str], cards: list[str]
                  ) -> str | None:
    key = next((key for key in keys if cards[0] in zones[key]), None)
    return key if key is not None and all(card in zones[key] for card in cards) else None


def _with_cards_at(state: State, key: str, placed: Iterable[tuple[int, str]]) -> State:
    new = copy_state(state)
    pile = new["zones"][key]
    for index, card in placed:
        pile[index] = card
    return new


def gather(game: Game, state: State, player: str, hidden: dict[str, Kind],
           named: list[str], offered: list[str]) -> dict[str, str]:
    """A swap of ``hidden`` cards (maybe none) that gathers the cards ``named`` where the
    ``offered`` ones lie, else in a pile only ``player`` sees."""
    zones = state["zones"]
    for key in _gathering_piles(game, zones, player, offered):
        mapping = _gathered_into(zones[key], hidden, named, offered)
        if mapping:
            return mapping
    return {}


def _gathering_piles(game: Game, zones: dict[str, list[str]], player: str,
                     offered: list[str]) -> list[str]:
    wanted = set(offered)
    piles = [key for key, cards in zones.items() if not wanted.isdisjoint(cards)]
    owned = [pile.key for pile in game.layout.piles
             if (pile.visibility, pile.owner) == ("owner", player)]
    return list(dict.fromkeys(piles + owned))


def _gathered_into(pile: list[str], hidden: dict[str, Kind], named: list[str],
                   offered: list[str]) -> dict[str, str]:
    spare = outside([c for c in pile if c in hidden], named, offered)
    mapping: dict[str, str] = {}
    for card in outside(named, pile, offered):
        victim = _like(spare, hidden, hidden[card])
        if victim is not None:
            spare.remove(victim)
            mapping[card], mapping[victim] = victim, card
    return mapping


def outside(cards: Iterable[str], *groups: Collection[str]) -> list[str]:
    """The cards of ``cards`` in none of ``groups``."""
    return [card for card in cards if not any(card in group for group in groups)]


def _like(cards: list[str], kinds: dict[str, Kind], kind: Kind) -> str | None:
    return next((c for c in cards if kinds[c] == kind), None) or \
        next((c for c in cards if kinds[c].owner == kind.owner), None)
