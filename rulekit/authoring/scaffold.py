"""``rulekit new``: a new pack folder (the template, or a variant) that validates at once."""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from rulekit.authoring.files import current_umask
from rulekit.errors import UsageError
from rulekit.pack.find import shipped_packs_dir
from rulekit.pack.loader import LoadedPack, load_pack
from rulekit.scenarios.runner import load_scenarios
from rulekit.source.schema import SCHEMA_DIR

__all__ = ["SCHEMA_FOLDER", "NewPack", "new_pack", "pack_id_for"]

SCHEMA_FOLDER = ".schemas"
HEADER = "# yaml-language-server: $schema="
_ID = re.compile(r"^[a-z][a-z0-9_-]*$")
# The template: a small game whose comments teach; its __MARKS__ are replaced when written.
TEMPLATE = Path(__file__).parent / "template"
TEMPLATE_FILES = {"pack.yaml": "pack", "rules.yaml": "rules", "cards.yaml": "content",
                  "components.yaml": "content", "flow.yaml": "content",
                  "scenarios/basics.yaml": "scenarios"}  # name -> schema


@dataclass
class NewPack:
    """What ``new_pack`` made: the folder, its files, its figures."""

    folder: Path
    files: list[str]
    cards: int
    scenarios: int
    roles: list[str]


def pack_id_for(target: Path) -> str:
    """The pack id a folder name gives, or a :class:`UsageError`."""
    name = target.name
    if _ID.match(name):
        return name
    slug = _slug(name)
    hint = f"try '{target.with_name(slug)}'" if slug else None
    raise UsageError(f"'{name or target}' cannot name a pack: use lower-case letters, digits, "
                     "'_' and '-', starting with a letter (the folder's name is the pack's id)",
                     hint)


def _slug(name: str) -> str:
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9_-]+", "_", plain.lower()).strip("_-")
    if slug and not slug[0].isalpha():
        slug = f"pack_{slug}"
    return slug


def new_pack(target: Path, base: LoadedPack | None = None) -> NewPack:
    """Write the template, or a variant of ``base``, into ``target``; a failure leaves nothing."""
    pack_id = pack_id_for(target)
    _check_target(target)
    with _folder_beside(target) as temp:
        files = _variant_files(target, pack_id, base) if base else _template_files(pack_id)
        for name, (kind, text) in files.items():
            _write(temp, name, text, kind)
        _copy_schemas(temp)
        loaded = load_pack(temp)
        scenarios = load_scenarios(loaded.scenario_files)
        if target.is_dir():
            target.rmdir()
        os.rename(temp, target)
    return NewPack(target, list(files), len(loaded.game.symbols.cards), len(scenarios),
                   list(loaded.game.roles))


@contextmanager
def _folder_beside(target: Path) -> Iterator[Path]:
    """A new folder beside ``target``, removed if the block fails; an OSError is a UsageError."""
    temp = None
    try:
        temp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".new",
                                     dir=target.parent))
        temp.chmod(0o777 & ~current_umask())  # as any new folder, not for its owner alone
        yield temp
    except BaseException as exc:
        if temp is not None:
            shutil.rmtree(temp, ignore_errors=True)
        if isinstance(exc, OSError):
            raise UsageError(f"cannot create '{target}': {exc.strerror or exc}") from None
        raise


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


def _write(folder: Path, name: str, text: str, kind: str) -> None:
    """Write ``folder/name``; a file of schema ``kind`` starts with the editor's line naming it."""
    path = folder / name
    schema = folder / SCHEMA_FOLDER / f"{kind}.schema.json"
    if kind and (SCHEMA_DIR / schema.name).is_file():
        text = f"{HEADER}{Path(os.path.relpath(schema, path.parent)).as_posix()}\n{text}"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8", newline="\n")


def _template_files(pack_id: str) -> dict[str, tuple[str, str]]:
    """The template's files: name -> (schema, text)."""
    files = {name: (kind, _fill(_template(name), pack_id)) for name, kind in TEMPLATE_FILES.items()}
    readme = _replaced(_template("README.md"), __COMMANDS__=_template("commands.md"),
                       __EDITOR__=_template("editor.md"), __ROLE__="red")
    return {**files, "README.md": ("", _fill(readme, pack_id))}


def _template(name: str) -> str:
    return (TEMPLATE / name).read_text(encoding="utf-8")


def _fill(text: str, pack_id: str) -> str:
    return _replaced(text, __ID__=pack_id, __NAME__=pack_title(pack_id), __FOLDER__=pack_id)


def _replaced(text: str, **values: str) -> str:
    for mark, value in values.items():
        text = text.replace(mark, value)
    return text


def _variant_files(target: Path, pack_id: str, base: LoadedPack) -> dict[str, tuple[str, str]]:
    """The files of a variant of ``base``: name -> (schema, text)."""
    return {"pack.yaml": ("pack", _variant_manifest(target, pack_id, base)),
            "changes.yaml": ("content", _variant_changes(base)),
            "scenarios/variant.yaml": ("scenarios", _variant_scenarios(base)),
            "README.md": ("", _variant_readme(pack_id, base))}


def _base_reference(target: Path, base: LoadedPack) -> str:
    """How the variant names its base: a shipped pack's id, else a folder."""
    folder = base.folder.resolve()
    if folder.parent == shipped_packs_dir().resolve() and folder.name == base.id:
        return base.id
    relative = Path(os.path.relpath(folder, target.resolve())).as_posix()
    return relative if relative.startswith(".") else f"./{relative}"


def _variant_manifest(target: Path, pack_id: str, base: LoadedPack) -> str:
    """The ``pack.yaml`` of a variant, with the base's parameters commented out."""
    declared = base.manifest.get("parameters") or {}
    params = "".join(f"#   {name}: {{default: {spec['default']}}}\n"
                     for name, spec in declared.items())
    if params:
        params = ("# New defaults for parameters of the base (uncomment and change):\n"
                  "# parameters:\n" + params)
    return _replaced(_template("variant/pack.yaml"), __BASE__=base.id, __ID__=pack_id,
                     __TITLE__=json.dumps(pack_title(pack_id)),
                     __EXTENDS__=_base_reference(target, base), __PARAMETERS__=params)


def _variant_changes(base: LoadedPack) -> str:
    """The variant's file of changes: empty, with comments that teach."""
    first = next(iter(base.game.symbols.cards.values()), {"id": "CARD"})
    props = "".join(f", {key}: {json.dumps(value)}" for key, value in first.items()
                    if key not in ("id", "name"))
    phases = base.game.symbols.phases
    return _replaced(_template("variant/changes.yaml"), __BASE__=base.id,
                     __CARD__=str(first["id"]).split("#")[0], __PROPS__=props,
                     __PHASE__=phases[0] if phases else "PHASE")


def _variant_scenarios(base: LoadedPack) -> str:
    """The first scenario of a variant: a player cannot see another's secret pile."""
    roles = base.game.roles
    secret = next((z.name for z in base.game.symbols.zones.values()
                   if z.per == "role" and z.visibility == "owner"), None)
    text = _template("variant/scenarios.yaml")
    if secret is None or len(roles) < 2:
        return text
    return text + _replaced(_template("variant/secret.yaml"), __OTHER__=roles[1],
                            __SECRET__=secret, __OWNER__=roles[0])


def _variant_readme(pack_id: str, base: LoadedPack) -> str:
    commands = _template("commands.md").replace("__ROLE__", base.game.roles[0])
    readme = _replaced(_template("variant/README.md"), __COMMANDS__=commands,
                       __EDITOR__=_template("editor.md"), __BASE__=base.id,
                       __VERSION__=str(base.manifest["version"]))
    return _fill(readme, pack_id)


def _copy_schemas(folder: Path) -> None:
    target = folder / SCHEMA_FOLDER
    target.mkdir()
    for schema in sorted(SCHEMA_DIR.glob("*.schema.json")):
        shutil.copyfile(schema, target / schema.name)
