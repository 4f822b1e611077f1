"""A saved game brought back: its pack loaded, its decisions replayed."""

from __future__ import annotations

from pathlib import Path

from rulekit.engine.game import Game, State
from rulekit.engine.observe import Observation
from rulekit.errors import GameRuntimeError, IllegalActionError, RulekitError, SaveFileError
from rulekit.pack.loader import LoadedPack, find_pack, load_pack
from rulekit.play.savefile import SavedGame

HINT = "go on with the version of the pack the game was saved with, or start a new game"
SHOWN_OPTIONS = 8  # options named when a saved answer is no longer among them


def load_saved_pack(saved: SavedGame, where: str, pack_ref: str | None = None) -> LoadedPack:
    """The pack of a saved game, compiled with its parameters; another pack is refused."""
    if pack_ref is not None and pack_ref != saved.pack and not Path(pack_ref).exists():
        raise _other_pack(where, saved.pack, pack_ref)  # a shipped pack's id: no need to load
    loaded = load_pack(_where_pack_is(saved, where, pack_ref), dict(saved.params))
    game = loaded.game
    if game.pack_id != saved.pack:
        raise _other_pack(where, saved.pack, game.pack_id)
    unknown = [role for role in saved.seats if role not in game.role_names]
    if unknown:
        raise SaveFileError(f"{where}: unknown role '{unknown[0]}' in 'seats'")
    return loaded


def _where_pack_is(saved: SavedGame, where: str, pack_ref: str | None) -> str | Path:
    """The pack named on the command line, else the folder played from, else a shipped pack."""
    if pack_ref is not None:
        return pack_ref
    if saved.source is not None and (Path(saved.source) / "pack.yaml").is_file():
        return Path(saved.source)
    try:
        return find_pack(saved.pack)
    except RulekitError:
        raise SaveFileError(f"{where}: cannot find the pack '{saved.pack}' of this game",
                            "name its folder: rulekit play PACK --resume FILE") from None


def _other_pack(where: str, saved: str, named: str) -> SaveFileError:
    return SaveFileError(f"{where}: this is a save of {saved}, not of {named}",
                         f"leave the pack out, the save names it: rulekit play --resume {where}")


def _versions(saved: SavedGame, game: Game) -> str:
    return (f"{saved.pack} {saved.version} (pack hash {saved.pack_hash}), and this is "
            f"{game.pack_id} {game.version} (pack hash {game.pack_hash})")


def pack_change(saved: SavedGame, game: Game, where: str) -> str | None:
    """A warning if ``game`` is not the very pack of ``saved``, else None."""
    if saved.pack_hash == game.pack_hash:
        return None
    same = " (the same version number, but its files changed)" \
        if saved.version == game.version else ""
    return (f"Warning: {where} was saved with {_versions(saved, game)}{same}: its "
            f"{len(saved.decisions)} decisions are replayed on this version.")


def rebuild(game: Game, saved: SavedGame, where: str) -> list[State]:
    """The states of a saved game: at its start, then after each of its decisions."""
    states = [game.new_game(saved.seed)]
    for number, (role, option) in enumerate(saved.decisions, start=1):
        state = states[-1]
        said = f"{where}: decision {number} ({role}: '{option}')"
        if state["result"] is not None:
            raise SaveFileError(f"{said} comes after the end of the game" + _since(saved, game),
                                HINT if _changed(saved, game) else None)
        try:
            states.append(game.apply(state, {role: option}))
        except IllegalActionError as exc:
            if _changed(saved, game):
                raise SaveFileError(_no_longer_legal(saved, game, state, where, number, exc),
                                    HINT) from None
            raise SaveFileError(f"{said} cannot be replayed: {exc.message}") from None
        except GameRuntimeError as exc:
            raise SaveFileError(f"{where}: replaying decision {number} failed: {exc.message}"
                                + _since(saved, game)) from None
    return states


def seen_at_decisions(game: Game, states: list[State], decisions: list[tuple[str, str]],
                      role: str, start: int, stop: int) -> list[Observation]:
    """``role``'s observations at its own decisions, from number ``start`` to ``stop``."""
    return [game.observe(states[number], role) for number in range(start, stop)
            if decisions[number][0] == role]


def _changed(saved: SavedGame, game: Game) -> bool:
    return saved.pack_hash != game.pack_hash


def _since(saved: SavedGame, game: Game) -> str:
    return f" (the game was saved with {_versions(saved, game)})" if _changed(saved, game) else ""


def _no_longer_legal(saved: SavedGame, game: Game, state: State, where: str, number: int,
                     exc: IllegalActionError) -> str:
    role, option = saved.decisions[number - 1]
    asked = [d for d in game.pending(state) if d.player == role]
    if asked:
        options = [o.id for o in asked[0].options()[:SHOWN_OPTIONS + 1]]
        shown = ", ".join(options[:SHOWN_OPTIONS]) + (", ..." if len(options) > SHOWN_OPTIONS
                                                      else "")
        what = (f"{role} was asked \"{asked[0].prompt}\" and the save answers '{option}', "
                f"which is not among the options now ({shown})")
    else:
        what = f"the save answers '{option}' for {role}: {exc.message}"
    return (f"{where}: decision {number} of the save is no longer legal in this version of "
            f"the pack: {what}. The game was saved with {_versions(saved, game)}.")
