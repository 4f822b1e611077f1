"""The end of a game at the terminal: the last events, the result, what was hidden, the seed,
and whether the finished game is kept."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.panel import Panel
from rich.text import Text

if TYPE_CHECKING:
    from rulekit.play.session import Session


def finish(session: Session) -> None:
    state, screen, render = session.state_now(), session.screen, session.render
    if session.hot_seat:
        screen.clear()
        obs = session.game.observe(state, session.game.roles[0])
        screen.show(render.header(obs, None))
        session.feed.recent(None, None)
    else:
        session.stream(0)
    result = state["result"]
    assert result is not None
    winner = render.name(result.get("winner")) if result.get("winner") else None
    banner = f"{winner} wins." if winner else "Nobody wins."
    reason = str(result.get("reason") or "")
    screen.show(Panel(Text(f"Game over: {banner} {reason}".strip(), style="bold"),
                      expand=False))
    sections = reveal_sections(session)
    if sections:
        screen.show(Text("What was hidden", style="bold underline"))
        screen.show(*sections)
    screen.note(f"The seed of this game was {session.seed}.")
    keep_finished(session)


def keep_finished(session: Session) -> None:
    """A finished game is kept where the player chose (``--save``, a resumed file); its
    automatic save file only if they ask, for ``rulekit replay``."""
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


def reveal_sections(session: Session) -> list[Any]:
    """What each player held that the person at the screen could not see (every player's,
    in hot seat), now that the game is over."""
    if not session.humans:
        return []
    game, state = session.game, session.state_now()
    others = [r for r in game.roles if session.hot_seat or r != session.holder]
    return [section for role in others
            for section in session.render.view(game.observe(state, role), role, only_own=True)]


__all__ = ["finish"]
