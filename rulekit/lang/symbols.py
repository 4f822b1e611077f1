"""What a pack declares, as the effect-language checker and compiler see it.

The pack loader builds one :class:`Symbols` from a pack's YAML files; the checker resolves names
against it and the compiler reads it. Nothing here is specific to any game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rulekit.errors import Location
from rulekit.lang import nodes as n
from rulekit.lang.parser import Snippet

VISIBILITIES = ("public", "owner", "hidden")
PARAM_TYPES = ("int", "bool", "text", "role", "card", "list", "any")


@dataclass
class ZoneDecl:
    name: str
    per_role: bool = False
    visibility: str = "public"
    initial: str | list[str] | None = None
    location: Location | None = None


@dataclass
class VarDecl:
    name: str
    initial: Any = 0
    per_role: bool = False
    minimum: int | None = None
    maximum: int | None = None
    visibility: str = "public"
    location: Location | None = None

    @property
    def type(self) -> str:
        value = self.initial
        if isinstance(value, bool):
            return "bool"
        if isinstance(value, int):
            return "int"
        if isinstance(value, str):
            return "text"
        return "any"


@dataclass
class FuncDecl:
    name: str
    params: list[tuple[str, str]]
    snippet: Snippet
    body: n.Expr | None = None
    nslots: int = 0
    location: Location | None = None


@dataclass
class ProcDecl:
    name: str
    params: list[tuple[str, str]]
    snippet: Snippet
    body: list[n.Stmt] = field(default_factory=list)
    nslots: int = 0
    location: Location | None = None


@dataclass
class Symbols:
    """Every name a pack declares."""

    roles: list[str]
    cards: dict[str, dict[str, Any]]
    zones: dict[str, ZoneDecl]
    variables: dict[str, VarDecl]
    parameters: dict[str, int]
    functions: dict[str, FuncDecl] = field(default_factory=dict)
    procedures: dict[str, ProcDecl] = field(default_factory=dict)
    phases: list[str] = field(default_factory=list)

    def card_properties(self) -> dict[str, str]:
        """Every card property name with its type (``any`` if the cards disagree)."""
        props: dict[str, str] = {"id": "text", "name": "text"}
        for card in self.cards.values():
            for key, value in card.items():
                kind = _value_type(value)
                if key in props and props[key] != kind:
                    props[key] = "any"
                else:
                    props.setdefault(key, kind)
        return props


def _value_type(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, str):
        return "text"
    return "any"
