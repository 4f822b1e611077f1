"""A pack from a stranger cannot read outside its folder nor make loading cost more than a
moment: each attempt is refused with an error at the line that asks for it, naming the limit."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rulekit.errors import PackError, PackErrors
from rulekit.limits import (
    MAX_BLOCK_NESTING,
    MAX_CODE_CHARS,
    MAX_CODE_NESTING,
    MAX_COPIES,
    MAX_FILE_BYTES,
    MAX_PACK_CODE_CHARS,
    MAX_PATH_CHARS,
    MAX_YAML_VALUES,
)
from rulekit.pack.loader import load_pack
from tests.helpers_lang import BASE, MANIFEST, content, locate, write_pack


def errors_of(folder: Path) -> list[PackError]:
    with pytest.raises(PackErrors) as info:
        load_pack(folder)
    return info.value.errors


def manifest_error(tmp_path: Path, extra: str, *, needle: str | None = None,
                   manifest: str = MANIFEST) -> PackError:
    """The one error of a test pack whose manifest ends with ``extra``; it must point at
    ``needle`` (default: the value of ``extra``) in pack.yaml and quote that line."""
    text = manifest + extra
    folder = write_pack(tmp_path / "pack", content(), text)
    errors = errors_of(folder)
    assert len(errors) == 1, errors
    error = errors[0]
    loc = error.location
    assert loc is not None and loc.file.endswith("pack.yaml")
    line, column = locate(text, needle or extra.split(":", 1)[1].strip())
    assert (loc.line, loc.column) == (line, column), str(error)
    assert loc.source_line == text.splitlines()[line - 1]
    return error


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A YAML file next to the pack folder, which the pack must not read."""
    secret = tmp_path / "secret.yaml"
    secret.write_text("password: hunter2\n", encoding="utf-8")
    return secret


# ------------------------------------------------------------------ a pack reads only its folder


@pytest.mark.parametrize("name", ["../secret.yaml", "sub/../../secret.yaml"])
def test_an_include_outside_the_folder_is_refused(tmp_path: Path, outside: Path,
                                                  name: str) -> None:
    manifest = MANIFEST.replace("include: [content.yaml]", f"include: [content.yaml, {name}]")
    folder = write_pack(tmp_path / "pack", content(), manifest)
    (error,) = errors_of(folder)
    assert error.message == f"'{name}' is outside the pack folder; a pack reads only files " \
                            "inside its own folder"
    assert error.location is not None
    assert (error.location.line, error.location.column) == locate(manifest, name)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_pipe_in_a_pack_is_refused_where_it_is_named(tmp_path: Path) -> None:
    """Reading a named pipe would block for ever: an include or a scenario file that is one
    is refused, located where the manifest names it."""
    manifest = MANIFEST.replace("include: [content.yaml]", "include: [content.yaml, more.yaml]")
    folder = write_pack(tmp_path / "pack", content(), manifest)
    os.mkfifo(folder / "more.yaml")
    (error,) = errors_of(folder)
    assert error.message == "included file 'more.yaml' is a pipe or a device, not a file"
    assert error.location is not None
    assert (error.location.line, error.location.column) == locate(manifest, "more.yaml")
    text = MANIFEST + "scenarios: ['tests/*.yaml']\n"
    folder = write_pack(tmp_path / "scenarios", content(), text)
    (folder / "tests").mkdir()
    os.mkfifo(folder / "tests" / "pipe.yaml")
    (error,) = errors_of(folder)
    assert error.message == "the pattern 'tests/*.yaml' matches a pipe or a device " \
                            "'tests/pipe.yaml'"
    assert error.location is not None and error.location.line == text.count("\n")


def test_an_absolute_include_is_refused(tmp_path: Path, outside: Path) -> None:
    manifest = MANIFEST.replace("include: [content.yaml]", f"include: [content.yaml, {outside}]")
    folder = write_pack(tmp_path / "pack", content(), manifest)
    (error,) = errors_of(folder)
    assert "is an absolute path" in error.message
    assert "hunter2" not in str(error)


def test_a_rules_file_outside_is_never_read(tmp_path: Path) -> None:
    error = manifest_error(tmp_path, "rules: /etc/passwd\n")
    assert "absolute path" in error.message
    assert "root:" not in str(error)


def test_a_link_out_of_the_folder_is_refused(tmp_path: Path, outside: Path) -> None:
    folder = write_pack(tmp_path / "pack", content(),
                        MANIFEST.replace("include: [content.yaml]",
                                         "include: [content.yaml, more.yaml]"))
    os.symlink(outside, folder / "more.yaml")
    (error,) = errors_of(folder)
    assert "'more.yaml' is outside the pack folder" in error.message
    assert "hunter2" not in str(error)


def test_a_link_inside_the_folder_is_fine(tmp_path: Path) -> None:
    folder = write_pack(tmp_path / "pack", content(),
                        MANIFEST.replace("include: [content.yaml]", "include: [linked.yaml]"))
    os.symlink(folder / "content.yaml", folder / "linked.yaml")
    assert load_pack(folder).game.symbols.roles == ["a", "b"]


@pytest.mark.parametrize("pattern", ["'**/../../../../etc/host*'", "'../*.yaml'"])
def test_a_scenario_pattern_cannot_climb_out(tmp_path: Path, outside: Path,
                                             pattern: str) -> None:
    error = manifest_error(tmp_path, f"scenarios: [{pattern}]\n", needle=pattern)
    assert "climbs out of the pack folder" in error.message


def test_a_scenario_file_linked_from_outside_is_refused(tmp_path: Path, outside: Path) -> None:
    text = MANIFEST + "scenarios: ['tests/*.yaml']\n"
    folder = write_pack(tmp_path / "pack", content(), text)
    (folder / "tests").mkdir()
    os.symlink(outside, folder / "tests" / "stolen.yaml")
    (error,) = errors_of(folder)
    assert error.message.startswith("'tests/stolen.yaml' is outside the pack folder")
    assert error.location is not None and error.location.line == text.count("\n")


def test_a_scenario_pattern_matching_a_folder_is_located(tmp_path: Path) -> None:
    text = MANIFEST + "scenarios: ['*']\n"
    folder = write_pack(tmp_path / "pack", content(), text)
    (folder / "tests").mkdir()
    (error,) = errors_of(folder)
    assert error.message == "the pattern '*' matches the folder 'tests'"
    assert error.location is not None
    assert (error.location.line, error.location.column) == locate(text, "'*'")


@pytest.mark.parametrize("key", ["include", "scenarios", "rules"])
def test_a_very_long_file_name_names_the_limit(tmp_path: Path, key: str) -> None:
    name = "x" * 300
    extra = f"rules: {name}\n" if key == "rules" else f"{key}: [{name}]\n"
    manifest = MANIFEST.replace("include: [content.yaml]\n", "") + (
        "" if key == "include" else "include: [content.yaml]\n")
    error = manifest_error(tmp_path, extra, needle=name, manifest=manifest)
    assert f"is 300 characters long; the limit is {MAX_PATH_CHARS}" in error.message


# ------------------------------------------------------------------ bounded work


def test_too_many_copies_name_the_limit(tmp_path: Path) -> None:
    base = BASE.replace("{id: c6, name: Six, kind: z, score: 6}",
                        "{id: c6, name: Six, kind: z, score: 6, copies: 100000000}")
    text = content(base=base)
    (error,) = errors_of(write_pack(tmp_path / "p", text))
    assert error.message == (f"100,000,000 copies of card 'c6' are too many; the limit is "
                             f"{MAX_COPIES:,}")
    assert error.location is not None
    assert (error.location.line, error.location.column) == locate(text, "100000000")


def test_a_file_of_too_many_values_is_refused_before_they_are_built(tmp_path: Path) -> None:
    # Within the size limit, a file of tiny values once took seconds and a gigabyte to load.
    text = content() + "notes:\n" + "- 1\n" * (MAX_YAML_VALUES + 10)
    (error,) = errors_of(write_pack(tmp_path / "p", text))
    assert error.message == f"this file holds more than {MAX_YAML_VALUES:,} values (the limit)"
    assert error.location is not None and error.location.file.endswith("content.yaml")
    first_value = text.count("\n", 0, text.index("notes:")) + 2  # line of the first "- 1"
    assert error.location.line > first_value + MAX_YAML_VALUES - 200


def test_a_piece_of_code_too_long_is_refused_at_its_start(tmp_path: Path) -> None:
    code = "score += 1\n" * (MAX_CODE_CHARS // 11 + 1)
    text = content(phases={"main": code})
    (error,) = errors_of(write_pack(tmp_path / "p", text))
    assert error.message == (f"this code is {len(code):,} characters long; the limit "
                             f"is {MAX_CODE_CHARS:,}")
    assert error.location is not None
    assert (error.location.line, error.location.column) == locate(text, "score += 1")


def test_the_code_of_a_pack_is_bounded_in_all(tmp_path: Path) -> None:
    # Each piece is within its limit; together they pass the pack's.
    piece = "score += 1\n" * (MAX_CODE_CHARS // 12)
    count = MAX_PACK_CODE_CHARS // len(piece) + 1
    procs = {f"p{i}": ("", piece.replace("1", str(i + 2), 1)) for i in range(count)}
    text = content(procs=procs, phases={"main": "; ".join(f"p{i}()" for i in range(count))})
    (error,) = errors_of(write_pack(tmp_path / "p", text))
    assert error.message == (f"the pack's effect code passes {MAX_PACK_CODE_CHARS:,} "
                             "characters here (the limit)")
    assert error.location is not None
    assert error.location.line == locate(text, f"score += {count + 1}")[0]


def test_too_many_piles_name_the_limit(tmp_path: Path) -> None:
    text = content(base=BASE + "  counter: {per: 100000000, initial: 0}\n")
    (error,) = errors_of(write_pack(tmp_path / "p", text))
    assert error.message.startswith("per: 100,000,000 asks for too many piles or values; "
                                    f"the limit is {MAX_COPIES:,}")
    assert error.location is not None
    assert error.location.line == locate(text, "100000000")[0]


def test_a_content_file_over_the_size_limit_is_refused_unread(tmp_path: Path) -> None:
    folder = write_pack(tmp_path / "p", content() + "#" * MAX_FILE_BYTES + "\n")
    (error,) = errors_of(folder)
    assert error.message.startswith("'content.yaml' is 5,24")
    assert error.message.endswith(f"the limit for a pack file is {MAX_FILE_BYTES:,} bytes")
    assert error.location is not None and error.location.file.endswith("pack.yaml")


def test_a_huge_number_in_yaml_is_located(tmp_path: Path) -> None:
    text = content(base=BASE + "  big: {initial: " + "9" * 5000 + "}\n")
    (error,) = errors_of(write_pack(tmp_path / "p", text))
    assert error.message.startswith("the number 99999999999999999999... (5000 chars) is too "
                                    "large; numbers lie within ±9,223,372,036,854,775,807")
    assert error.location is not None
    assert (error.location.line, error.location.column) == locate(text, "9999")


@pytest.mark.parametrize("digits", [20, 4301, 5000])
def test_a_huge_number_in_code_is_located(tmp_path: Path, digits: int) -> None:
    text = content(setup="let x = 1\nlet y = " + "7" * digits)
    (error,) = errors_of(write_pack(tmp_path / "p", text))
    assert "is too large; numbers lie within ±9,223,372,036,854,775,807" in error.message
    assert error.location is not None
    assert (error.location.line, error.location.column) == locate(text, "7777")


NESTED = {
    "250 nested lists": "let x = " + "[" * 250 + "1" + "]" * 250,
    "400 unary minus": "let x = " + "-" * 400 + "1",
    "400 not": "let x = " + "not " * 400 + "true",
    "900 plus": "let x = 1" + " + 1" * 900,
    "900 and": "let x = true" + " and true" * 900,
    "99 nested if": "if true { " * 99 + "total = 1" + " }" * 99,
    "21 nested while": "while false { " * 21 + "total = 1" + " }" * 21,
    "21 nested for": "for x in [1] { " * 21 + "total = 1" + " }" * 21,
}


@pytest.mark.parametrize("name", list(NESTED))
def test_deep_nesting_is_a_located_error_naming_the_limit(tmp_path: Path, name: str) -> None:
    text = content(setup="let a = 1\n" + NESTED[name])
    (error,) = errors_of(write_pack(tmp_path / "p", text))
    blocks = name.startswith(("99", "21"))
    limit = (f"more than {MAX_BLOCK_NESTING} blocks inside one another" if blocks
             else f"more than {MAX_CODE_NESTING} levels")
    assert error.message == f"the code is nested too deeply: {limit} (the limit)"
    assert error.location is not None and error.location.source_line is not None
    assert error.location.line == locate(text, NESTED[name][:8])[0]
    assert error.location.source_line == text.splitlines()[error.location.line - 1]


def test_nesting_up_to_the_limit_loads(tmp_path: Path) -> None:
    depth = MAX_BLOCK_NESTING
    code = "while false { " * depth + "let x = " + "-" * 60 + "1" + " }" * depth
    game = load_pack(write_pack(tmp_path / "p", content(setup=code))).game
    assert game.new_game(0)["result"]["reason"] == "the last round is over"


def test_a_huge_number_in_a_scenario_expect_fails_it_at_its_place(tmp_path: Path) -> None:
    from rulekit.scenarios.runner import run_scenarios

    folder = write_pack(tmp_path / "p", content(), MANIFEST + "scenarios: [s.yaml]\n")
    scenario = ("scenarios:\n  - name: big\n    expect:\n      - \"total == "
                + "8" * 5000 + "\"\n")
    (folder / "s.yaml").write_text(scenario, encoding="utf-8")
    (result,) = run_scenarios(load_pack(folder)).results
    assert not result.passed
    assert "is too large; numbers lie within" in result.message
    assert result.location is not None
    assert (result.location.line, result.location.column) == locate(scenario, "8888")


# ------------------------------------------------------------------ every error has a place


def test_a_pack_without_flow_points_at_its_includes(tmp_path: Path) -> None:
    text = content()
    text = text[:text.index("flow:")]
    (error,) = errors_of(write_pack(tmp_path / "p", text))
    assert error.message == "the pack has no flow section"
    assert error.location is not None and error.location.file.endswith("pack.yaml")
    assert (error.location.line, error.location.column) == locate(MANIFEST, "include")


def test_a_duplicate_role_is_located_once(tmp_path: Path) -> None:
    manifest = MANIFEST.replace("  - {id: b, name: Bob}", "  - {id: a, name: Bob}")
    errors = errors_of(write_pack(tmp_path / "p", content(), manifest))
    assert [e.message for e in errors] == ["role 'a' is given twice"]
    assert errors[0].location is not None
    assert (errors[0].location.line, errors[0].location.column) == locate(manifest,
                                                                          "a, name: Bob")


def test_a_role_named_with_a_word_of_the_language_is_located(tmp_path: Path) -> None:
    manifest = MANIFEST.replace("{id: b, name: Bob}", "{id: while, name: Bob}")
    (error,) = errors_of(write_pack(tmp_path / "p", content(), manifest))
    assert error.message == "'while' is a word of the effect language and cannot name a role"
    assert error.location is not None
    assert (error.location.line, error.location.column) == locate(manifest, "while")


@pytest.mark.parametrize("label", ["{}", "{", "}", "{name!x}", "{name:d}",
                                   "{name:>99999999999}", "{name.__class__}", "{name[0]}"])
def test_a_bad_card_label_template_is_located(tmp_path: Path, label: str) -> None:
    manifest = MANIFEST + f"display: {{card_label: '{label}'}}\n"
    (error,) = errors_of(write_pack(tmp_path / "p", content(), manifest))
    assert error.message.startswith("card_label ")
    assert error.location is not None
    assert error.location.line == manifest.count("\n")


def test_a_pack_name_too_long_for_the_system_is_a_clear_error() -> None:
    from rulekit.errors import PackFileError
    from rulekit.pack.loader import find_pack

    with pytest.raises(PackFileError) as info:
        find_pack("x" * 300)
    assert info.value.message.endswith(": cannot use this pack name: File name too long")


def test_a_manifest_linked_from_outside_is_refused(tmp_path: Path, outside: Path) -> None:
    folder = tmp_path / "pack"
    folder.mkdir()
    os.symlink(outside, folder / "pack.yaml")
    (error,) = errors_of(folder)
    assert "'pack.yaml' is outside the pack folder" in error.message
    assert "hunter2" not in str(error)


def test_a_scenario_value_of_the_wrong_type_fails_at_its_place(tmp_path: Path) -> None:
    from rulekit.scenarios.runner import run_scenarios

    folder = write_pack(tmp_path / "p", content(), MANIFEST + "scenarios: [s.yaml]\n")
    scenario = "scenarios:\n  - name: typed\n    variables: {score: c1}\n    expect: ['true']\n"
    (folder / "s.yaml").write_text(scenario, encoding="utf-8")
    (result,) = run_scenarios(load_pack(folder)).results
    assert result.message == "'score' holds a value of type int, not 'c1'"
    assert result.location is not None
    assert (result.location.line, result.location.column) == locate(scenario, "c1")
