"""Read the documents of a pack, and of the pack it extends if any."""

from __future__ import annotations

import os
from pathlib import Path

from rulekit.errors import Location, PackError, PackErrors, PackFileError
from rulekit.pack.documents import Documents
from rulekit.pack.find import OutsideError, check_name, display_path, find_pack
from rulekit.pack.merge import merge_manifest
from rulekit.source.document import YamlDocument


def read_documents(folder: Path, chain: tuple[Path, ...] = ()) -> Documents:
    """The documents of the pack in ``folder``, merged with its base's; raises PackErrors."""
    docs = Documents(folder)
    manifest_doc = docs.read_manifest()
    ref = manifest_doc.data.get("extends")
    docs.manifest = manifest_doc
    if ref is not None:
        base = _read_base(folder, manifest_doc, str(ref), (*chain, folder.resolve()))
        _inherit(docs, base, manifest_doc)
    docs.read_includes(manifest_doc, changes=ref is not None)
    docs.own_scenario_files = docs.scenario_files(manifest_doc)
    docs.pack_rules = docs.rules(manifest_doc)
    docs.manifest_id = str(manifest_doc.data["id"])
    docs.fail_if_errors()
    return docs


def _inherit(docs: Documents, base: Documents, manifest_doc: YamlDocument) -> None:
    docs.roots = (docs.folder, *base.roots)
    docs.documents = [*base.documents, *docs.documents]
    docs.merger = base.merger
    docs.merger.errors = docs.errors
    docs.inherited_rules = base.pack_rules
    docs.base_id = str(base.manifest_id)
    docs.base_scenario_files = base.own_scenario_files
    assert base.manifest is not None
    docs.manifest = merge_manifest(base.manifest, manifest_doc, docs.base_id, docs.errors)
    docs.merger.start_changes(docs.base_id)


def _read_base(folder: Path, manifest_doc: YamlDocument, ref: str,
               chain: tuple[Path, ...]) -> Documents:
    where = manifest_doc.location(("extends",))
    try:
        base_folder = _find_base(folder, ref)
    except (OutsideError, PackError) as exc:
        raise PackErrors([PackFileError(exc.message, where, exc.hint)]) from None
    _refuse_cycle(base_folder, chain, where)
    try:
        base = read_documents(base_folder, chain)
    except PackErrors as exc:
        for error in exc.errors:
            if error.location is not None and not error.location.origin:
                error.location = error.location.replace(
                    origin=f"in the base pack {base_folder.name}")
        raise
    origin = f"in the base pack {base.manifest_id}"
    for doc in base.documents:
        doc.origin = doc.origin or origin
    return base


def _find_base(folder: Path, ref: str) -> Path:
    if not ("/" in ref or "\\" in ref or ref.startswith(".")):
        return find_pack(ref)
    check_name(ref, "the base pack folder")
    base_folder = Path(os.path.normpath(folder / ref))
    if not (base_folder / "pack.yaml").is_file():
        raise PackFileError(f"the base pack folder '{ref}' has no pack.yaml", hint="extends names "
                            "a shipped pack by id, or a pack folder relative to this one")
    return base_folder


def _refuse_cycle(base_folder: Path, chain: tuple[Path, ...], where: Location) -> None:
    """An error if the base is one of the packs that extend it."""
    resolved = base_folder.resolve()
    if resolved in chain:
        cycle = [*chain[chain.index(resolved):], resolved]
        raise PackErrors([PackFileError(
            "the pack extends itself: " + " -> ".join(display_path(p) for p in cycle), where,
            "a variant extends a base pack, which may not extend the variant")])
