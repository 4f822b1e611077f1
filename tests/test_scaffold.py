"""``rulekit new``: a new pack (or a copy of one) that validates, tests, simulates and plays at
once; editors find its schemas wherever it lives; bad names and full folders are refused."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
import yaml
from helpers_cli import Run, runner
from jsonschema import Draft202012Validator

from rulekit.source.schema import SCHEMA_DIR

HEADER = re.compile(r"^# yaml-language-server: \$schema=(\S+)\n")


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    return runner(capsys)


def test_new_pack_validates_tests_simulates_and_plays(run: Run, tmp_path: Path) -> None:
    folder = tmp_path / "my_game"
    code, out, err = run("new", folder)
    assert code == 0, err
    assert out.startswith(f"{folder}: a new pack, 7 files; ok (12 cards, 7 scenarios)")
    assert f"rulekit play {folder} --seat red=human" in out
    code, out, err = run("validate", folder)
    assert (code, out) == (0, "my_game: ok (12 cards, 7 scenarios)\n".replace(
        "my_game", str(folder))), err
    code, out, err = run("test", folder, "--require-coverage")
    assert code == 0, out + err
    assert "7 passed, 0 failed" in out and "rules covered: 5 of 5" in out
    code, out, err = run("simulate", folder, "-n", "30", "--seed", "1", "--json")
    assert code == 0, err
    result = json.loads(out)
    assert result["games"] == 30 and result["capped"] == 0
    code, out, err = run("play", folder, "--seat", "red=random", "--seat", "blue=random",
                         "--fast", "--seed", "2", "--no-color", "--save", tmp_path / "game.json")
    assert code == 0, err
    assert "Game over" in out


def test_the_template_teaches_a_secrecy_test_that_can_fail(run: Run, tmp_path: Path) -> None:
    folder = tmp_path / "secrets"
    assert run("new", folder)[0] == 0
    path = folder / "scenarios" / "basics.yaml"
    text = path.read_text("utf-8")
    assert "    sees:" in text and "    log_for:" in text and "# The most important test" in text
    code, out, _ = run("test", folder, "-k", "secret")
    assert code == 0 and "1 passed, 0 failed" in out, out
    # a pack that showed Red's hand to Blue fails the scenario, at the line of the assertion
    leak = text.replace("hand[red]: {count: 3, cards: hidden}",
                        "hand[red]: {count: 3, contains: [copper#1]}")
    path.write_text(leak, "utf-8")
    code, out, _ = run("test", folder, "-k", "secret")
    line = leak[:leak.index("contains: [copper#1]}")].count("\n") + 1
    assert code == 1 and f"basics.yaml:{line}:" in out and \
        "blue sees hand[red] as [hidden, hidden, hidden]" in out, out
    path.write_text(text.replace("not_contains: [Copper]", "not_contains: [Gold]"), "utf-8")
    code, out, _ = run("test", folder, "-k", "secret")
    assert code == 1 and "Gold" in out, out


def test_the_template_declares_its_card_properties(run: Run, tmp_path: Path) -> None:
    folder = tmp_path / "typo"
    assert run("new", folder)[0] == 0
    cards = folder / "cards.yaml"
    text = cards.read_text("utf-8").replace("name: Crown,  value: 5", "name: Crown,  vlaue: 5")
    cards.write_text(text, "utf-8")
    code, out, err = run("validate", folder)
    line = text[:text.index("vlaue: 5")].count("\n") + 1
    said = out + err
    assert code == 1 and f"cards.yaml:{line}:" in said and "did you mean 'value'" in said, said


def test_new_pack_is_named_after_its_folder(run: Run, tmp_path: Path) -> None:
    assert run("new", tmp_path / "tide-pool")[0] == 0
    manifest = yaml.safe_load((tmp_path / "tide-pool" / "pack.yaml").read_text("utf-8"))
    assert (manifest["id"], manifest["name"]) == ("tide-pool", "Tide Pool")
    readme = (tmp_path / "tide-pool" / "README.md").read_text("utf-8")
    assert readme.startswith("# Tide Pool\n") and "rulekit test tide-pool" in readme


def _schema_of(path: Path) -> Path:
    match = HEADER.match(path.read_text(encoding="utf-8"))
    assert match, f"{path} has no yaml-language-server header on its first line"
    return (path.parent / match.group(1)).resolve()


HIDEOUT = str(Path(__file__).resolve().parent.parent / "docs" / "examples" / "hideout")


@pytest.mark.parametrize("base", [None, HIDEOUT], ids=["template", "copy"])
def test_every_yaml_file_names_a_schema_inside_the_pack(run: Run, tmp_path: Path,
                                                        base: str | None) -> None:
    folder = tmp_path / "elsewhere" / "pack"
    folder.parent.mkdir()
    assert run("new", folder, *(["--from", base] if base else []))[0] == 0
    files = sorted(folder.rglob("*.yaml"))
    assert len(files) >= (3 if base else 6)
    kinds = set()
    for path in files:
        schema = _schema_of(path)
        assert schema.parent == folder.resolve() / ".schemas", path  # resolves in the pack
        assert schema.read_bytes() == (SCHEMA_DIR / schema.name).read_bytes()
        kinds.add(schema.name)
        errors = list(Draft202012Validator(json.loads(schema.read_text("utf-8"))).iter_errors(
            yaml.safe_load(path.read_text("utf-8"))))
        assert errors == [], f"{path} against {schema.name}: {errors[0].message}"
    assert {"pack.schema.json", "content.schema.json", "scenarios.schema.json"} <= kinds


def test_variant_of_a_shipped_pack(run: Run, tmp_path: Path) -> None:
    folder = tmp_path / "long_chase"
    code, out, err = run("new", folder, "--from", "carchase")
    assert code == 0, err
    assert out.startswith(f"{folder}: a variant of carchase, ")
    assert "ok (78 cards, 1 scenarios)" in out
    manifest = yaml.safe_load((folder / "pack.yaml").read_text("utf-8"))
    assert manifest == {"id": "long_chase", "name": "Long Chase", "version": "0.1.0",
                        "extends": "carchase", "include": ["changes.yaml"],
                        "scenarios": ["scenarios/*.yaml"]}
    assert sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*.yaml")
                  if ".schemas" not in p.parts) == [
        "changes.yaml", "pack.yaml", "scenarios/variant.yaml"]
    readme = (folder / "README.md").read_text("utf-8")
    assert "`extends:` carchase" in readme and "--with-base" in readme
    scenario = (folder / "scenarios" / "variant.yaml").read_text("utf-8")
    assert "sees:\n      fugitive:\n        hand[law]: {cards: hidden}\n" in scenario
    code, out, err = run("test", folder, "--with-base", "-k", "escape")
    assert code == 0 and "base: 13 passed, 0 failed" in out, out + err
    changes = folder / "changes.yaml"  # uncommenting the example of changes.yaml works
    changes.write_text(changes.read_text("utf-8").replace("# cards:", "cards:").replace(
        "#   - {id:", "  - {id:").replace("cards: []\n", ""), "utf-8")
    code, out, err = run("validate", folder)
    assert code == 0 and "ok (79 cards" in out, out + err
    code, out, err = run("simulate", folder, "-n", "5", "--seed", "1", "-p", "turns=9")
    assert code == 0, err


def test_refuses_a_folder_that_is_not_empty(run: Run, tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "notes.txt").write_text("keep me", encoding="utf-8")
    code, out, err = run("new", folder)
    assert code == 1 and out == ""
    assert f"'{folder}' already exists and is not empty; nothing was written" in err
    assert [p.name for p in folder.iterdir()] == ["notes.txt"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine"]  # no temporary folder left


def test_an_empty_folder_is_filled(run: Run, tmp_path: Path) -> None:
    folder = tmp_path / "empty"
    folder.mkdir()
    assert run("new", folder)[0] == 0
    assert (folder / "pack.yaml").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty"]


@pytest.mark.parametrize("name, hint", [
    ("My Game", "hint: try '{parent}/my_game'"),
    ("9lives", "hint: try '{parent}/pack_9lives'"),
    ("Crème", "hint: try '{parent}/creme'"),
])
def test_bad_names_are_refused_with_a_hint(run: Run, tmp_path: Path, name: str,
                                           hint: str) -> None:
    code, out, err = run("new", tmp_path / name)
    assert code == 1 and out == ""
    assert f"rulekit: error: '{name}' cannot name a pack: use lower-case letters" in err
    assert hint.format(parent=tmp_path) in err
    assert list(tmp_path.iterdir()) == []


def test_missing_parent_folder_and_unknown_base(run: Run, tmp_path: Path) -> None:
    code, _, err = run("new", tmp_path / "no" / "game")
    assert code == 1 and f"no folder '{tmp_path / 'no'}'" in err
    code, _, err = run("new", tmp_path / "game", "--from", "carchas")
    assert code == 1 and "carchas: no pack folder, nor a pack of that id" in err
    assert "did you mean 'carchase'?" in err
    assert list(tmp_path.iterdir()) == []


def test_a_folder_that_cannot_be_written_is_a_message(run: Run, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> str:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("rulekit.authoring.scaffold.tempfile.mkdtemp", refuse)
    code, _, err = run("new", tmp_path / "game")
    assert code == 1
    assert f"cannot create '{tmp_path / 'game'}': Permission denied" in err


@pytest.mark.parametrize("base", [None, "carchase"])
def test_new_folders_follow_the_umask(run: Run, tmp_path: Path, base: str | None) -> None:
    mask = os.umask(0o022)
    try:
        code, _, _ = run("new", tmp_path / "mine", *(["--from", base] if base else []))
    finally:
        os.umask(mask)
    assert code == 0
    folders = [tmp_path / "mine", *(p for p in (tmp_path / "mine").rglob("*") if p.is_dir())]
    assert {oct(folder.stat().st_mode & 0o777) for folder in folders} == {oct(0o755)}
