"""Playing at the terminal: ``rulekit play``, ``rulekit replay`` and ``rulekit map``."""

from __future__ import annotations

import secrets
from pathlib import Path

from rich.text import Text

from rulekit.errors import UsageError
from rulekit.pack.loader import load_pack, parse_params
from rulekit.play.restore import load_saved_pack, pack_change, rebuild, seen_at_decisions
from rulekit.play.savefile import HUMAN, MAX_SEED, read_save
from rulekit.play.saves import describe, refuse_to_overwrite, unfinished_games
from rulekit.play.screen import Screen
from rulekit.play.seats import named_seats, parse_seats, resumed_seats
from rulekit.play.session import Session


def new_seed() -> int:
    """A seed no player can find, from the system. It is shown when the game is over."""
    return secrets.randbelow(MAX_SEED)


def open_session(screen: Screen, pack: str | None = None, *, seats: list[str] | None = None,
                 seed: int | None = None, params: list[str] | None = None,
                 resume: Path | None = None, save: Path | None = None,
                 take_seat: bool = False) -> Session:
    """A new game of ``pack``, or the game saved in ``resume``."""
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
    return Session(loaded, seed if seed is not None else new_seed(), chosen, screen, save_path=save)


def _note_unfinished(screen: Screen, pack_id: str) -> None:
    """Say how many games of the pack are still on here, if any."""
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
    states = rebuild(game, saved, where)
    if states[-1]["result"] is not None:
        raise UsageError(f"{where}: this game is over", f"see it with rulekit replay {where}")
    change = pack_change(saved, game, where)
    if change is not None:
        screen.note(change)
    if save is not None and save.absolute() != resume.absolute():
        refuse_to_overwrite(save)
    decisions = list(saved.decisions)
    history = {role: seen_at_decisions(game, states, decisions, role, 0, len(decisions))
               for role in dict.fromkeys(role for role, _ in decisions)}
    return Session(loaded, saved.seed, chosen, screen,
                   decisions=decisions, state=states[-1], rng=dict(saved.rng), history=history,
                   save_path=save or resume, resumed_from=resume, started=saved.started)


def list_unfinished(screen: Screen) -> int:
    """``rulekit play --list``: the games still on, saved here."""
    games = unfinished_games()
    if not games:
        screen.note("No unfinished game is saved in this folder.")
        return 0
    screen.show(Text(f"Unfinished games in {Path.cwd()}:", style="bold"))
    for item in games:
        screen.show(Text("  " + describe(item)))
    screen.note("Go on with one: rulekit play --resume FILE")
    return 0


__all__ = ["Screen", "Session", "list_unfinished", "new_seed", "open_session", "resumed_seats"]
