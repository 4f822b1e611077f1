"""``rulekit new``: write a new pack folder that validates, tests and plays at once.

A new pack is either the teaching template of :mod:`rulekit.authoring.template`, or a copy of
an existing pack (a variant, until packs can extend one another). Either way each YAML file
gets a ``# yaml-language-server: $schema=...`` first line naming a copy of rulekit's schemas in
the pack's own ``.schemas/`` folder, so that editors find the schemas wherever the pack lives.
The pack is written into a temporary folder beside its target, loaded and checked there, then
renamed into place: a failed ``new`` leaves nothing behind.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from rulekit.authoring import template
from rulekit.errors import UsageError
from rulekit.pack.loader import LoadedPack, load_pack
from rulekit.scenarios import load_scenarios
from rulekit.schema import SCHEMA_DIR

__all__ = ["SCHEMA_FOLDER", "NewPack", "new_pack", "pack_id_for"]

SCHEMA_FOLDER = ".schemas"
HEADER = "# yaml-language-server: $schema="
_ID = re.compile(r"^[a-z][a-z0-9_-]*$")
_ID_LINE = re.compile(r"^id:[^\n]*$", re.M)
_NAME_LINE = re.compile(r"^name:[^\n]*$", re.M)
_MARK = "__SCHEMA__\n"


@dataclass
class NewPack:
    """What ``new_pack`` made: the folder, its files, and the pack as loaded from it."""

    folder: Path
    files: list[str]
    cards: int
    scenarios: int
    roles: list[str]


def pack_id_for(target: Path) -> str:
    """The pack id a folder name gives, or a :class:`UsageError` saying what a name may be."""
    name = target.name
    if _ID.match(name):
        return name
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9_-]+", "_", plain.lower()).strip("_-")
    if slug and not slug[0].isalpha():
        slug = f"pack_{slug}"
    hint = f"try '{target.with_name(slug)}'" if slug else None
    raise UsageError(f"'{name or target}' cannot name a pack: use lower-case letters, digits, "
                     "'_' and '-', starting with a letter (the folder's name is the pack's id)",
                     hint)


def new_pack(target: Path, base: LoadedPack | None = None) -> NewPack:
    """Write a new pack into ``target`` (absent or an empty folder): the template, or a copy
    of ``base``. Return what was written, after loading and checking it."""
    pack_id = pack_id_for(target)
    _check_target(target)
    try:
        temp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".new",
                                     dir=target.parent))
    except OSError as exc:
        raise UsageError(f"cannot create '{target}': {exc.strerror or exc}") from None
    try:
        files = _write_copy(temp, pack_id, base) if base else _write_template(temp, pack_id)
        _copy_schemas(temp)
        loaded = load_pack(temp)
        scenarios = load_scenarios(loaded.scenario_files)
        if target.is_dir():
            target.rmdir()
        os.rename(temp, target)
    except OSError as exc:
        shutil.rmtree(temp, ignore_errors=True)
        raise UsageError(f"cannot create '{target}': {exc.strerror or exc}") from None
    except BaseException:
        shutil.rmtree(temp, ignore_errors=True)
        raise
    return NewPack(target, files, len(loaded.game.symbols.cards), len(scenarios),
                   list(loaded.game.roles))


def _check_target(target: Path) -> None:
    if target.exists():
        if not target.is_dir():
            raise UsageError(f"'{target}' is a file; a pack is a folder",
                             "give the name of a new folder")
        if any(target.iterdir()):
            raise UsageError(f"'{target}' already exists and is not empty; nothing was written",
                             "give the name of a new folder, or empty this one")
    parent = target.parent
    if not parent.is_dir():
        raise UsageError(f"cannot create '{target}': no folder '{parent}'")


def pack_title(pack_id: str) -> str:
    """A pack's display name from its id: ``my_game`` gives ``My Game``."""
    return " ".join(word.capitalize() for word in re.split(r"[_-]+", pack_id) if word)


def _schema_header(folder: Path, file: Path, kind: str) -> str:
    """The editor's first line for ``file`` (a ``kind`` file), or "" without that schema."""
    if not (SCHEMA_DIR / f"{kind}.schema.json").is_file():
        return ""
    schema = folder / SCHEMA_FOLDER / f"{kind}.schema.json"
    return HEADER + Path(os.path.relpath(schema, file.parent)).as_posix()


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8", newline="\n")


def _write_template(folder: Path, pack_id: str) -> list[str]:
    kinds = {"pack.yaml": "pack", "rules.yaml": "rules"}
    for name, text in template.TEMPLATE.items():
        path = folder / name
        kind = "scenarios" if name.startswith("scenarios/") else kinds.get(name, "content")
        header = _schema_header(folder, path, kind)
        text = text.replace(_MARK, header + "\n" if header else "")
        _write(path, _fill(text, pack_id, pack_title(pack_id)))
    readme = template.README.replace("__COMMANDS__", template.COMMANDS).replace(
        "__EDITOR__", template.EDITOR).replace("__ROLE__", "red")
    _write(folder / "README.md", _fill(readme, pack_id, pack_title(pack_id)))
    return [*template.TEMPLATE, "README.md"]


def _fill(text: str, pack_id: str, name: str) -> str:
    return text.replace("__ID__", pack_id).replace("__NAME__", name).replace(
        "__FOLDER__", pack_id)


def _write_copy(folder: Path, pack_id: str, base: LoadedPack) -> list[str]:
    """Copy every file of ``base`` (but its README), with a new id and the schema headers."""
    source = base.folder.resolve()
    kinds = _kinds(base)
    written: list[str] = []
    for path in sorted(source.rglob("*")):
        relative = path.relative_to(source)
        if not path.is_file() or _skipped(relative):
            continue
        target = folder / relative
        name = relative.as_posix()
        if path.suffix in (".yaml", ".yml"):
            text = path.read_text(encoding="utf-8")
            if name == "pack.yaml":
                text = _renamed(text, pack_id, base)
            header = _schema_header(folder, target, kinds.get(path.resolve(), "content"))
            _write(target, _with_header(text, header))
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
        written.append(name)
    _write(folder / "README.md", _variant_readme(pack_id, base))
    return [*written, "README.md"]


def _skipped(relative: Path) -> bool:
    parts = relative.parts
    return (any(p.startswith(".") or p == "__pycache__" for p in parts)
            or relative.as_posix() == "README.md" or relative.suffix == ".pyc"
            or (relative.name.startswith("rulekit-") and relative.suffix == ".json"))  # saves


def _kinds(base: LoadedPack) -> dict[Path, str]:
    folder = base.folder.resolve()
    kinds = {folder / "pack.yaml": "pack"}
    kinds.update({(folder / name).resolve(): "content"
                  for name in base.manifest.get("include", [])})
    kinds.update({path.resolve(): "scenarios" for path in base.scenario_files})
    if base.manifest.get("rules"):
        kinds[(folder / base.manifest["rules"]).resolve()] = "rules"
    return kinds


def _with_header(text: str, header: str) -> str:
    lines = [line for line in text.splitlines(keepends=True)
             if not line.lstrip().startswith(HEADER)]
    body = "".join(lines)
    return f"{header}\n{body}" if header else body


def _renamed(text: str, pack_id: str, base: LoadedPack) -> str:
    title = f"{base.manifest['name']} ({pack_id})"
    replacements = [(_ID_LINE, f"id: {pack_id}"), (_NAME_LINE, f"name: {json.dumps(title)}")]
    for pattern, line in replacements:
        text, count = pattern.subn(line.replace("\\", "\\\\"), text, count=1)
        if count != 1:
            raise UsageError(f"cannot copy {base.id}: its pack.yaml has no one-line "
                             f"'{pattern.pattern[1:5]}' at the start of a line")
    note = (f"# A variant of {base.id} {base.manifest['version']}, copied by "
            f"`rulekit new --from {base.id}`.\n")
    return note + text


def _variant_readme(pack_id: str, base: LoadedPack) -> str:
    title = f"{base.manifest['name']} ({pack_id})"
    role = base.game.roles[0]
    lines = [
        f"# {title}",
        "",
        f"A variant of the rulekit pack `{base.id}` (version {base.manifest['version']}), "
        f"made with `rulekit new {pack_id} --from {base.id}`.",
        "",
        "**It is a full copy of the base pack.** rulekit cannot yet make a variant that extends "
        "a pack and names only what it changes (`extends:` in `pack.yaml` is planned); until "
        "then, change what your variant changes in these files, and keep the rest as it is. "
        "The copy does not follow later changes of the base pack.",
        "",
        f"The files are those of the base pack: `pack.yaml` (its id is now `{pack_id}`), the "
        "content files it includes, the rules file and the scenario tests, which still "
        "describe the base game: update them with your changes, and `rulekit test` tells you "
        "which no longer hold.",
        "",
        template.COMMANDS.replace("__FOLDER__", pack_id).replace("__ROLE__", role),
        template.EDITOR,
    ]
    return "\n".join(lines)


def _copy_schemas(folder: Path) -> None:
    target = folder / SCHEMA_FOLDER
    target.mkdir()
    for schema in sorted(SCHEMA_DIR.glob("*.schema.json")):
        shutil.copyfile(schema, target / schema.name)
