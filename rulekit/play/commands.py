"""The commands a person may type at a prompt, and the help."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.text import Text

from rulekit.play.cardtext import card_list
from rulekit.play.keeper import shell_path
from rulekit.play.menuview import MORE
from rulekit.play.prompt import Command, Menu
from rulekit.play.styles import STYLE_HIDDEN, STYLE_KEY, STYLE_SECTION

if TYPE_CHECKING:
    from rulekit.play.session import Session

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
    """Answer a command typed at ``role``'s prompt; False if it leaves.

    After the answer, the question it interrupted is asked again.
    """
    if typed.name == "quit":
        session.keeper.tell()
        session.screen.note("Goodbye.")
        return False
    ANSWERS[typed.name](session, typed.argument, role, menu)
    session.screen.show(Text(f"Back to: {menu.decision.prompt}", style=STYLE_HIDDEN))
    return True


def _help(session: Session, argument: str, role: str, menu: Menu) -> None:
    """The help, with the game's save file."""
    session.screen.show(help_text(shell_path(session.keeper.path)))


def _log(session: Session, argument: str, role: str, menu: Menu) -> None:
    """The events seen, or the last N of them."""
    session.feed.log(role, argument)


def _board(session: Session, argument: str, role: str, menu: Menu) -> None:
    """The whole table as ``role`` sees it."""
    obs = session.game.observe(session.state_now(), role)
    session.screen.show(session.render.header(obs, role))
    for section in session.render.view(obs, role):
        session.screen.show(section)


def _cards(session: Session, argument: str, role: str, menu: Menu) -> None:
    """The pack's cards, or those named."""
    session.screen.show(card_list(session.game, argument))


def _pile(session: Session, argument: str, role: str, menu: Menu) -> None:
    """Every card of the piles named."""
    obs = session.game.observe(session.state_now(), role)
    session.screen.show(session.render.piles(obs, argument))


def _more(session: Session, argument: str, role: str, menu: Menu) -> None:
    """Every line of the question's menu."""
    session.screen.show(session.render.decision(menu, role))


def _map(session: Session, argument: str, role: str, menu: Menu) -> None:
    """The whole board."""
    session.screen.show(session.render.map())


def _save(session: Session, argument: str, role: str, menu: Menu) -> None:
    """Say where the game is saved, or save a copy to a file."""
    if argument:
        session.keeper.copy(Path(argument))
    else:
        session.keeper.tell()


ANSWERS: dict[str, Callable[[Session, str, str, Menu], None]] = {
    "help": _help, "log": _log, "board": _board, "cards": _cards, "pile": _pile,
    MORE: _more, "map": _map, "save": _save,
}


def help_text(default_save: str) -> RenderableType:
    """How to answer, the commands, and where the game is saved."""
    lines: list[RenderableType] = [
        Text("How to answer", style=STYLE_SECTION),
        Text("  One choice: type its line's number, or the start of its name. Enter takes "
             "the only answer of a question that has one."),
        Text("  Several: numbers separated by spaces or commas (1 3 4), a range (1-3), all "
             "or none."),
        Text("  An action you may take at any time has a letter (a, b...): type it."),
        Text("Commands", style=STYLE_SECTION),
    ]
    lines += [Text.assemble(("  " + name.ljust(12), STYLE_KEY), text)
              for name, text in HELP_COMMANDS]
    lines.append(Text(f"  The game is saved to {default_save} before every question, so "
                      f"closing the terminal or Ctrl-C loses nothing; rulekit play --list "
                      f"shows the games still on."))
    return Group(*lines)


__all__ = ["HELP_COMMANDS", "answer_command", "help_text"]
