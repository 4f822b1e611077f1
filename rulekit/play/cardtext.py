"""The pack's cards as a player reads them: their names and texts.

The ``cards [NAME]`` command lists them by ``type``, one line per distinct card.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text

from rulekit.engine.game import Game
from rulekit.play.prompt import Problem, match_name
from rulekit.play.styles import STYLE_HEAD, STYLE_HIDDEN, STYLE_SECTION


def card_text(game: Game, item: object) -> str | None:
    """The rules text of ``item``, if it is a card that has one."""
    props = game.symbols.cards.get(item) if isinstance(item, str) else None
    text = props.get("text") if props else None
    return text if isinstance(text, str) and text else None


def card_named(game: Game, typed: str) -> str | None:
    """The name of the one card whose name is, or starts with, ``typed``."""
    if not typed.strip():
        return None
    names = sorted({game.label(card) for card in game.symbols.cards})
    found = match_name(names, typed)
    return None if isinstance(found, Problem) else names[found]


def card_list(game: Game, name: str = "") -> RenderableType:
    """Every distinct card whose name contains ``name``, with its text.

    The cards are grouped by type, in the pack's order.
    """
    groups = _by_type(game, name.strip().lower())
    if not groups:
        return Text(f"No card's name contains '{name.strip()}'.")
    lines: list[RenderableType] = []
    for kind, members in groups.items():
        if kind and len(groups) > 1:
            lines.append(Text(kind[:1].upper() + kind[1:], style=STYLE_SECTION))
        lines += [_card_line(label, text) for label, text in members.items()]
    return Group(*lines)


def _by_type(game: Game, wanted: str) -> dict[str, dict[str, str | None]]:
    """Type -> name -> text of the cards whose name has ``wanted``."""
    groups: dict[str, dict[str, str | None]] = {}
    for card, props in game.symbols.cards.items():
        label = game.label(card)
        if wanted in label.lower():
            kind = props.get("type")
            members = groups.setdefault("" if kind is None else str(kind).replace("_", " "), {})
            members.setdefault(label, card_text(game, card))
    return groups


def _card_line(label: str, text: str | None) -> Text:
    """A card's name, and its text if any."""
    line = Text.assemble(("  " + label, STYLE_HEAD))
    if text:
        line.append(": " + text, style=STYLE_HIDDEN)
    return line


__all__ = ["card_list", "card_named", "card_text"]
