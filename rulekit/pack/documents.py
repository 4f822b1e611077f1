"""Read the YAML files of a pack: its manifest, includes, rules and scenario list."""

from __future__ import annotations

from collections.abc import Collection
from functools import partial
from hashlib import sha256
from pathlib import Path

from rulekit.errors import Location, PackError, PackErrors, PackFileError, SchemaError, did_you_mean
from rulekit.pack.find import (
    OutsideError,
    display_path,
    glob_files,
    not_a_file,
    pack_file,
)
from rulekit.pack.merge import MergedDocument, Merger
from rulekit.source.document import JsonPath, YamlDocument, load_yaml
from rulekit.source.schema import validate_document
from rulekit.source.snippet import Snippet


def snippet(doc: YamlDocument, path: tuple[str | int, ...]) -> Snippet:
    """The effect code at ``path`` in ``doc``, located there."""
    value = doc.data
    for key in path:
        value = value[key]
    return Snippet(str(value), partial(doc.text_location, path))


def known(name: str, names: Collection[str], what: str, where: Location,
          errors: list[PackError]) -> bool:
    """Whether ``name`` is one of ``names``; if not, an error "unknown WHAT" at ``where``."""
    if name in names:
        return True
    errors.append(SchemaError(f"unknown {what} '{name}'", where, did_you_mean(name, names)))
    return False


class Documents:
    """The documents of one pack folder, their sections, and the errors found."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.roots: tuple[Path, ...] = (folder,)  # the folders its files may come from
        self.errors: list[PackError] = []
        self.documents: list[YamlDocument] = []
        self.merger = Merger(self.errors)
        self._content: MergedDocument | None = None
        self.manifest: YamlDocument | None = None  # merged with its base's for a variant
        self.inherited_rules: list[tuple[str, str]] = []
        self.base_id: str | None = None
        self.base_scenario_files: list[Path] = []
        self.own_scenario_files: list[Path] = []
        self.pack_rules: list[tuple[str, str]] = []
        self.manifest_id = ""

    def fail_if_errors(self) -> None:
        """Raise the errors found so far, if any, each told once (a card type's, say)."""
        if self.errors:
            raise PackErrors({str(error): error for error in self.errors}.values())

    def read(self, path: Path, schema: str) -> YamlDocument | None:
        """The document at ``path``, if it loads and meets ``schema``."""
        try:
            doc = load_yaml(path, display_path(path))
        except PackError as exc:
            self.errors.append(exc)
            return None
        self.documents.append(doc)
        schema_errors = validate_document(doc, schema)
        self.errors.extend(schema_errors)
        return None if schema_errors else doc

    def read_manifest(self) -> YamlDocument:
        """``pack.yaml``, checked; raises if it is missing or bad."""
        folder = self.folder
        if not folder.is_dir():
            raise PackErrors([PackFileError(f"{folder}: a pack must be a folder")])
        manifest_path = folder / "pack.yaml"
        if not manifest_path.is_file():
            raise PackErrors([PackFileError(f"{display_path(folder)}: no pack.yaml in this folder",
                                            hint="a pack folder starts with a pack.yaml")])
        try:
            pack_file(folder, self.roots, "pack.yaml", "pack.yaml")
        except OutsideError as exc:
            raise PackErrors([PackFileError(f"{display_path(folder)}: {exc.message}",
                                            hint=exc.hint)]) from None
        manifest_doc = self.read(manifest_path, "pack")
        self.fail_if_errors()
        assert manifest_doc is not None
        return manifest_doc

    def read_includes(self, manifest_doc: YamlDocument, changes: bool = False) -> None:
        """Read and merge the included content files; with ``changes``, a variant's."""
        for i, name in enumerate(manifest_doc.data.get("include", [])):
            doc = self._named_file(manifest_doc, ("include", i), name, "included file", "content")
            if doc is not None and doc.data is not None:
                self.merger.add(doc, changes)
        self._content = None

    def rules(self, manifest_doc: YamlDocument) -> list[tuple[str, str]]:
        """The rules of the pack: its base's, replaced and added to by id."""
        rules = dict(self.inherited_rules)
        name = manifest_doc.data.get("rules")
        if name is None:
            return list(rules.items())
        doc = self._named_file(manifest_doc, ("rules",), name, "rules file", "rules")
        if doc is None:
            return []
        rules.update(self._rule_texts(doc))
        return list(rules.items())

    def _rule_texts(self, doc: YamlDocument) -> dict[str, str]:
        """The text of each rule of a rules file, by id."""
        texts: dict[str, str] = {}
        seen: dict[str, int] = {}
        for i, entry in enumerate(doc.data["rules"]):
            if entry["id"] in seen:
                first = doc.location(("rules", seen[entry["id"]])).line
                self.errors.append(SchemaError(
                    f"rule '{entry['id']}' is given twice", doc.location(("rules", i, "id")),
                    f"the first is on line {first}; give each rule its own id"))
            seen[entry["id"]] = i
            texts[entry["id"]] = str(entry["text"])
        return texts

    def scenario_files(self, manifest_doc: YamlDocument) -> list[Path]:
        """The files the ``scenarios`` patterns of the manifest match, each once."""
        files: list[Path] = []
        for i, pattern in enumerate(manifest_doc.data.get("scenarios", [])):
            matches = self._matches(pattern, manifest_doc.location(("scenarios", i)))
            files.extend(m for m in matches if m not in files)
        return files

    def _matches(self, pattern: str, where: Location) -> list[Path]:
        """The files a scenario pattern matches; an error at ``where`` if none."""
        try:
            matches = glob_files(self.folder, self.roots, pattern)
        except OutsideError as exc:
            self.errors.append(PackFileError(exc.message, where, exc.hint))
            return []
        if not matches:
            self.errors.append(PackFileError(f"no scenario file matches '{pattern}'", where))
        return matches

    def _named_file(self, doc: YamlDocument, at: JsonPath, name: str, what: str,
                    schema: str) -> YamlDocument | None:
        """The ``what`` named at ``at`` in ``doc``, if the pack may read it and it exists."""
        try:
            path = pack_file(self.folder, self.roots, name, f"the {what} name")
        except OutsideError as exc:
            self.errors.append(PackFileError(exc.message, doc.location(at), exc.hint))
            return None
        if not path.is_file():
            why = f"is {not_a_file(path)}, not a file" if path.exists() else "does not exist"
            self.errors.append(PackFileError(f"{what} '{name}' {why}", doc.location(at)))
            return None
        return self.read(path, schema)

    @property
    def content(self) -> MergedDocument:
        """The sections of the pack, merged from its files and its base's."""
        if self._content is None:
            self._content = self.merger.document("the pack's sections")
        return self._content

    def pack_hash(self) -> str:
        """A digest of the names and texts of the pack's files."""
        digest = sha256()
        for doc in sorted(self.documents, key=lambda d: d.path.name):
            digest.update(doc.path.name.encode())
            digest.update(doc.text.encode())
        return digest.hexdigest()[:16]
