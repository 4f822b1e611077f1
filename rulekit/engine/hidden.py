"""Where a game keeps its cards and values, and who may see each (``game.layout``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from rulekit.engine.frozen import FrozenDict, freeze
from rulekit.model.program import zone_key
from rulekit.model.symbols import Symbols, VarDecl, ZoneDecl

PUBLIC = "*"
"""The role of an observer who sees only what every player sees."""


class Place(NamedTuple):
    """One pile of a zone, or one value of a variable, and who may see it."""

    key: str  # its key in the state's "zones" or "vars" ("hand.ROLE" for a per-role zone)
    owner: str | None  # the role it belongs to, if any
    visibility: str  # "public", "owner", "hidden" or "card_owner" (piles only)

    def seen_by(self, role: str) -> bool:
        """Whether ``role`` sees it whole."""
        return self.visibility == "public" or (self.visibility == "owner" and self.owner == role)


class Kind(NamedTuple):
    """What a player may tell apart of two cards it cannot see: type and owner."""

    type: str | None  # the card's "type" property
    owner: str | None  # the card's "owner" property: a role


class HiddenPile(NamedTuple):
    """A pile that one role cannot see whole."""

    key: str
    own_cards_shown: bool  # the role sees its own cards there (a "card_owner" pile)


class Layout:
    """The piles and values of a game's states, their owners and who may see them.

    Also each pile's first cards (bottom first), each first value, each card's kind and owner.
    """

    __slots__ = ("_symbols", "card_kind", "card_owner", "hidden_piles", "initial_piles",
                 "initial_values", "piles", "values")

    def __init__(self, symbols: Symbols) -> None:
        self._symbols = symbols
        self.piles = self._places(symbols.zones.values())
        self.values = self._places(symbols.variables.values())
        self.initial_piles: Mapping[str, tuple[str, ...]] = FrozenDict(
            (key, _initial_cards(symbols, symbols.zones.get(key))) for key, _, _ in self.piles)
        self.initial_values: Mapping[str, Any] = freeze(
            {key: var.initial for var in symbols.variables.values()
             for key in self.keys_of(var.name, var.per)})
        self.card_kind: Mapping[str, Kind] = FrozenDict(
            (card, Kind(props.get("type"), props.get("owner")))
            for card, props in symbols.cards.items())
        self.card_owner: Mapping[str, str | None] = FrozenDict(
            (card, kind.owner) for card, kind in self.card_kind.items())
        self.hidden_piles: Mapping[str, tuple[HiddenPile, ...]] = FrozenDict(
            (role, tuple(HiddenPile(pile.key, pile.visibility == "card_owner")
                         for pile in self.piles if not pile.seen_by(role)))
            for role in (*symbols.roles, PUBLIC))

    def keys_of(self, name: str, per: str | int | None) -> list[str]:
        """The keys of a zone's piles or a variable's values, one per index if ``per``."""
        if per is None:
            return [name]
        return [zone_key(name, index) for index in self._symbols.index_domain(per)]

    def _places(self, decls: Iterable[ZoneDecl | VarDecl]) -> tuple[Place, ...]:
        """Each pile or value of ``decls``; one per role is owned by that role."""
        places: list[Place] = []
        for decl in decls:
            if decl.per == "role":
                places += [Place(zone_key(decl.name, role), role, decl.visibility)
                           for role in self._symbols.roles]
            else:
                places += [Place(key, decl.owner, decl.visibility)
                           for key in self.keys_of(decl.name, decl.per)]
        return tuple(places)


def _initial_cards(symbols: Symbols, zone: ZoneDecl | None) -> tuple[str, ...]:
    """A pile's first cards, bottom first; a zone's ``initial`` lists them top first."""
    if zone is None:  # one pile of a zone with ``per``: it starts empty
        return ()
    if zone.initial == "all":
        return tuple(reversed(symbols.cards))
    if isinstance(zone.initial, list):
        return tuple(reversed(zone.initial))
    return ()
