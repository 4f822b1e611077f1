"""The end of a game: the result, what was hidden, the seed, the save."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import RenderableType
from rich.panel import Panel
from rich.text import Text

from rulekit.engine.state import Result

if TYPE_CHECKING:
    from rulekit.play.render import Renderer
    from rulekit.play.session import Session


def finish(session: Session) -> None:
    """Show the last events, the result, what each held, and the seed."""
    screen = session.screen
    _last_events(session)
    result = session.state_now()["result"]
    assert result is not None
    screen.show(game_over(session.render, result))
    sections = reveal_sections(session)
    if sections:
        screen.show(Text("What was hidden", style="bold underline"))
        screen.show(*sections)
    screen.note(f"The seed of this game was {session.seed}.")
    keep_finished(session)


def _last_events(session: Session) -> None:
    """What happened last: to the person here, or to all in hot seat."""
    if not session.hot_seat:
        session.stream(0)
        return
    session.screen.clear()
    obs = session.game.observe(session.state_now(), session.game.roles[0])
    session.screen.show(session.render.header(obs, None))
    session.feed.recent(None, None)


def game_over(render: Renderer, result: Result) -> Panel:
    """The banner of the result: who wins, and why."""
    winner = result.get("winner")
    banner = f"{render.name(winner)} wins." if winner else "Nobody wins."
    return Panel(Text(f"Game over: {banner} {result.get('reason') or ''}".strip(),
                      style="bold"), expand=False)


def keep_finished(session: Session) -> None:
    """Keep a finished game where the player chose, or if they ask.

    A game saved with ``--save``, or resumed from a file, stays there. Its own save file is kept
    only if the player asks.
    """
    keeper = session.keeper
    if not keeper.automatic:
        keeper.tell("The finished game is saved")
        return
    keeper.keep()  # finished: never listed as a game still on, even if killed now
    try:
        text = session.screen.ask("Press Enter to leave, or type save [FILE] to keep the game "
                                  "for rulekit replay: ")
    except EOFError:
        text = ""
    word, _, rest = text.strip().partition(" ")
    if word.lower() != "save":
        keeper.discard()
    elif rest.strip():
        keeper.copy(Path(rest.strip()))
        keeper.discard()
    else:
        keeper.tell("The finished game is saved")


def reveal_sections(session: Session) -> list[RenderableType]:
    """What each player held that the person here could not see.

    In hot seat, that is every player's.
    """
    if not session.humans:
        return []
    game, state = session.game, session.state_now()
    others = [r for r in game.roles if session.hot_seat or r != session.holder]
    return [section for role in others
            for section in session.render.view(game.observe(state, role), role, only_own=True)]


__all__ = ["finish", "game_over"]
