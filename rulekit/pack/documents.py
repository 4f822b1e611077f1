"""Read the YAML documents of a pack: the manifest, its includes, rules and scenario list.

A :class:`Documents` collects the documents read, the sections they give and the errors found;
the later phases of loading (declarations, code) read sections from it and add their errors.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rulekit.errors import Location, PackError, PackErrors, PackFileError, SchemaError
from rulekit.lang.parser import Snippet
from rulekit.pack.files import OutsideError, display_path, glob_files, pack_file
from rulekit.schema import validate_document
from rulekit.yamlsource import JsonPath, YamlDocument, load_yaml


def snippet(doc: YamlDocument, path: tuple[str | int, ...]) -> Snippet:
    value = doc.data
    for key in path:
        value = value[key]
    text = str(value)

    def locate(line: int, column: int) -> Location:
        return doc.text_location(path, line, column)

    return Snippet(text, locate)


class Documents:
    """The documents of one pack folder, the sections they give, and the errors found so far."""

    def __init__(self, folder: Path, roots: Sequence[Path] = ()) -> None:
        self.folder = folder
        self.roots = tuple(roots) or (folder,)  # the folders its files may come from
        self.errors: list[PackError] = []
        self.documents: list[YamlDocument] = []
        self.sections: dict[str, tuple[YamlDocument, Any]] = {}

    def fail_if_errors(self) -> None:
        if self.errors:
            raise PackErrors(self.errors)

    def read(self, path: Path, schema: str) -> YamlDocument | None:
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
        """``pack.yaml`` checked against its schema; raises if the folder has none or it is bad."""
        folder = self.folder
        if not folder.is_dir():
            raise PackErrors([PackFileError(f"{folder}: a pack must be a folder")])
        manifest_path = folder / "pack.yaml"
        if not manifest_path.is_file():
            raise PackErrors([PackFileError(f"{display_path(folder)}: no pack.yaml in this folder",
                                            hint="a pack folder starts with a pack.yaml")])
        manifest_doc = self.read(manifest_path, "pack")
        self.fail_if_errors()
        assert manifest_doc is not None
        return manifest_doc

    def read_includes(self, manifest_doc: YamlDocument) -> None:
        """Read the content files the manifest includes and collect their sections."""
        for i, name in enumerate(manifest_doc.data.get("include", [])):
            path = self._pack_file(manifest_doc, ("include", i), name, "the included file name")
            if path is None:
                continue
            if not path.is_file():
                self.errors.append(PackFileError(
                    f"included file '{name}' does not exist",
                    manifest_doc.location(("include", i))))
                continue
            doc = self.read(path, "content")
            if doc is None or doc.data is None:
                continue
            for key, value in doc.data.items():
                if key in self.sections:
                    first = self.sections[key][0]
                    self.errors.append(SchemaError(
                        f"section '{key}' is already given in {first.display_name}",
                        doc.key_location((key,)), "each section may appear in one file only"))
                else:
                    self.sections[key] = (doc, value)

    def rules(self, manifest_doc: YamlDocument) -> list[tuple[str, str]]:
        name = manifest_doc.data.get("rules")
        if name is None:
            return []
        path = self._pack_file(manifest_doc, ("rules",), name, "the rules file name")
        if path is None:
            return []
        if not path.is_file():
            self.errors.append(PackFileError(f"rules file '{name}' does not exist",
                                             manifest_doc.location(("rules",))))
            return []
        try:
            doc = load_yaml(path, display_path(path))
        except PackError as exc:
            self.errors.append(exc)
            return []
        entries = doc.data.get("rules") if isinstance(doc.data, dict) else None
        if not isinstance(entries, list) or not all(
            isinstance(e, dict) and isinstance(e.get("id"), str) for e in entries
        ):
            self.errors.append(SchemaError("a rules file holds 'rules:', a list of {id, text}",
                                           doc.location(())))
            return []
        return [(e["id"], str(e.get("text", ""))) for e in entries]

    def scenario_files(self, manifest_doc: YamlDocument) -> list[Path]:
        files: list[Path] = []
        for i, pattern in enumerate(manifest_doc.data.get("scenarios", [])):
            try:
                matches = glob_files(self.folder, self.roots, pattern)
            except OutsideError as exc:
                self.errors.append(PackFileError(exc.message,
                                                 manifest_doc.location(("scenarios", i)),
                                                 exc.hint))
                continue
            if not matches:
                self.errors.append(PackFileError(f"no scenario file matches '{pattern}'",
                                                 manifest_doc.location(("scenarios", i))))
            files.extend(m for m in matches if m not in files)
        return files


    def _pack_file(self, doc: YamlDocument, at: JsonPath, name: str, what: str) -> Path | None:
        """The file named at ``at`` in ``doc``, or None (and an error) if the pack may not
        read it."""
        try:
            return pack_file(self.folder, self.roots, name, what)
        except OutsideError as exc:
            self.errors.append(PackFileError(exc.message, doc.location(at), exc.hint))
            return None

    def section(self, key: str, default: Any) -> tuple[YamlDocument | None, Any]:
        if key in self.sections:
            return self.sections[key]
        return None, default

    def pack_hash(self) -> str:
        digest = hashlib.sha256()
        for doc in sorted(self.documents, key=lambda d: d.path.name):
            digest.update(doc.path.name.encode())
            digest.update(doc.text.encode())
        return digest.hexdigest()[:16]

