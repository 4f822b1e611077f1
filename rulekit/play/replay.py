"""``rulekit replay``: step through a saved (or finished) game, one event at a time.

The game is rebuilt from its save file (seed and decisions, with the very pack version it was
played with) and its log is shown as one player saw it (``--as ROLE``: the public events and
that player's private ones) or as everyone saw it (``--as all``: every event, each private one
marked with whom it was for). Without ``--as``, a finished game is shown as everyone saw it; a
game still on only as its one person saw it (with several people at the table, ``--as`` must
say whose view), and its seed is not shown. Enter shows the next event, ``a`` all the rest,
``q`` stops.
"""

from __future__ import annotations

from typing import Any

from rich.panel import Panel
from rich.text import Text

from rulekit.errors import UsageError, did_you_mean
from rulekit.play.render import Renderer, phase_names, round_count
from rulekit.play.savefile import HUMAN, SavedGame, rebuild
from rulekit.play.screen import Screen

EVERYONE = "all"


def run_replay(loaded: Any, saved: SavedGame, where: str, screen: Screen,
               as_role: str | None = None, all_at_once: bool = False) -> int:
    """Show the saved game ``saved`` (of ``loaded``, a LoadedPack); the exit code."""
    game = loaded.game
    if as_role is not None and as_role != EVERYONE and as_role not in game.role_names:
        choices = [*game.roles, EVERYONE]
        hint = did_you_mean(as_role, choices) or f"choose one of: {', '.join(choices)}"
        raise UsageError(f"unknown role '{as_role}' for --as", hint)
    state = rebuild(game, saved, where)
    viewer = as_role if as_role is not None else default_viewer(saved, state, where)
    render = Renderer(game, phase_names(loaded.documents),
                      round_count(loaded.documents, dict(game.params)))
    if viewer == EVERYONE:
        events: list[dict[str, Any]] = list(state["log"])
        seen_by = "everyone"
        who: str | None = None
    else:
        events = list(game.observe(state, viewer)["log"])
        seen_by = render.name(viewer)
        who = viewer
    events = [event for event in events if event.get("e") != "end"]  # the final banner
    seats = ", ".join(f"{render.name(role)}: {'person' if spec == HUMAN else spec + ' bot'}"
                      for role, spec in saved.seats.items())
    seed = f", seed {saved.seed}" if state["result"] is not None or who is None else ""
    screen.show(Text(f"Replay of {game.pack_name} {game.version}{seed}, as seen by {seen_by}",
                     style="bold"))
    screen.show(Text(f"{seats}; {len(saved.decisions)} decisions, {len(events)} events"))
    if not all_at_once:
        screen.note("Enter: next event, a: all the rest, q: stop.")
    screen.blank()
    last: int | None = None
    for number, event in enumerate(events, start=1):
        for line in render.events([event], who, last):
            screen.show(line)
        round_number = event.get("round")
        last = round_number if isinstance(round_number, int) else last
        if all_at_once or number == len(events):
            continue
        try:
            answer = screen.ask(f"[{number}/{len(events)}] ").strip().lower()
        except EOFError:
            screen.note("End of input: the replay stops here.")
            return 0
        if answer in ("q", "quit"):
            return 0
        if answer in ("a", "all"):
            all_at_once = True
    screen.blank()
    result = state["result"]
    if result is not None:
        winner = result.get("winner")
        banner = f"{render.name(winner)} wins." if winner else "Nobody wins."
        screen.show(Panel(Text(f"Game over: {banner} {result.get('reason') or ''}".strip(),
                               style="bold"), expand=False))
    else:
        waiting = ", ".join(render.name(d.player) for d in game.pending(state))
        screen.note(f"The game was saved before its end, waiting for {waiting or 'nobody'}.")
    if who is not None:
        obs = game.observe(state, who)
        screen.show(render.header(obs, who))
        for section in render.view(obs, who):
            screen.show(section)
    return 0


def default_viewer(saved: SavedGame, state: dict[str, Any], where: str) -> str:
    """Whose view a replay shows when ``--as`` is not given: everyone's once the game is over;
    while it is on, that of the only person at the table (with several, one must say)."""
    if state["result"] is not None:
        return EVERYONE
    people = [role for role, spec in saved.seats.items() if spec == HUMAN]
    if len(people) == 1:
        return people[0]
    raise UsageError(f"{where}: this game is not over, and a replay shows only what one "
                     f"player may see", f"say whose view: --as ROLE (roles: "
                     f"{', '.join(saved.seats)}), or --as all to see every secret")


__all__ = ["EVERYONE", "default_viewer", "run_replay"]
