"""Save files: a game's pack, seed and decisions as JSON, read with bounds, written atomically."""

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

from jsonschema import (  # type: ignore[import-untyped, unused-ignore]
    Draft202012Validator,
    validators,
)

from rulekit.errors import SaveFileError

SAVE_FORMAT = 1
HUMAN = "human"
MAX_SAVE_BYTES = 8 * 1024 * 1024  # far more than a long game needs: a bigger file is no save
MAX_SEED = 2 ** 64  # seeds are 64-bit: new ones are drawn below it

RngState = tuple[int, str, float | None]  # version, the base64 of its words, gauss


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
    rng: dict[str, RngState] = field(default_factory=dict)
    started: str | None = None  # when the game began (UTC, ISO 8601)
    finished: bool = False  # the game is over

    def to_json(self) -> str:
        """The file's text: one key per line, one decision per line."""
        head: dict[str, object] = {
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
    def from_data(cls, data: object, where: str) -> SavedGame:
        """Check the parsed JSON of a save file; a :class:`SaveFileError` names what is wrong."""
        if not isinstance(data, dict):
            raise _not_a_save(where, "it does not hold a JSON object")
        _check_newer(data.get("format"), where)
        fields = {**dict.fromkeys(SAVE_SCHEMA["properties"]), **_DEFAULTS, **data}
        error = next(_VALIDATOR.iter_errors(fields), None)
        if error is not None:
            key = error.absolute_path[0]
            raise _not_a_save(where, f"'{key}' {SAVE_SCHEMA['properties'][key]['description']}")
        return cls(pack=fields["pack"], version=fields["version"], pack_hash=fields["pack_hash"],
                   params=dict(fields["params"]), seed=fields["seed"], seats=dict(fields["seats"]),
                   decisions=[(role, option) for role, option in fields["decisions"]],
                   source=fields["source"],
                   rng={role: (v[0], v[1], v[2]) for role, v in fields["rng"].items()},
                   started=fields["started"], finished=fields["finished"])


def _not_a_save(where: str, what: str) -> SaveFileError:
    return SaveFileError(f"{where}: not a valid rulekit save file: {what}")


def _check_newer(version: object, where: str) -> None:
    if isinstance(version, int) and version > SAVE_FORMAT:
        raise SaveFileError(f"{where}: saved by a newer rulekit (save format {version}; "
                            f"this one reads format {SAVE_FORMAT})")


_TEXT = {"type": "string", "description": "must be a text"}
_TEXT_OR_NULL = {"type": ["string", "null"], "description": "must be a text"}

# The shape of a save, a missing field being null; a field's description is the error it gives.
SAVE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "format": {"const": SAVE_FORMAT, "description": f"must be {SAVE_FORMAT}"},
        "pack": _TEXT,
        "version": _TEXT,
        "pack_hash": _TEXT,
        "params": {"type": "object", "additionalProperties": {"type": "integer"},
                   "description": "must map parameter names to integers"},
        "seed": {"type": "integer", "exclusiveMinimum": -MAX_SEED, "exclusiveMaximum": MAX_SEED,
                 "description": "must be an integer of 64 bits at most"},
        "seats": {"type": "object", "minProperties": 1,
                  "additionalProperties": {"type": "string", "minLength": 1},
                  "description": "must map roles to 'human' or an agent"},
        "decisions": {"type": "array", "items": {"type": "array", "items": {"type": "string"},
                                                 "minItems": 2, "maxItems": 2},
                      "description": "must be a list of [role, option] pairs"},
        "source": _TEXT_OR_NULL,
        "rng": {"type": "object", "additionalProperties": {
                    "type": "array", "minItems": 3, "maxItems": 3,
                    "prefixItems": [{"type": "integer"}, {"type": "string"},
                                    {"type": ["number", "null"]}]},
                "description": "must map roles to random generator states"},
        "started": _TEXT_OR_NULL,
        "finished": {"type": "boolean", "description": "must be true or false"},
    },
}
_DEFAULTS = {"rng": {}, "finished": False}
# An integer is an int, not a float such as 2.0 nor a bool.
_TYPES = Draft202012Validator.TYPE_CHECKER.redefine("integer", lambda _, value: type(value) is int)
_VALIDATOR = validators.extend(Draft202012Validator, type_checker=_TYPES)(SAVE_SCHEMA)


def rng_state(rng: random.Random) -> RngState:
    """A generator's state as JSON data."""
    version, internal, gauss = rng.getstate()
    packed = struct.pack(f"<{len(internal)}I", *internal)
    return version, base64.b64encode(packed).decode("ascii"), gauss


def restore_rng(rng: random.Random, state: RngState) -> None:
    """Set a generator to a state made by :func:`rng_state`."""
    try:
        packed = base64.b64decode(state[1], validate=True)
        internal = struct.unpack(f"<{len(packed) // 4}I", packed)
        rng.setstate((state[0], internal, state[2]))
    except (TypeError, ValueError, struct.error) as exc:
        raise SaveFileError(f"a bot's random generator state in the save is broken: {exc}"
                            ) from None


def save_folder(path: Path) -> Path:
    """The folder a save at ``path`` goes into; an error if it does not exist."""
    folder = path.expanduser().absolute().parent
    if not folder.is_dir():
        raise SaveFileError(f"cannot save to {path}: there is no folder {folder}",
                            "make the folder first, or name a file in another one")
    return folder


def write_save(path: Path, saved: SavedGame) -> Path:
    """Write ``saved`` to ``path`` atomically; the absolute path written."""
    target = path.expanduser().absolute()
    folder = save_folder(path)
    text = saved.to_json()
    prefix = f".{target.name}."
    for stale in folder.glob(f"{glob.escape(prefix)}*.tmp"):
        with contextlib.suppress(OSError):
            stale.unlink()
    try:
        fd, temp = tempfile.mkstemp(prefix=prefix, suffix=".tmp", dir=folder)
    except OSError as exc:
        raise SaveFileError(f"cannot save to {path}: {exc.strerror or exc}") from None
    try:  # on failure, the temporary file goes
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
    where = str(path)
    return SavedGame.from_data(_parsed(_read_text(path, where), where), where)


def _read_text(path: Path, where: str) -> str:
    if path.exists() and not path.is_file() and not path.is_dir():
        raise SaveFileError(f"{where}: not a save file, but a pipe or a device")
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_SAVE_BYTES + 1)
        if len(raw) > MAX_SAVE_BYTES:
            raise SaveFileError(f"{where}: not a rulekit save file (larger than "
                                f"{MAX_SAVE_BYTES // (1024 * 1024)} MB)")
        return raw.decode("utf-8")
    except FileNotFoundError:
        raise SaveFileError(f"{where}: no such save file") from None
    except IsADirectoryError:
        raise SaveFileError(f"{where}: is a folder, not a save file") from None
    except UnicodeDecodeError:
        raise SaveFileError(f"{where}: not a rulekit save file (not UTF-8 text)") from None
    except OSError as exc:
        raise SaveFileError(f"{where}: cannot read it: {exc.strerror or exc}") from None


def _parsed(text: str, where: str) -> object:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise SaveFileError(f"{where}:{exc.lineno}:{exc.colno}: not a rulekit save file: "
                            f"bad JSON ({exc.msg})") from None
    except RecursionError:
        raise SaveFileError(f"{where}: not a rulekit save file (its JSON is nested too deep)"
                            ) from None
    except ValueError:  # int() refuses numbers of thousands of digits
        raise SaveFileError(f"{where}: not a rulekit save file (bad JSON: a number too long "
                            f"to read)") from None
