"""Tests of the JSON Schemas in schemas/ and of rulekit.source.schema's messages."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator  # type: ignore[import-untyped, unused-ignore]

from rulekit.errors import SchemaError
from rulekit.source.document import load_yaml
from rulekit.source.schema import SCHEMA_DIR, load_schema, validate_document

SCHEMAS = ["pack", "content", "scenarios"]
DOCS = Path(__file__).resolve().parent.parent / "docs" / "pack-format.md"

Check = Callable[[str, str], list[SchemaError]]


@pytest.fixture
def check(tmp_path: Path) -> Check:
    """Validate a YAML text against a schema; the file is displayed as t.yaml."""

    def _check(text: str, schema: str) -> list[SchemaError]:
        path = tmp_path / "t.yaml"
        path.write_text(text, encoding="utf-8")
        return validate_document(load_yaml(path, "t.yaml"), schema)

    return _check


def only(errors: list[SchemaError]) -> SchemaError:
    assert len(errors) == 1, [str(e) for e in errors]
    return errors[0]


def at(error: SchemaError) -> tuple[int, int]:
    assert error.location is not None
    return error.location.line, error.location.column


# -- the schemas themselves ------------------------------------------------------------------


@pytest.mark.parametrize("name", SCHEMAS)
def test_schema_is_valid_draft_2020_12(name: str) -> None:
    schema = load_schema(name)
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == f"https://rulekit.dev/schemas/{name}.schema.json"
    assert schema["title"] and schema["description"]


def walk_properties(node: Any, where: str = "#") -> Iterator[tuple[str, Any]]:
    if isinstance(node, dict):
        for key, value in node.get("properties", {}).items():  # a map of property schemas
            yield f"{where}/properties/{key}", value
            yield from walk_properties(value, f"{where}/properties/{key}")
        for key, value in node.items():
            if key != "properties":
                yield from walk_properties(value, f"{where}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from walk_properties(value, f"{where}/{index}")


@pytest.mark.parametrize("name", SCHEMAS)
def test_every_property_has_a_description(name: str) -> None:
    schema = load_schema(name)
    missing = [
        where
        for where, prop in walk_properties(schema)
        if "/if/" not in where and "/then/" not in where and "description" not in prop
    ]
    assert missing == []


def test_load_schema_names_and_cache() -> None:
    assert load_schema("pack") is load_schema("pack")
    assert load_schema("pack.schema.json")["$id"] == load_schema("pack")["$id"]
    assert (SCHEMA_DIR / "content.schema.json").is_file()
    with pytest.raises(ValueError, match="no schema"):
        load_schema("nope")


# -- valid files -------------------------------------------------------------------------------

MINIMAL_PACK = """\
id: demo
name: Demo
version: 1.0.0
roles:
  - {id: hunter}
include: [flow.yaml]
"""

MINIMAL_CONTENT = """\
flow:
  phases:
    - id: play
      do: |
        end_round
"""

MINIMAL_SCENARIOS = """\
scenarios:
  - name: Nothing happens
"""


@pytest.mark.parametrize(
    ("text", "schema"),
    [(MINIMAL_PACK, "pack"), (MINIMAL_CONTENT, "content"), (MINIMAL_SCENARIOS, "scenarios")],
)
def test_minimal_files_pass(check: Check, text: str, schema: str) -> None:
    assert check(text, schema) == []


def test_empty_content_sections_are_optional(check: Check) -> None:
    assert check("cards: []\n", "content") == []
    assert check("setup: |\n  shuffle deck\n", "content") == []


def doc_examples() -> list[tuple[str, str]]:
    """The ```yaml blocks of docs/pack-format.md, with the schema each belongs to."""
    text = DOCS.read_text(encoding="utf-8")
    examples = []
    for block in re.findall(r"```yaml\n(.*?)```", text, re.S):
        if block.startswith(("id:", "# variant: pack.yaml")):
            schema = "pack"
        elif block.startswith("scenarios:"):
            schema = "scenarios"
        else:
            schema = "content"
        examples.append((block, schema))
    return examples


@pytest.mark.skipif(not DOCS.is_file(), reason="docs not present")
def test_documentation_examples_pass(check: Check) -> None:
    examples = doc_examples()
    assert {schema for _, schema in examples} == set(SCHEMAS)
    for block, schema in examples:
        assert [str(e) for e in check(block, schema)] == [], block


def test_full_content_file_passes(check: Check) -> None:
    text = """\
cards:
  - {id: bust, name: Bust, type: I, score: 8, rare: true}
  - {id: token_1, name: Token 1, copies: 2}
zones:
  deck: {visibility: hidden, initial: all}
  hand: {per_role: true, visibility: owner}
  shelf: {visibility: public, initial: [bust, token_1#2]}
variables:
  alarm: {initial: false}
  label: {initial: text, visibility: hidden}
  nothing: {initial: null}
  score: {per_role: true, initial: 0, visibility: owner, min: 0, max: 10}
functions:
  total: {params: {cards: list}, returns: "sum([c.score for c in cards])"}
  zero: {returns: "0"}
procedures:
  refill: {params: {p: role, n: int}, do: "draw n from deck to hand[p]"}
setup: shuffle deck
flow:
  rounds: 5
  phases:
    - {id: draw, name: Draw, do: "refill(hunter, 1)"}
  end_when:
    - {when: "alarm", winner: hunter, reason: Caught}
  after_rounds: win hunter "time"
"""
    assert check(text, "content") == []


# -- messages --------------------------------------------------------------------------------


def test_unknown_key_points_at_the_key_with_hint(check: Check) -> None:
    text = "flow:\n  phases:\n    - id: draw\n      dso: |\n        draw 1\n"
    error = only(check(text, "content"))  # the missing 'do' is not reported on top
    assert error.message == "unknown key 'dso' in phase"
    assert at(error) == (4, 7)
    assert error.hint == "did you mean 'do'?"
    assert error.location is not None and error.location.source_line == "      dso: |"
    assert str(error).startswith("t.yaml:4:7: unknown key 'dso' in phase")


def test_unknown_key_without_close_match_lists_allowed_keys(check: Check) -> None:
    error = only(check(MINIMAL_PACK + "colour: red\n", "pack"))
    assert error.message == "unknown key 'colour' in pack manifest"
    assert at(error) == (7, 1)
    assert error.hint is not None and error.hint.startswith("allowed keys: id, name")


def test_several_unknown_keys_each_reported(check: Check) -> None:
    errors = check("flow:\n  phases: []\n  rouns: 3\n  end_whn: []\n", "content")
    messages = [(e.message, at(e), e.hint) for e in errors]
    assert ("unknown key 'rouns' in flow", (3, 3), "did you mean 'rounds'?") in messages
    assert ("unknown key 'end_whn' in flow", (4, 3), "did you mean 'end_when'?") in messages


def test_wrong_type(check: Check) -> None:
    text = "variables:\n  security: {initial: 2, min: 0, max: abc}\n"
    error = only(check(text, "content"))
    assert error.message == "expected an integer, got text 'abc'"
    assert at(error) == (2, 39)


def test_number_where_text_expected_hints_quotes(check: Check) -> None:
    error = only(check(MINIMAL_PACK.replace("1.0.0", "1.0"), "pack"))
    assert error.message == "expected text, got the number 1.0"
    assert at(error) == (3, 10)
    assert error.hint == 'put it in quotes to make it text: "1.0"'


def test_yaml_boolean_words_explained(check: Check) -> None:
    text = MINIMAL_CONTENT + "  end_when:\n    - {when: done, winner: no}\n"
    error = only(check(text, "content"))
    assert error.message == "expected text, got 'no', which YAML reads as false"
    assert at(error) == (7, 28)


def test_empty_value_points_at_its_key(check: Check) -> None:
    error = only(check("flow:\n  phases:\n    - id: draw\n      do:\n", "content"))
    assert error.message == "expected text, got nothing"
    assert at(error) == (4, 7)


def test_missing_required_key(check: Check) -> None:
    text = "flow:\n  phases:\n    - name: Draw\n      do: draw 1\n"
    error = only(check(text, "content"))
    assert error.message.startswith("missing required key 'id'")
    assert error.message == "missing required key 'id' in phase"
    assert at(error) == (3, 7)


def test_missing_required_keys_are_merged(check: Check) -> None:
    error = only(check("id: demo\nname: Demo\nroles: [{id: a}]\n", "pack"))
    assert error.message == "missing required keys 'version' and 'include' in pack manifest"
    assert at(error) == (1, 1)


def test_bad_enum(check: Check) -> None:
    error = only(check("zones:\n  deck: {visibility: secret}\n", "content"))
    assert error.message == "expected one of public, owner, hidden, card_owner, got 'secret'"
    assert at(error) == (2, 22)


def test_bad_enum_with_close_match(check: Check) -> None:
    error = only(check("procedures:\n  p: {params: {x: itn}, do: x}\n", "content"))
    assert error.message.startswith("expected one of int, bool, text, role, card, node, edge")
    assert error.hint == "did you mean 'int'?"


def test_pattern_says_what_it_means(check: Check) -> None:
    error = only(check(MINIMAL_PACK.replace("id: demo", "id: Demo Chase"), "pack"))
    assert error.message == (
        "invalid pack id 'Demo Chase': use lower-case letters, digits, '_' and '-', "
        "starting with a letter"
    )
    assert at(error) == (1, 5)
    assert error.hint == "try 'demo_chase'"


def test_bad_mapping_key_points_at_the_key(check: Check) -> None:
    error = only(
        check("zones:\n  deck: {visibility: hidden}\n  dis-card: {visibility: public}\n", "content")
    )
    assert error.message.startswith("invalid zone id 'dis-card': use letters, digits and '_'")
    assert at(error) == (3, 3)
    assert error.hint == "try 'dis_card'"


def test_owner_visibility_needs_an_owner(tmp_path: Path) -> None:
    """The schema allows visibility 'owner'; the loader checks that the zone has an owner."""
    from rulekit.errors import PackErrors
    from rulekit.pack.loader import load_pack

    (tmp_path / "pack.yaml").write_text(
        "id: demo\nname: Demo\nversion: '1'\nroles: [{id: a}, {id: b}]\n"
        "include: [content.yaml]\n"
    )
    (tmp_path / "content.yaml").write_text(
        "zones:\n  hand: {visibility: owner}\n"
        "variables:\n  score: {initial: 0, visibility: owner}\n"
        "flow:\n  rounds: 1\n  phases:\n    - {id: p, do: pass}\n"
    )
    with pytest.raises(PackErrors) as caught:
        load_pack(tmp_path)
    found = [(e.message, e.location.line if e.location else 0) for e in caught.value.errors]
    assert found == [
        ("zone 'hand' has visibility 'owner' but no owner", 2),
        ("variable 'score' has visibility 'owner' but no owner", 4),
    ]


def test_any_of_reports_the_meant_alternative(check: Check) -> None:
    errors = check("zones:\n  deck: {visibility: hidden, initial: al}\n", "content")
    error = only(errors)
    assert error.message == "expected 'all' or a list, got text 'al'"
    assert error.hint == "did you mean 'all'?"
    error = only(check("zones:\n  deck: {visibility: hidden, initial: [a, 3]}\n", "content"))
    assert error.message == "expected text, got the number 3"
    assert at(error) == (2, 43)


def test_card_properties_are_open_but_scalar(check: Check) -> None:
    errors = check("cards:\n  - {id: a, score: [1], bad-key: 2}\n", "content")
    assert [(e.message, at(e)) for e in errors] == [
        ("expected an integer, text or true/false, got a list", (2, 20)),
        (
            "invalid card property name 'bad-key': use letters, digits and '_', "
            "not starting with a digit",
            (2, 25),
        ),
    ]


def test_rounds_is_an_expression_or_an_integer(check: Check) -> None:
    base = "flow:\n  phases: [{id: a, do: x}]\n  rounds: "
    assert check(base + "turns\n", "content") == []
    assert check(base + "7\n", "content") == []
    error = only(check(base + "[1]\n", "content"))
    assert error.message == "expected text or an integer, got a list"


def test_empty_file(check: Check) -> None:
    error = only(check("", "pack"))
    assert error.message == "expected a mapping, got nothing (the file is empty)"
    assert at(error) == (1, 1)


def test_errors_are_sorted_and_not_repeated(check: Check) -> None:
    text = (
        "extra: 1\n"
        "flow:\n"
        "  phases:\n"
        "    - {id: 1, do: x}\n"
        "    - {id: b, do: x, nme: B}\n"
        "cards: [{name: x}]\n"
    )
    errors = check(text, "content")
    positions = [at(e) for e in errors]
    assert positions == sorted(positions)
    assert len({(at(e), e.message) for e in errors}) == len(errors)
    assert [e.message for e in errors] == [
        "unknown key 'extra' in content file",
        "expected text, got the number 1",
        "unknown key 'nme' in phase",
        "missing required key 'id' in card",
    ]


def test_duplicate_list_items_point_at_the_second(check: Check) -> None:
    error = only(
        check(MINIMAL_PACK.replace("[flow.yaml]", "[flow.yaml, a.yaml, flow.yaml]"), "pack")
    )
    assert error.message == "'flow.yaml' is listed twice"
    assert at(error) == (6, 30)


def test_scenario_file_messages(check: Check) -> None:
    text = """\
scenarios:
  - name: Ties
    seed: -1
    start: {round: 1}
    zones: {"hand[": [bust]}
    play:
      - {hunter: [bust], runner: yes}
    expect: [winner == hunter, 3]
    expect_eror: boom
"""
    errors = check(text, "scenarios")
    assert [(at(e), e.message) for e in errors] == [
        ((3, 11), "expected at least 0, got -1"),
        ((4, 12), "missing required key 'phase' in start"),
        (
            (5, 13),
            "invalid zone 'hand[': write a zone id, or zone[index] for a zone per role, "
            "node, edge, region or number (hand[hunter], face_down[3])",
        ),
        ((7, 34), "expected text or a list, got 'yes', which YAML reads as true"),
        ((8, 32), "expected text, got the number 3"),
        ((9, 5), "unknown key 'expect_eror' in scenario"),
    ]
    assert errors[-1].hint == "did you mean 'expect_error'?"


def test_full_scenario_passes(check: Check) -> None:
    text = """\
scenarios:
  - name: Ties go to the runner
    covers: [DM-03]
    seed: 1
    params: {turns: 1}
    start: {round: 1, phase: search}
    zones:
      hand[hunter]: [bust, raid]
      deck: [token_1#2]
    variables: {security: 3, "score[runner]": 2, alarm: false, label: x, gone: null}
    play:
      - {hunter: [bust], runner: []}
      - {hunter: "Bridge"}
    expect: ["winner == hunter"]
    expect_error: null
  - name: Errors
    expect_error: step budget
"""
    assert check(text, "scenarios") == []
