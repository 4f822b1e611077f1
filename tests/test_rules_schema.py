"""``schemas/rules.schema.json``: every shipped rules file holds to it, and a broken one gets
located messages a designer can act on."""

from __future__ import annotations

from pathlib import Path

import pytest
from jsonschema import Draft202012Validator  # type: ignore[import-untyped, unused-ignore]

from rulekit.errors import SchemaError
from rulekit.source.document import load_yaml
from rulekit.source.schema import load_schema, validate_document

ROOT = Path(__file__).resolve().parent.parent
RULES_FILES = sorted([*ROOT.glob("games/*/rules.yaml"), *ROOT.glob("docs/examples/*/rules.yaml")])


def test_the_schema_is_draft_2020_12() -> None:
    schema = load_schema("rules")
    Draft202012Validator.check_schema(schema)
    assert schema["$id"] == "https://rulekit.dev/schemas/rules.schema.json"


def test_every_shipped_rules_file_is_found() -> None:
    assert {p.parent.name for p in RULES_FILES} >= {"carchase", "rednotice", "hideout"}


@pytest.mark.parametrize("path", RULES_FILES, ids=lambda p: p.parent.name)
def test_shipped_rules_files_validate(path: Path) -> None:
    assert validate_document(load_yaml(path), "rules") == []


def _errors(tmp_path: Path, text: str) -> list[SchemaError]:
    path = tmp_path / "rules.yaml"
    path.write_text(text, encoding="utf-8")
    return validate_document(load_yaml(path, "rules.yaml"), "rules")


def test_a_misspelt_key_is_named_with_a_hint(tmp_path: Path) -> None:
    errors = _errors(tmp_path, "rules:\n  - id: HO-01\n    txt: The game lasts 5 turns.\n")
    assert len(errors) == 1, [str(e) for e in errors]
    error = errors[0]
    assert error.location is not None
    assert (error.location.file, error.location.line, error.location.column) == \
        ("rules.yaml", 3, 5)
    assert "txt" in error.message
    assert error.hint is not None and "did you mean 'text'?" in error.hint


def test_a_bad_id_says_what_an_id_may_be(tmp_path: Path) -> None:
    errors = _errors(tmp_path, 'rules:\n  - {id: "HO 01", text: Ties go to the runner.}\n')
    assert len(errors) == 1, [str(e) for e in errors]
    assert errors[0].location is not None and errors[0].location.line == 2
    assert "use letters, digits, '-', '_' and '.', starting with a letter" in str(errors[0])


@pytest.mark.parametrize("text, words", [
    ("rule:\n  - {id: A-1, text: x}\n", "rule"),
    ("rules: []\n", "rules"),
    ("rules:\n  - {id: A-1}\n", "text"),
])
def test_other_mistakes_are_reported(tmp_path: Path, text: str, words: str) -> None:
    errors = _errors(tmp_path, text)
    assert errors and words in str(errors[0])
