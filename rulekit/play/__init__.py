"""Playing at the terminal: ``rulekit play``, ``rulekit replay`` and ``rulekit map``.

- :mod:`rulekit.play.session`: the game loop, seats, bots, hot seat, save and resume;
- :mod:`rulekit.play.render`: what a player sees (rich renderables from ``game.observe``);
- :mod:`rulekit.play.prompt`: numbered menus and the parsing of typed answers;
- :mod:`rulekit.play.savefile`: the save file (JSON, written atomically) and its checks;
- :mod:`rulekit.play.replay`: stepping through a saved game from one player's view;
- :mod:`rulekit.play.screen`: the console and the input stream.
"""

from __future__ import annotations

import secrets
from pathlib import Path

from rulekit.errors import UsageError
from rulekit.play.savefile import read_save
from rulekit.play.screen import Screen
from rulekit.play.session import Session, parse_seats

SEED_BITS = 64


def new_seed() -> int:
    """A seed for a game when none is given: 64 bits from the operating system, so that no
    player can find it from what they see (it is shown when the game is over)."""
    return secrets.randbits(SEED_BITS)


def open_session(screen: Screen, pack: str | None = None, *, seats: list[str] | None = None,
                 seed: int | None = None, params: list[str] | None = None,
                 resume: Path | None = None, save: Path | None = None) -> Session:
    """A new game of ``pack``, or the game saved in ``resume`` (whose seed and parameters
    cannot be changed; its seats can)."""
    from rulekit.pack.loader import load_pack, parse_params
    from rulekit.play.savefile import load_saved_pack, rebuild

    if resume is None:
        if pack is None:
            raise UsageError("name the PACK to play, or a saved game to go on with",
                             "rulekit play PACK, or rulekit play --resume FILE")
        loaded = load_pack(pack, parse_params(params or []))
        game = loaded.game
        return Session(loaded, seed if seed is not None else new_seed(),
                       parse_seats(seats or [], game.roles), screen, save_path=save,
                       save_always=save is not None)
    if seed is not None:
        raise UsageError("--seed cannot be given with --resume: the saved game has its seed")
    if params:
        raise UsageError("--param cannot be given with --resume: the saved game keeps its "
                         "parameters")
    where = str(resume)
    saved = read_save(resume)
    loaded = load_saved_pack(saved, where, pack)
    game = loaded.game
    chosen = dict(saved.seats)
    if seats:
        overrides = parse_seats(seats, game.roles)
        given = {item.partition("=")[0].strip() for text in seats for item in text.split(",")
                 if item.strip()}
        chosen.update({role: spec for role, spec in overrides.items() if role in given})
    for role in game.roles:
        chosen.setdefault(role, "random")
    state = rebuild(game, saved, where)
    return Session(loaded, saved.seed, {role: chosen[role] for role in game.roles}, screen,
                   decisions=list(saved.decisions), state=state, rng=dict(saved.rng),
                   save_path=save or resume, save_always=True, resumed_from=resume)


__all__ = ["Screen", "Session", "new_seed", "open_session"]
