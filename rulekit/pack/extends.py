"""Read the documents of a pack, and of the pack it extends when it is a variant.

A variant's ``pack.yaml`` says ``extends: BASE`` (the id of a shipped pack, or a folder relative
to the variant's). The base is read first, as a pack of its own (it may extend another); its
files are then marked as inherited, so that every error located in them says "in the base pack
ID"; the variant's files change its sections (see :mod:`~rulekit.pack.merge`). A variant may read
the files of its base's folder. A base that cannot be found, or a chain of packs that comes back
to itself, is an error located at ``extends``.
"""

from __future__ import annotations

import os
from pathlib import Path

from rulekit.errors import PackError, PackErrors, PackFileError
from rulekit.pack.documents import Documents
from rulekit.pack.find import OutsideError, check_name, display_path, find_pack
from rulekit.pack.merge import merge_manifest
from rulekit.source.document import YamlDocument


def read_documents(folder: Path, chain: tuple[Path, ...] = ()) -> Documents:
    """The documents of the pack in ``folder``, merged with those of its base; raises
    :class:`~rulekit.errors.PackErrors` if a file is missing or does not match its schema."""
    docs = Documents(folder)
    manifest_doc = docs.read_manifest()
    ref = manifest_doc.data.get("extends")
    manifest: YamlDocument = manifest_doc
    if ref is not None:
        base = _read_base(folder, manifest_doc, str(ref), (*chain, folder.resolve()))
        docs.roots = (folder, *base.roots)
        docs.documents = [*base.documents, *docs.documents]
        docs.merger = base.merger
        docs.merger.errors = docs.errors
        docs.inherited_rules = base.pack_rules
        docs.base_id = str(base.manifest_id)
        docs.base_scenario_files = base.own_scenario_files
        assert base.manifest is not None
        manifest = merge_manifest(base.manifest, manifest_doc)
    docs.manifest = manifest
    docs.read_includes(manifest_doc, changes=ref is not None)
    docs.own_scenario_files = docs.scenario_files(manifest_doc)
    docs.pack_rules = docs.rules(manifest_doc)
    docs.manifest_id = str(manifest_doc.data["id"])
    docs.fail_if_errors()
    return docs


def _read_base(folder: Path, manifest_doc: YamlDocument, ref: str,
               chain: tuple[Path, ...]) -> Documents:
    where = manifest_doc.location(("extends",))
    try:
        if "/" in ref or "\\" in ref or ref.startswith("."):
            check_name(ref, "the base pack folder")
            base_folder = Path(os.path.normpath(folder / ref))
            if not (base_folder / "pack.yaml").is_file():
                raise PackErrors([PackFileError(
                    f"the base pack folder '{ref}' has no pack.yaml", where,
                    "extends names a shipped pack by id, or a pack folder relative to this one")])
        else:
            base_folder = find_pack(ref)
    except OutsideError as exc:
        raise PackErrors([PackFileError(exc.message, where, exc.hint)]) from None
    except PackErrors:
        raise
    except PackError as exc:
        raise PackErrors([PackFileError(exc.message, where, exc.hint)]) from None
    if base_folder.resolve() in chain:
        cycle = [*chain[chain.index(base_folder.resolve()):], base_folder.resolve()]
        raise PackErrors([PackFileError(
            "the pack extends itself: " + " -> ".join(display_path(p) for p in cycle), where,
            "a variant extends a base pack, which may not extend the variant")])
    try:
        base = read_documents(base_folder, chain)
    except PackErrors as exc:
        origin = _origin(base_folder)
        for error in exc.errors:
            _mark(error, origin)
        raise
    origin = f"in the base pack {base.manifest_id}"
    for doc in base.documents:
        doc.origin = doc.origin or origin
    return base


def _origin(folder: Path) -> str:
    return f"in the base pack {folder.name}"


def _mark(error: PackError, origin: str) -> None:
    if error.location is not None and not error.location.origin:
        error.location = error.location.replace(origin=origin)
