"""The commands a person may type at a prompt, the help, and the cards as a player reads them."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.text import Text

from rulekit.engine.game import Game
from rulekit.play.menuview import menu_block
from rulekit.play.prompt import Command, Menu, Problem, match_name
from rulekit.play.restore import rebuild
from rulekit.play.saves import shell_path
from rulekit.play.styles import STYLE_HEAD, STYLE_HIDDEN, STYLE_KEY, STYLE_SECTION
from rulekit.play.wrapping import Hanging

if TYPE_CHECKING:
    from rulekit.play.session import Session
    from rulekit.play.table import Table

HELP_COMMANDS = (
    ("help", "this help"),
    ("board", "the whole table as you see it"),
    ("cards [NAME]", "the pack's cards with their text (those whose name has NAME)"),
    ("pile NAME", "every card of a pile you may see (a discard pile, say)"),
    ("log [N]", "every event you have seen (or the last N), your private ones too"),
    ("map", "the whole board (packs with a map)"),
    ("more", "every line of a menu too long for the screen"),
    ("save [FILE]", "say where the game is saved (or save a copy to FILE)"),
    ("quit", "leave the game (it stays saved: go on later with rulekit play --resume)"),
)


def answer_command(session: Session, typed: Command, role: str, menu: Menu) -> bool:
    """Answer a command typed at ``role``'s prompt; False if it leaves."""
    screen, render, argument = session.screen, session.render, typed.argument
    match typed.name:
        case "quit":
            if session.hot_seat:  # the next person must not find this one's screen
                screen.clear()
            session.keeper.tell()
            screen.note("Goodbye.")
            return False
        case "help":
            screen.page(help_text(shell_path(session.keeper.path)))
        case "log":
            session.feed.log(role, argument, answers(session, role))
        case "board":
            obs = session.game.observe(session.state_now(), role)
            screen.page(render.header(obs, role), *render.view(obs, role))
        case "cards":
            screen.page(card_list(render.table, argument))
        case "pile":
            screen.page(render.piles(session.game.observe(session.state_now(), role), argument))
        case "more":
            screen.show(menu_block(render, menu, role))
        case "map":
            screen.page(render.map())
        case "save" if argument:
            session.keeper.copy(Path(argument))
        case "save":
            session.keeper.tell()
    screen.show(Text(f"Back to: {menu.decision.prompt}", style=STYLE_HIDDEN))
    return True


def answers(session: Session, role: str) -> list[str]:
    """What ``role`` answered at each of their decisions, as their menu named it."""
    game, render = session.game, session.render
    states = rebuild(game, session.saved_game(), "this game")
    said = []
    for (who, option_id), state in zip(session.decisions, states, strict=False):
        decision = game.decision_for(state, who)
        if who == role and decision is not None:
            menu = render.menu(decision, game.observe(state, role))
            said.append(render.answer(menu, decision.option(option_id)))
    return said


def help_text(default_save: str) -> RenderableType:
    """How to answer, the commands, and where the game is saved."""
    lines: list[RenderableType] = [
        Text("How to answer", style=STYLE_SECTION),
        Text("  One choice: type its key (the number before it: an amount, a value, a "
             "place in your hand), or a word of its name. 0 declines. Enter takes the only "
             "answer of a question that has one."),
        Text("  Several: numbers separated by spaces or commas (1 3 4), a range (1-3), all "
             "or none."),
        Text("  An action you may take at any time has a letter (a, b...): type it."),
        Text("Commands", style=STYLE_SECTION),
    ]
    width = max(len(name) for name, _ in HELP_COMMANDS) + 2
    lines += [Hanging(Text.assemble(("  " + name.ljust(width), STYLE_KEY)), Text(text))
              for name, text in HELP_COMMANDS]
    lines.append(Text(f"  The game is saved to {default_save} before every question, so "
                      f"closing the terminal or Ctrl-C loses nothing; rulekit play --list "
                      f"shows the games still on."))
    return Group(*lines)


def card_named(game: Game, typed: str) -> str | None:
    """The name of the one card whose name is, or starts with, ``typed``."""
    if not typed.strip():
        return None
    names = sorted({game.label(card) for card in game.symbols.cards})
    found = match_name(names, typed)
    return None if isinstance(found, Problem) else names[found]


def card_list(table: Table, name: str = "") -> RenderableType:
    """Every distinct card whose name contains ``name``, with its text and copies, by type."""
    groups = _by_type(table, name.strip().lower())
    if not groups:
        return Text(f"No card's name contains '{name.strip()}'.")
    lines: list[RenderableType] = []
    for kind, members in groups.items():
        if kind and len(groups) > 1:
            lines.append(Text(kind[:1].upper() + kind[1:], style=STYLE_SECTION))
        lines += [Text.assemble(("  " + label, STYLE_HEAD), f" ×{copies}" if copies > 1 else "",
                                (f": {text}", STYLE_HIDDEN) if text else "")
                  for label, (text, copies) in members.items()]
    return Group(*lines)


def _by_type(table: Table, wanted: str) -> dict[str, dict[str, tuple[str | None, int]]]:
    game = table.game
    groups: dict[str, dict[str, tuple[str | None, int]]] = {}
    for card, props in game.symbols.cards.items():
        label = game.label(card)
        if wanted in label.lower():
            kind = props.get("type")
            members = groups.setdefault("" if kind is None else str(kind).replace("_", " "), {})
            text, copies = members.get(label, (table.card_text(card), 0))
            members[label] = (text, copies + 1)
    return groups
