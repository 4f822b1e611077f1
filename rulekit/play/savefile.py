"""Saved games: plain JSON that names the pack (id, version, hash), its parameters, the seed,
who sat where and every decision taken, in order. Applying the decisions one by one from
``game.new_game(seed)`` rebuilds the game exactly (the engine is deterministic), so a save is
also a complete record for ``rulekit replay``.

::

    {"format": 1, "pack": "demo", "version": "1.0.0", "pack_hash": "...",
     "params": {"turns": 7, ...}, "seed": 12, "seats": {"hunter": "human", "runner": "random"},
     "decisions": [["hunter", "ace+king"], ["runner", "none"], ...],
     "started": "2026-11-30T16:30:00Z", "finished": false,
     "source": "/path/to/the/pack", "rng": {"runner": [3, "base64...", null]}}

A save goes on with another version of its pack (another pack hash: the files changed, even a
comment): its decisions are replayed on the version at hand, with a note that says what
changed (:func:`pack_change`); if one of them is no longer legal there, the error names the
decision, who was asked what, and the answer saved.

``source`` (the pack folder the game was played from) helps find a pack that is not shipped;
``rng`` holds the state of each bot's random generator at the last decision, so that bots go on
exactly as they would have after a resume; ``started`` and ``finished`` let ``rulekit play
--list`` find the games still on without replaying them. Files are written atomically: to a
temporary file in the same folder, then renamed over the target (a temporary file left by a
killed write is removed by the next one).
"""

from __future__ import annotations

import base64
import contextlib
import glob
import json
import os
import random
import struct
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulekit.engine.game import Game, State
from rulekit.errors import GameRuntimeError, IllegalActionError, RulekitError, SaveFileError

SAVE_FORMAT = 1
HUMAN = "human"
MAX_SAVE_BYTES = 8 * 1024 * 1024  # a long game is some 30 KB; a bigger file is not a save
MAX_SEED = 2 ** 64  # seeds are 64-bit: new ones are drawn below it


@dataclass
class SavedGame:
    """The contents of a save file."""

    pack: str
    version: str
    pack_hash: str
    params: dict[str, int]
    seed: int
    seats: dict[str, str]
    decisions: list[tuple[str, str]] = field(default_factory=list)
    source: str | None = None
    rng: dict[str, Any] = field(default_factory=dict)
    started: str | None = None  # when the game began (UTC, ISO 8601)
    finished: bool = False  # the game is over

    def to_json(self) -> str:
        """The file's text: one key per line, one decision per line."""
        head: dict[str, Any] = {
            "format": SAVE_FORMAT, "pack": self.pack, "version": self.version,
            "pack_hash": self.pack_hash, "params": self.params, "seed": self.seed,
            "seats": self.seats,
        }
        if self.started is not None:
            head["started"] = self.started
        head["finished"] = self.finished
        lines = [f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}"
                 for key, value in head.items()]
        moves = ",\n".join(f"    {json.dumps([role, option], ensure_ascii=False)}"
                           for role, option in self.decisions)
        lines.append('  "decisions": [' + (f"\n{moves}\n  ]" if moves else "]"))
        if self.source is not None:
            lines.append(f'  "source": {json.dumps(self.source, ensure_ascii=False)}')
        if self.rng:
            lines.append(f'  "rng": {json.dumps(self.rng)}')
        return "{\n" + ",\n".join(lines) + "\n}\n"

    @classmethod
    def from_data(cls, data: Any, where: str) -> SavedGame:
        """Check the parsed JSON of a save file; :class:`SaveFileError` names what is wrong."""

        def bad(what: str) -> SaveFileError:
            return SaveFileError(f"{where}: not a valid rulekit save file: {what}")

        if not isinstance(data, dict):
            raise bad("it does not hold a JSON object")
        version = data.get("format")
        if version != SAVE_FORMAT:
            if isinstance(version, int) and version > SAVE_FORMAT:
                raise SaveFileError(f"{where}: saved by a newer rulekit (save format {version}; "
                                    f"this one reads format {SAVE_FORMAT})")
            raise bad(f"'format' must be {SAVE_FORMAT}")
        for key in ("pack", "version", "pack_hash"):
            if not isinstance(data.get(key), str):
                raise bad(f"'{key}' must be a text")
        params, seats, seed = data.get("params"), data.get("seats"), data.get("seed")
        if not isinstance(params, dict) or not all(
                isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool)
                for k, v in params.items()):
            raise bad("'params' must map parameter names to integers")
        if not isinstance(seed, int) or isinstance(seed, bool) or not -MAX_SEED < seed < MAX_SEED:
            raise bad("'seed' must be an integer of 64 bits at most")
        if not isinstance(seats, dict) or not seats or not all(
                isinstance(k, str) and isinstance(v, str) and v for k, v in seats.items()):
            raise bad("'seats' must map roles to 'human' or an agent")
        decisions = data.get("decisions")
        if not isinstance(decisions, list) or not all(
                isinstance(d, list) and len(d) == 2 and all(isinstance(x, str) for x in d)
                for d in decisions):
            raise bad("'decisions' must be a list of [role, option] pairs")
        source = data.get("source")
        if source is not None and not isinstance(source, str):
            raise bad("'source' must be a text")
        rng = data.get("rng", {})
        if not isinstance(rng, dict) or not all(_valid_rng_state(v) for v in rng.values()):
            raise bad("'rng' must map roles to random generator states")
        started, finished = data.get("started"), data.get("finished", False)
        if started is not None and not isinstance(started, str):
            raise bad("'started' must be a text")
        if not isinstance(finished, bool):
            raise bad("'finished' must be true or false")
        return cls(pack=data["pack"], version=data["version"], pack_hash=data["pack_hash"],
                   params=dict(params), seed=seed, seats=dict(seats),
                   decisions=[(d[0], d[1]) for d in decisions], source=source, rng=dict(rng),
                   started=started, finished=finished)


def _valid_rng_state(value: Any) -> bool:
    return (isinstance(value, list) and len(value) == 3 and isinstance(value[0], int)
            and isinstance(value[1], str)
            and (value[2] is None or isinstance(value[2], float)))


def rng_state(rng: random.Random) -> list[Any]:
    """A generator's state as JSON data: ``[version, base64 of its words, gauss]``."""
    version, internal, gauss = rng.getstate()
    packed = struct.pack(f"<{len(internal)}I", *internal)
    return [version, base64.b64encode(packed).decode("ascii"), gauss]


def restore_rng(rng: random.Random, state: list[Any]) -> None:
    """Set a generator to a state made by :func:`rng_state`."""
    try:
        packed = base64.b64decode(state[1], validate=True)
        internal = struct.unpack(f"<{len(packed) // 4}I", packed)
        rng.setstate((state[0], internal, state[2]))
    except (TypeError, ValueError, struct.error) as exc:
        raise SaveFileError(f"a bot's random generator state in the save is broken: {exc}"
                            ) from None


def _temp_prefix(target: Path) -> str:
    return f".{target.name}."


def write_save(path: Path, saved: SavedGame) -> Path:
    """Write ``saved`` to ``path`` atomically; return the absolute path written. A temporary
    file left by an earlier write to the same file that was killed is removed."""
    target = path.expanduser().absolute()
    folder = target.parent
    if not folder.is_dir():
        raise SaveFileError(f"cannot save to {path}: there is no folder {folder}")
    text = saved.to_json()
    for stale in folder.glob(f"{glob.escape(_temp_prefix(target))}*.tmp"):
        with contextlib.suppress(OSError):
            stale.unlink()
    try:
        fd, temp = tempfile.mkstemp(prefix=_temp_prefix(target), suffix=".tmp", dir=folder)
    except OSError as exc:
        raise SaveFileError(f"cannot save to {path}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, target)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        if isinstance(exc, OSError):
            raise SaveFileError(f"cannot save to {path}: {exc.strerror or exc}") from None
        raise
    return target


def read_save(path: Path) -> SavedGame:
    """Read and check a save file."""
    where = str(path)
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_SAVE_BYTES + 1)
        if len(raw) > MAX_SAVE_BYTES:
            raise SaveFileError(f"{where}: not a rulekit save file (larger than "
                                f"{MAX_SAVE_BYTES // (1024 * 1024)} MB)")
        text = raw.decode("utf-8")
    except FileNotFoundError:
        raise SaveFileError(f"{where}: no such save file") from None
    except IsADirectoryError:
        raise SaveFileError(f"{where}: is a folder, not a save file") from None
    except UnicodeDecodeError:
        raise SaveFileError(f"{where}: not a rulekit save file (not UTF-8 text)") from None
    except OSError as exc:
        raise SaveFileError(f"{where}: cannot read it: {exc.strerror or exc}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SaveFileError(f"{where}:{exc.lineno}:{exc.colno}: not a rulekit save file: "
                            f"bad JSON ({exc.msg})") from None
    except RecursionError:
        raise SaveFileError(f"{where}: not a rulekit save file (its JSON is nested too deep)"
                            ) from None
    except ValueError:  # int() refuses numbers of thousands of digits
        raise SaveFileError(f"{where}: not a rulekit save file (bad JSON: a number too long "
                            f"to read)") from None
    return SavedGame.from_data(data, where)


def load_saved_pack(saved: SavedGame, where: str, pack_ref: str | None = None) -> Any:
    """The pack of a saved game (a :class:`~rulekit.pack.loader.LoadedPack`), compiled with the
    saved parameters; refused if it is another pack. It may be another version of the pack:
    see :func:`pack_change`."""
    from rulekit.pack.loader import find_pack, load_pack

    ref: str | Path
    if pack_ref is not None and pack_ref != saved.pack and not Path(pack_ref).exists():
        raise _other_pack(where, saved.pack, pack_ref)  # a shipped pack's id: no need to load
    if pack_ref is not None:
        ref = pack_ref
    elif saved.source is not None and (Path(saved.source) / "pack.yaml").is_file():
        ref = Path(saved.source)
    else:
        try:
            ref = find_pack(saved.pack)
        except RulekitError:
            raise SaveFileError(f"{where}: cannot find the pack '{saved.pack}' of this game",
                                "name its folder: rulekit play PACK --resume FILE") from None
    loaded = load_pack(ref, dict(saved.params))
    game: Game = loaded.game
    if game.pack_id != saved.pack:
        raise _other_pack(where, saved.pack, game.pack_id)
    unknown = [role for role in saved.seats if role not in game.role_names]
    if unknown:
        raise SaveFileError(f"{where}: unknown role '{unknown[0]}' in 'seats'")
    return loaded


def _versions(saved: SavedGame, game: Game) -> str:
    return (f"{saved.pack} {saved.version} (pack hash {saved.pack_hash}), and this is "
            f"{game.pack_id} {game.version} (pack hash {game.pack_hash})")


def pack_change(saved: SavedGame, game: Game, where: str) -> str | None:
    """A warning when ``game`` is not the very pack ``saved`` was played with, else None."""
    if saved.pack_hash == game.pack_hash:
        return None
    same = " (the same version number, but its files changed)" \
        if saved.version == game.version else ""
    return (f"Warning: {where} was saved with {_versions(saved, game)}{same}: its "
            f"{len(saved.decisions)} decisions are replayed on this version.")


def _other_pack(where: str, saved: str, named: str) -> SaveFileError:
    return SaveFileError(f"{where}: this is a save of {saved}, not of {named}",
                         f"leave the pack out, the save names it: rulekit play --resume {where}")


def rebuild(game: Game, saved: SavedGame, where: str,
            history: dict[str, list[dict[str, Any]]] | None = None) -> State:
    """The state after the saved decisions, applied one by one from ``new_game(seed)``.

    ``history``: filled with each role's observations at its decisions, oldest first (what
    a seat's belief follows, see :class:`rulekit.bots.agent.View`)."""
    state = game.new_game(saved.seed)
    changed = saved.pack_hash != game.pack_hash
    for number, (role, option) in enumerate(saved.decisions, start=1):
        if state["result"] is not None:
            raise SaveFileError(f"{where}: decision {number} ({role}: '{option}') comes after "
                                f"the end of the game" + (_since(saved, game) if changed else ""),
                                _HINT if changed else None)
        if history is not None:
            history.setdefault(role, []).append(game.observe(state, role))
        try:
            game.apply(state, {role: option}, in_place=True)
        except IllegalActionError as exc:
            if changed:
                raise SaveFileError(_no_longer_legal(saved, game, state, where, number, exc),
                                    _HINT) from None
            raise SaveFileError(f"{where}: decision {number} ({role}: '{option}') cannot be "
                                f"replayed: {exc.message}") from None
        except GameRuntimeError as exc:
            raise SaveFileError(f"{where}: replaying decision {number} failed: {exc.message}"
                                + (_since(saved, game) if changed else "")) from None
    return state


_HINT = "go on with the version of the pack the game was saved with, or start a new game"


def _since(saved: SavedGame, game: Game) -> str:
    return f" (the game was saved with {_versions(saved, game)})"


def _no_longer_legal(saved: SavedGame, game: Game, state: State, where: str, number: int,
                     exc: IllegalActionError) -> str:
    role, option = saved.decisions[number - 1]
    asked = [d for d in game.pending(state) if d.player == role]
    if asked:
        options = [o.id for o in asked[0].options()[:9]]
        shown = ", ".join(options[:8]) + (", ..." if len(options) > 8 else "")
        what = (f"{role} was asked \"{asked[0].prompt}\" and the save answers '{option}', "
                f"which is not among the options now ({shown})")
    else:
        what = f"the save answers '{option}' for {role}: {exc.message}"
    return (f"{where}: decision {number} of the save is no longer legal in this version of "
            f"the pack: {what}. The game was saved with {_versions(saved, game)}.")


__all__ = ["HUMAN", "MAX_SAVE_BYTES", "SAVE_FORMAT", "SavedGame", "load_saved_pack", "pack_change",
           "read_save", "rebuild", "restore_rng", "rng_state", "write_save"]
