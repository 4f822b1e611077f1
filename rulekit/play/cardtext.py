"""The pack's cards as a player reads them: each card's name and, where the pack gives one, its
``text``; the ``cards [NAME]`` command lists them (one line per distinct card, grouped by their
``type``)."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from rulekit.engine.game import Game

STYLE_GROUP = "bold underline"
STYLE_NAME = "bold"
STYLE_TEXT = "dim"


def card_text(game: Game, item: Any) -> str | None:
    """The rules text of ``item`` if it is a card whose pack gives it one."""
    if not isinstance(item, str):
        return None
    props = game.symbols.cards.get(item)
    text = props.get("text") if props else None
    return text if isinstance(text, str) and text else None


def card_named(game: Game, typed: str) -> str | None:
    """The name of the one card of the pack whose name is ``typed`` or starts with it."""
    lowered = typed.strip().lower()
    if not lowered:
        return None
    names = {game.label(card) for card in game.symbols.cards}
    exact = [name for name in names if name.lower() == lowered]
    found = exact or [name for name in names if name.lower().startswith(lowered)]
    return found[0] if len(found) == 1 else None


def card_list(game: Game, name: str = "") -> RenderableType:
    """Every distinct card of the pack (or those whose name contains ``name``), with its
    text, grouped by type in the pack's order."""
    wanted = name.strip().lower()
    groups: dict[str, dict[str, str | None]] = {}
    for card, props in game.symbols.cards.items():
        label = game.label(card)
        if wanted and wanted not in label.lower():
            continue
        kind = props.get("type")
        members = groups.setdefault(str(kind).replace("_", " ") if kind is not None else "", {})
        members.setdefault(label, card_text(game, card))
    if not groups:
        return Text(f"No card's name contains '{name.strip()}'.")
    lines: list[RenderableType] = []
    for kind, members in groups.items():
        if kind and len(groups) > 1:
            lines.append(Text(kind[:1].upper() + kind[1:], style=STYLE_GROUP))
        for label, text in members.items():
            line = Text.assemble(("  " + label, STYLE_NAME))
            if text:
                line.append(": " + text, style=STYLE_TEXT)
            lines.append(line)
    return Group(*lines)


__all__ = ["card_list", "card_named", "card_text"]
