"""Validation after an edit: what ``rulekit validate`` reports with its cache is what it reports
from scratch (``--no-cache``), after edits of every kind; an edit that keeps what the pack's
files mean (a comment, blank lines, the spaces of code) is answered from the cache, reading only
the edited files; an entry that is corrupt, foreign or stale is ignored."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from helpers_cli import Run

from rulekit.pack.meaning import code_tokens
from rulekit.source.datafiles import data_dir


def as_from_scratch(run: Run, pack: Path, loads: list[Path]) -> tuple[int, str, str]:
    """Validate ``pack`` with the cache, as text and as JSON; check that a validation from
    scratch reports the same, byte for byte (not counted in ``loads``); return the text
    report."""
    found = run("validate", pack)
    as_json = run("validate", "--format", "json", pack)
    counted = len(loads)
    assert run("validate", "--no-cache", pack) == found
    assert run("validate", "--format", "json", "--no-cache", pack) == as_json
    del loads[counted:]
    return found


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} is not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def first_block(path: Path) -> tuple[str, str]:
    """The line that opens the first ``do: |`` block of ``path`` and the line after it."""
    lines = path.read_text(encoding="utf-8").split("\n")
    at = next(i for i, line in enumerate(lines) if line.rstrip().endswith("do: |"))
    return lines[at], lines[at + 1]


def shipped(name: str, tmp_path: Path) -> Path:
    folder = tmp_path / name
    shutil.copytree(data_dir("games") / name, folder)
    return folder


# -- the tokens of code ---------------------------------------------------------------------

def test_code_tokens_leave_out_comments_and_the_width_of_spaces() -> None:
    assert code_tokens("  let x = 1   # one\n\n\tx += 2  # two") == "let x = 1 x += 2"
    assert code_tokens("a#c\nb") == code_tokens("a b") != code_tokens("ab")
    assert code_tokens("# only a comment\n") == code_tokens("") == ""


def test_code_tokens_keep_what_is_not_a_comment() -> None:
    assert code_tokens('log "a # b"  # c') == 'log "a # b"'
    assert code_tokens("log 'it''s # here'") == "log 'it''s # here'"
    assert code_tokens("move @ace#2 to x") == "move @ace#2 to x"
    assert code_tokens("move @ace #2\nto x") == "move @ace to x"
    assert code_tokens("a\u00a0b") == "a\u00a0b"  # not a space of the language


def test_code_tokens_refuse_a_quote_that_opens_no_string() -> None:
    assert code_tokens('log "never closed') is None
    assert code_tokens("log 'a\nb'") is None


# -- edits that keep the meaning: answered from the cache -----------------------------------

def comment_at_end(pack: Path) -> None:
    with open(pack / "flow.yaml", "a", encoding="utf-8") as handle:
        handle.write("\n# edited\n")


def comment_line_in_the_middle(pack: Path) -> None:
    edit(pack / "flow.yaml", "\n  phases:", "\n  # the phases, in order\n\n  phases:")


def comment_in_code(pack: Path) -> None:
    opening, first = first_block(pack / "flow.yaml")
    indent = " " * (len(first) - len(first.lstrip()))
    edit(pack / "flow.yaml", f"{opening}\n", f"{opening}\n{indent}# a note  \n{indent}\n")


def spaces_in_code(pack: Path) -> None:
    _, first = first_block(pack / "flow.yaml")
    code = first.lstrip()
    assert '"' not in code and "'" not in code
    edit(pack / "flow.yaml", first, first[:len(first) - len(code)] + code.replace(" ", " \t ")
         + "   # wider")


@pytest.mark.parametrize("name", ["carchase", "rednotice"])
@pytest.mark.parametrize("change", [comment_at_end, comment_line_in_the_middle,
                                    comment_in_code, spaces_in_code])
def test_an_edit_that_keeps_the_meaning_is_answered_from_the_cache(
        run: Run, cache: Path, loads: list[Path], tmp_path: Path, name: str,
        change: Any) -> None:
    pack = shipped(name, tmp_path)
    first = run("validate", pack)
    assert first[0] == 0 and len(loads) == 1
    change(pack)
    assert run("validate", pack) == first
    assert len(loads) == 1  # nothing validated again
    assert as_from_scratch(run, pack, loads) == first
    assert len(loads) == 1


# -- edits that change the meaning: validated again -----------------------------------------

@pytest.mark.parametrize("name", ["carchase", "rednotice"])
def test_an_error_brought_in_by_code_and_taken_out(run: Run, cache: Path, loads: list[Path],
                                                   tmp_path: Path, name: str) -> None:
    pack = shipped(name, tmp_path)
    first = run("validate", pack)
    opening, line = first_block(pack / "flow.yaml")
    indent = " " * (len(line) - len(line.lstrip()))
    edit(pack / "flow.yaml", f"{opening}\n", f"{opening}\n{indent}no_such_variable = 1\n")
    code, _, err = as_from_scratch(run, pack, loads)
    assert code == 1 and "no_such_variable" in err
    edit(pack / "flow.yaml", f"{indent}no_such_variable = 1\n", f"{indent}# fixed\n")
    assert as_from_scratch(run, pack, loads) == first


def test_a_change_of_code_is_validated_again(run: Run, cache: Path, loads: list[Path],
                                             tmp_path: Path) -> None:
    pack = shipped("carchase", tmp_path)
    first = run("validate", pack)
    edit(pack / "flow.yaml", "let missing = n\n", "let missing = n + 0\n")
    assert as_from_scratch(run, pack, loads) == first and len(loads) == 2
    edit(pack / "flow.yaml", "let missing = n + 0\n", "let missing = n + 'zero'\n")
    code, _, err = as_from_scratch(run, pack, loads)
    assert code == 1 and "error" in err and len(loads) == 4  # never cached


@pytest.mark.parametrize(("before", "after", "validated"), [
    ('"The discard pile # is shuffled', '"The discard pile # was shuffled', 2),
    ('"The discard pile is shuffled', '"The discard pile is shuffled" # ', 2),
    ('log "The discard pile is shuffled', 'log  "The discard pile is shuffled', 1)])
def test_a_hash_inside_a_text_of_code_is_no_comment(
        run: Run, cache: Path, loads: list[Path], tmp_path: Path, before: str, after: str,
        validated: int) -> None:
    pack = shipped("carchase", tmp_path)
    if "#" in before:
        edit(pack / "flow.yaml", '"The discard pile is shuffled', before)
    first = run("validate", pack)
    edit(pack / "flow.yaml", before, after)
    found = as_from_scratch(run, pack, loads)
    assert found == first and len(loads) == validated


def test_a_comment_that_ends_a_block_of_code_is_seen(run: Run, make_pack: Any, cache: Path,
                                                     loads: list[Path]) -> None:
    pack = make_pack()
    run("validate", pack)
    edit(pack / "game.yaml", "    if r > b", "# a comment less indented than the code\n"
                                            "    if r > b")
    code, _, err = as_from_scratch(run, pack, loads)
    assert code == 1 and "game.yaml" in err and len(loads) == 3


@pytest.mark.parametrize(("text", "validated"), [("Duel  # a comment", 1),
                                                ("Duel# part of the name", 2)])
def test_a_hash_in_a_plain_text_of_yaml(run: Run, make_pack: Any, cache: Path,
                                        loads: list[Path], text: str, validated: int) -> None:
    pack = make_pack()
    first = run("validate", pack)
    edit(pack / "pack.yaml", "name: Duel\n", f"name: {text}\n")
    assert as_from_scratch(run, pack, loads) == first and len(loads) == validated


def test_warnings_in_an_edited_file_are_placed_again(run: Run, make_pack: Any, cache: Path,
                                                    loads: list[Path]) -> None:
    pack = make_pack()
    first = run("validate", pack)
    assert "game.yaml:5:3: warning" in first[2]
    edit(pack / "game.yaml", "zones:\n", "# the zones\nzones:\n")
    code, _, err = as_from_scratch(run, pack, loads)
    assert code == 0 and "game.yaml:6:3: warning" in err and len(loads) == 2


def test_a_comment_in_a_file_without_warnings_keeps_those_elsewhere(
        run: Run, make_pack: Any, cache: Path, loads: list[Path]) -> None:
    pack = make_pack()
    first = run("validate", pack)
    edit(pack / "pack.yaml", "include: [game.yaml]\n",
         "# what it is made of\ninclude: [game.yaml]\n")
    assert run("validate", pack) == first and len(loads) == 1
    assert as_from_scratch(run, pack, loads) == first


def test_a_file_added_to_include(run: Run, make_pack: Any, cache: Path,
                                 loads: list[Path]) -> None:
    pack = make_pack()
    run("validate", pack)
    (pack / "more.yaml").write_text("variables:\n  spare: {initial: 0}\n", encoding="utf-8")
    assert run("validate", pack)[0] == 0 and len(loads) == 2  # a new file: validated again
    edit(pack / "pack.yaml", "include: [game.yaml]", "include: [game.yaml, more.yaml]")
    code, _, err = as_from_scratch(run, pack, loads)
    assert code == 0 and "variable 'spare' is never used" in err and len(loads) == 3


def test_an_edit_of_a_file_validation_does_not_read(run: Run, make_pack: Any, cache: Path,
                                                    loads: list[Path]) -> None:
    pack = make_pack()
    (pack / "README.md").write_text("# Duel\n", encoding="utf-8")
    first = run("validate", pack)
    (pack / "README.md").write_text("# Duel\n\nA game.\n", encoding="utf-8")
    assert as_from_scratch(run, pack, loads) == first and len(loads) == 2


def test_a_variant_whose_base_pack_changed(run: Run, cache: Path, loads: list[Path],
                                           tmp_path: Path) -> None:
    base = shipped("carchase", tmp_path)
    variant = tmp_path / "variant"
    variant.mkdir()
    (variant / "pack.yaml").write_text(
        "id: variant\nname: Variant\nversion: '1.0'\nextends: ../carchase\n",
        encoding="utf-8")
    first = run("validate", variant)
    assert first[0] == 0
    comment_in_code(base)
    assert run("validate", variant) == first and len(loads) == 1  # the same meaning
    assert as_from_scratch(run, variant, loads) == first
    opening, line = first_block(base / "flow.yaml")
    indent = " " * (len(line) - len(line.lstrip()))
    edit(base / "flow.yaml", f"{opening}\n", f"{opening}\n{indent}no_such_variable = 1\n")
    code, _, err = as_from_scratch(run, variant, loads)
    assert code == 1 and "in the base pack carchase" in err


# -- entries that are not to be believed ----------------------------------------------------

def entry_of(cache: Path) -> Path:
    (entry,) = cache.glob("validate/*.json")
    return entry


def test_a_foreign_entry_is_ignored(run: Run, make_pack: Any, cache: Path,
                                    loads: list[Path]) -> None:
    pack = make_pack()
    first = run("validate", pack)
    entry_of(cache).chmod(0o666)  # others may have written it
    assert run("validate", pack) == first and len(loads) == 2


@pytest.mark.parametrize("spoil", ["stamp", "meaning", "code", "garbage"])
def test_a_stale_or_corrupt_entry_is_ignored_after_an_edit(
        run: Run, make_pack: Any, cache: Path, loads: list[Path], spoil: str) -> None:
    pack = make_pack()
    first = run("validate", pack)
    entry = entry_of(cache)
    found = json.loads(entry.read_text(encoding="utf-8"))
    manifest = str((pack / "pack.yaml").resolve())
    found["summary"] = "what it was not"
    if spoil == "stamp":
        found["stamp"] = "another rulekit"
    elif spoil == "meaning":  # with numbers left out or not
        found["meanings"][manifest][3:5] = ["0" * 64, "0" * 64]
    elif spoil == "code":  # the name as if it were code: its tokens do not change below
        found["meanings"][manifest][2] = [["name"]]
    else:
        found["meanings"][manifest] = "garbage"
    entry.write_text(json.dumps(found), encoding="utf-8")
    edit(pack / "pack.yaml", "name: Duel\n",
         "name: 'Duel  '\n" if spoil == "code" else "name: Duel  # a comment\n")
    assert as_from_scratch(run, pack, loads) == first and len(loads) == 2
