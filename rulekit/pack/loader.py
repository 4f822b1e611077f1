"""Load a pack folder: YAML files, schemas, declarations, effect code; compile it to a Game.

``load_pack(ref, params)`` finds the pack (a folder path, or the id of a shipped pack), reads
``pack.yaml`` and the files it includes, checks each against its schema, builds the
:class:`~rulekit.model.symbols.Symbols`, parses, checks and compiles every piece of effect code,
and returns a :class:`LoadedPack` whose ``game`` plays it. All mistakes found are raised
together as :class:`~rulekit.errors.PackErrors`.

The phases live in their own modules: :mod:`~rulekit.pack.find` (finding a pack),
:mod:`~rulekit.pack.documents` (reading YAML against the schemas),
:mod:`~rulekit.pack.declarations` (symbols) and :mod:`~rulekit.pack.build` (effect code).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulekit.engine.game import Game
from rulekit.errors import EffectCheckError, PackError, PackErrors, RulekitError, UsageError
from rulekit.lang import nodes as n
from rulekit.lang.checker import Checker
from rulekit.lang.compiler import Body, Compiler
from rulekit.lang.parser import parse_expression
from rulekit.model.program import ExprFn, Program
from rulekit.model.symbols import Symbols
from rulekit.pack.build import CodeBuilder
from rulekit.pack.declarations import Declarations
from rulekit.pack.display import Display, read_display
from rulekit.pack.documents import Documents
from rulekit.pack.extends import read_documents
from rulekit.pack.find import PACKS_ENV, display_path, find_pack, shipped_packs_dir
from rulekit.pack.params import parse_params, resolve_params
from rulekit.pack.properties import check_properties
from rulekit.source.document import YamlDocument
from rulekit.source.snippet import Snippet


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
    manifest_doc: YamlDocument | None = None  # the manifest (merged with its base's)

    @property
    def id(self) -> str:
        return str(self.manifest["id"])


def _load(folder: Path, overrides: dict[str, Any], compile_bodies: bool) -> LoadedPack:
    docs = read_documents(folder)
    manifest_doc = docs.manifest
    assert manifest_doc is not None
    manifest: dict[str, Any] = manifest_doc.data
    check_properties(docs.content, docs.errors)
    symbols, labels = Declarations(docs).build(manifest_doc, overrides)
    program = Program()
    compiler = Compiler(symbols, program)
    builder = CodeBuilder(docs, manifest_doc)
    builder.compile_code(symbols, compiler, compile_bodies)
    display = read_display(*docs.section("display", None), symbols, docs.errors,
                           builder.bodies)
    game = _game(docs, symbols, program, labels)
    docs.fail_if_errors()
    return LoadedPack(folder, manifest, docs.documents, game, docs.own_scenario_files,
                      docs.pack_rules, docs.content, docs.base_id, docs.base_scenario_files,
                      docs.roots, display, builder.bodies, builder.function_trees, manifest_doc)


def _game(docs: Documents, symbols: Symbols, program: Program,
          labels: dict[str, str]) -> Game:
    manifest: dict[str, Any] = docs.manifest.data if docs.manifest is not None else {}
    role_names = {r["id"]: r.get("name", r["id"]) for r in manifest["roles"]}
    return Game(pack_id=manifest["id"], pack_name=manifest["name"],
                version=str(manifest["version"]), pack_hash=docs.pack_hash(),
                role_names=role_names, symbols=symbols, program=program,
                params=symbols.parameters, card_labels=labels)


def load_pack(ref: str | Path, params: dict[str, Any] | None = None, *,
              checked_only: bool = False) -> LoadedPack:
    """Load, check and compile a pack named by path or id.

    ``checked_only``: every check is made (all the errors a load finds are found), but the
    statement lists of procedures, setup and phases are not compiled to Python, so the game
    cannot be played (``rulekit validate``: compiling code that checks finds no mistake)."""
    folder = ref if isinstance(ref, Path) else find_pack(ref)
    try:
        return _load(folder, params or {}, not checked_only)
    except (PackErrors, UsageError):
        raise
    except PackError as exc:
        raise PackErrors([exc]) from None
    except RulekitError:
        raise


def compile_expectation(loaded: LoadedPack, snippet: Snippet) -> ExprFn:
    """Compile a scenario's ``expect`` expression (which may name winner and finished)."""
    expr = parse_expression(snippet)
    game = loaded.game
    checker = Checker(game.symbols, snippet, context="expect")
    checker.check_expr(expr, "bool")
    if checker.errors:
        raise PackErrors(checker.errors)
    return Compiler(game.symbols, game.program).expr(expr)


__all__ = ["PACKS_ENV", "EffectCheckError", "LoadedPack", "compile_expectation", "display_path",
           "find_pack", "load_pack", "parse_params", "resolve_params", "shipped_packs_dir"]
