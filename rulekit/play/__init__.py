"""Playing at the terminal: ``rulekit play``, ``rulekit replay`` and ``rulekit map``.

- :mod:`~rulekit.play.session`: the game loop, hot seat;
- :mod:`~rulekit.play.asking`: a person's decision (status, question, answers);
- :mod:`~rulekit.play.commands`: the commands typed at a prompt, and the help;
- :mod:`~rulekit.play.feed`: the events, each told once to each person;
- :mod:`~rulekit.play.ending`: the end of a game (result, what was hidden, keeping it);
- :mod:`~rulekit.play.bot`: a seat played by an agent;
- :mod:`~rulekit.play.seats`: who sits where, in a new game and a resumed one;
- :mod:`~rulekit.play.render`: what a player sees, from ``game.observe``;
- :mod:`~rulekit.play.table`: the pack's ``display:`` section drawn;
- :mod:`~rulekit.play.tablebeliefs`: where a hidden piece may be, from the viewer's belief;
- :mod:`~rulekit.play.boardtext`: the board and the map as text;
- :mod:`~rulekit.play.menuview`: a question's menu, laid out to fit the terminal;
- :mod:`~rulekit.play.wrapping`: text that fits the terminal's width, never breaking a name;
- :mod:`~rulekit.play.styles`: the styles of the table;
- :mod:`~rulekit.play.context`: what a decision is about, written before its prompt;
- :mod:`~rulekit.play.cardtext`: the pack's cards with their text;
- :mod:`~rulekit.play.prompt`: menus numbered by line, and the parsing of typed answers;
- :mod:`~rulekit.play.savefile`: the save file (JSON, read with bounds, written atomically);
- :mod:`~rulekit.play.restore`: a saved game's pack loaded and its decisions replayed;
- :mod:`~rulekit.play.saves`: a file per game, the games still on, no overwriting;
- :mod:`~rulekit.play.keeper`: the game's save file, written as the game goes;
- :mod:`~rulekit.play.signals`: SIGHUP and SIGTERM end a game saved;
- :mod:`~rulekit.play.replay`: stepping through a saved game from one player's view;
- :mod:`~rulekit.play.screen`: the console and the input stream;
- :mod:`~rulekit.play.svgmap`: the map as an SVG picture.
"""

from __future__ import annotations

import secrets
from pathlib import Path

from rich.text import Text

from rulekit.engine.observe import Observation
from rulekit.errors import UsageError
from rulekit.pack.loader import load_pack, parse_params
from rulekit.play.restore import load_saved_pack, pack_change, rebuild
from rulekit.play.savefile import HUMAN, read_save
from rulekit.play.saves import describe, refuse_to_overwrite, unfinished_games
from rulekit.play.screen import Screen
from rulekit.play.seats import named_seats, parse_seats, resumed_seats
from rulekit.play.session import Session

SEED_BITS = 64


def new_seed() -> int:
    """A seed for a game when none is given, from the operating system.

    No player can find it from what they see; it is shown when the game is over.
    """
    return secrets.randbits(SEED_BITS)


def open_session(screen: Screen, pack: str | None = None, *, seats: list[str] | None = None,
                 seed: int | None = None, params: list[str] | None = None,
                 resume: Path | None = None, save: Path | None = None,
                 take_seat: bool = False) -> Session:
    """A new game of ``pack``, or the game saved in ``resume``.

    A saved game keeps its seed and parameters; its seats may change (see
    :func:`resumed_seats`).
    """
    if resume is None:
        return _new_session(screen, pack, seats or [], seed, params or [], save)
    if seed is not None:
        raise UsageError("--seed cannot be given with --resume: the saved game has its seed")
    if params:
        raise UsageError("--param cannot be given with --resume: the saved game keeps its "
                         "parameters")
    return _resumed_session(screen, resume, pack, seats or [], save, take_seat)


def _new_session(screen: Screen, pack: str | None, seats: list[str], seed: int | None,
                 params: list[str], save: Path | None) -> Session:
    if pack is None:
        raise UsageError("name the PACK to play, or a saved game to go on with",
                         "rulekit play PACK, or rulekit play --resume FILE")
    if pack.endswith(".json") and Path(pack).is_file():
        raise UsageError(f"{pack} is a file, not a pack: to go on with a saved game, "
                         f"use --resume", f"rulekit play --resume {pack}")
    loaded = load_pack(pack, parse_params(params))
    chosen = parse_seats(seats, loaded.game.roles)
    if save is not None:
        refuse_to_overwrite(save)
    if HUMAN in chosen.values():
        _note_unfinished(screen, loaded.game.pack_id)
    return Session(loaded, seed if seed is not None else new_seed(), chosen, screen,
                   save_path=save)


def _note_unfinished(screen: Screen, pack_id: str) -> None:
    """Say how many games of the pack are still on in this folder, if any."""
    count = len(unfinished_games(pack_id=pack_id))
    if count:
        screen.note(f"{count} unfinished game{'s' if count > 1 else ''} of {pack_id} "
                    f"here (rulekit play --list); this is a new one.")


def _resumed_session(screen: Screen, resume: Path, pack: str | None, seats: list[str],
                     save: Path | None, take_seat: bool) -> Session:
    where = str(resume)
    saved = read_save(resume)
    loaded = load_saved_pack(saved, where, pack)
    game = loaded.game
    chosen = resumed_seats(saved.seats, named_seats(seats, game.roles), game.roles, where,
                           take_seat)
    history: dict[str, list[Observation]] = {}
    state = rebuild(game, saved, where, history)
    if state["result"] is not None:
        raise UsageError(f"{where}: this game is over", f"see it with rulekit replay {where}")
    change = pack_change(saved, game, where)
    if change is not None:
        screen.note(change)
    if save is not None and save.absolute() != resume.absolute():
        refuse_to_overwrite(save)
    return Session(loaded, saved.seed, chosen, screen,
                   decisions=list(saved.decisions), state=state, rng=dict(saved.rng),
                   history=history,
                   save_path=save or resume, resumed_from=resume, started=saved.started)


def list_unfinished(screen: Screen) -> int:
    """``rulekit play --list``: the games still on saved in the working folder."""
    games = unfinished_games()
    if not games:
        screen.note("No unfinished game is saved in this folder.")
        return 0
    screen.show(Text(f"Unfinished games in {Path.cwd()}:", style="bold"))
    for item in games:
        screen.show(Text("  " + describe(item)))
    screen.note("Go on with one: rulekit play --resume FILE")
    return 0


__all__ = ["Screen", "Session", "list_unfinished", "new_seed", "open_session",
           "resumed_seats"]
