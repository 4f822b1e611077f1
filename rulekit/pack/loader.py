"""Load a pack folder and compile it to a Game."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulekit.engine.game import Game
from rulekit.errors import PackError, PackErrors, PackFileError
from rulekit.lang import nodes as n
from rulekit.lang.compiler import Body, Compiler
from rulekit.model.program import ExprFn, Program
from rulekit.pack.build import Code, CodeBuilder
from rulekit.pack.declarations import Declarations
from rulekit.pack.display import Display, read_display
from rulekit.pack.extends import read_documents
from rulekit.pack.find import OutsideError, display_path, find_pack, pack_file, shipped_packs_dir
from rulekit.pack.params import parse_params
from rulekit.pack.properties import check_properties
from rulekit.source.document import YamlDocument


@dataclass
class LoadedPack:
    """A pack read from disk and compiled."""

    folder: Path
    manifest: dict[str, Any]
    documents: list[YamlDocument]
    game: Game
    scenario_files: list[Path] = field(default_factory=list)
    rules: list[tuple[str, str]] = field(default_factory=list)
    content: YamlDocument | None = None  # the sections, merged from the files that give them
    base_id: str | None = None  # the pack this one extends, if it is a variant
    base_scenario_files: list[Path] = field(default_factory=list)
    roots: tuple[Path, ...] = ()  # the folders its files come from: its own, then its bases'
    display: Display = field(default_factory=Display)  # how its table looks to a player
    # its statement lists (procedures, setup, phases, after_rounds), parsed and checked
    bodies: list[Body] = field(default_factory=list)
    function_trees: dict[str, n.Expr] = field(default_factory=dict)  # its functions, checked
    code: list[Code] = field(default_factory=list)  # each piece of its own code, parsed
    trees: dict[ExprFn, n.Expr] = field(default_factory=dict)  # each expression compiled, checked
    manifest_doc: YamlDocument | None = None  # the manifest (merged with its base's)

    @property
    def id(self) -> str:
        return str(self.manifest["id"])


def _learned_file(folder: Path, manifest_doc: YamlDocument, errors: list[PackError]
                  ) -> str | None:
    """The file the manifest's ``learned:`` names, inside the pack's own folder."""
    name = manifest_doc.data.get("learned")
    if not isinstance(name, str):
        return None
    try:
        return str(pack_file(folder, (folder,), name, "the learned weights file name"))
    except OutsideError as exc:
        errors.append(PackFileError(exc.message, manifest_doc.location(("learned",)), exc.hint))
        return None


def _load(folder: Path, overrides: Mapping[str, str | int]) -> LoadedPack:
    docs = read_documents(folder)
    manifest_doc = docs.manifest
    assert manifest_doc is not None
    manifest: dict[str, Any] = manifest_doc.data
    check_properties(docs.content, docs.errors)
    symbols, labels = Declarations(docs).build(manifest_doc, overrides)
    program = Program()
    compiler = Compiler(symbols, program)
    builder = CodeBuilder(docs, manifest_doc)
    builder.compile_code(symbols, compiler)
    display = read_display(docs.content, docs.content.data.get("display"), symbols,
                           docs.errors, builder.bodies)
    role_names = {r["id"]: r.get("name", r["id"]) for r in manifest["roles"]}
    game = Game(pack_id=manifest["id"], pack_name=manifest["name"],
                version=str(manifest["version"]), pack_hash=docs.pack_hash(),
                role_names=role_names, symbols=symbols, program=program,
                params=symbols.parameters, card_labels=labels,
                learned_file=_learned_file(folder, manifest_doc, docs.errors))
    docs.fail_if_errors()
    return LoadedPack(folder, manifest, docs.documents, game, docs.own_scenario_files,
                      docs.pack_rules, docs.content, docs.base_id, docs.base_scenario_files,
                      docs.roots, display, builder.bodies, builder.function_trees, builder.code,
                      compiler.trees, manifest_doc)


def load_pack(ref: str | Path, params: Mapping[str, str | int] | None = None) -> LoadedPack:
    """Load, check and compile a pack."""
    folder = ref if isinstance(ref, Path) else find_pack(ref)
    try:
        return _load(folder, params or {})
    except PackError as exc:
        raise PackErrors([exc]) from None


__all__ = ["LoadedPack", "display_path", "find_pack", "load_pack", "parse_params",
           "shipped_packs_dir"]
