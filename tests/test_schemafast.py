"""The quick schema check says a document conforms exactly when jsonschema says so.

The documents of the shipped packs and of the examples, and many mutations of each (keys
dropped, added, values of the wrong type, duplicates...), are checked both ways.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import yaml
from jsonschema import Draft202012Validator  # type: ignore[import-untyped, unused-ignore]

from rulekit.source.document import load_yaml
from rulekit.source.schema import load_schema, validate_document
from rulekit.source.schemafast import Unsure, conforms

ROOT = Path(__file__).resolve().parent.parent
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
ODD_VALUES: list[Any] = [None, True, False, 1, 0, -5, 2.5, 3.0, "", "Bad Id", "ok_id", [],
                         {}, ["a", "a"], {"a": 1}, "x" * 300, [1, True], [{"a": 1}, {"a": 1}]]


def _schema_of(path: Path) -> str:
    if path.parent.name == "scenarios":
        return "scenarios"
    return {"pack.yaml": "pack", "rules.yaml": "rules"}.get(path.name, "content")


def _documents() -> list[tuple[Path, str, Any]]:
    found = []
    for pattern in ("games/*/*.yaml", "games/*/scenarios/*.yaml", "docs/examples/*/*.yaml"):
        for path in sorted(ROOT.glob(pattern)):
            found.append((path, _schema_of(path), yaml.load(path.read_text("utf-8"), LOADER)))
    return found


def _mutate(value: Any, rng: random.Random) -> Any:
    if isinstance(value, dict) and value and rng.random() < 0.75:
        key = rng.choice(list(value))
        changed = dict(value)
        roll = rng.random()
        if roll < 0.2:
            del changed[key]
        elif roll < 0.3:
            changed[key + "x"] = changed[key]
        else:
            changed[key] = _mutate(changed[key], rng)
        return changed
    if isinstance(value, list) and value and rng.random() < 0.75:
        items = list(value)
        index = rng.randrange(len(items))
        roll = rng.random()
        if roll < 0.2:
            items.append(items[index])
        elif roll < 0.3:
            del items[index]
        else:
            items[index] = _mutate(items[index], rng)
        return items
    return rng.choice(ODD_VALUES)


@pytest.mark.parametrize("path, schema_name, data", _documents(),
                         ids=lambda item: item.name if isinstance(item, Path) else "")
def test_the_quick_check_agrees_with_jsonschema(path: Path, schema_name: str,
                                                data: Any) -> None:
    schema = load_schema(schema_name)
    validator = Draft202012Validator(schema)
    rng = random.Random(path.name)
    valid = 0
    for case in [data, *(_mutate(data, rng) for _ in range(6))]:
        expected = next(iter(validator.iter_errors(case)), None) is None
        try:
            assert conforms(case, schema, schema) is expected, case
        except Unsure as exc:
            pytest.fail(f"the quick check does not know {exc} of the {schema_name} schema")
        valid += expected
    assert valid >= 1


def test_a_document_that_does_not_conform_is_explained(tmp_path: Path) -> None:
    file = tmp_path / "pack.yaml"
    file.write_text("id: Bad Id\nname: x\n", encoding="utf-8")
    errors = validate_document(load_yaml(file, "pack.yaml"), "pack")
    assert errors and all(e.location is not None and e.location.file == "pack.yaml"
                          for e in errors)
    assert any("invalid" in e.message and e.location and e.location.line == 1 for e in errors)


TREE = {"$defs": {"node": {"type": "object", "required": ["name"], "additionalProperties": False,
                           "properties": {"name": {"type": "string", "pattern": "^[a-z]+$"},
                                          "children": {"type": "array",
                                                       "items": {"$ref": "#/$defs/node"}}}}},
        "$ref": "#/$defs/node"}


@pytest.mark.parametrize("case", [
    {"name": "a"},
    {"name": "a", "children": [{"name": "b", "children": [{"name": "c"}]}]},
    {"name": "a", "children": [{"name": "b", "children": [{"name": "C"}]}]},
    {"name": "a", "children": [{"name": "b", "children": [{"nom": "c"}]}]},
    {"name": "a", "children": [{"name": "b", "extra": 1}]},
    {"name": 3},
])
def test_a_schema_that_refers_to_itself_is_checked_at_every_depth(case: Any) -> None:
    expected = next(iter(Draft202012Validator(TREE).iter_errors(case)), None) is None
    assert conforms(case, TREE, TREE) is expected


def test_a_keyword_the_quick_check_does_not_know_makes_it_unsure() -> None:
    schema = {"type": "object", "properties": {"a": {"dependentRequired": {"a": ["b"]}}}}
    with pytest.raises(Unsure):
        conforms({}, schema, schema)
