"""The validation cache: an unchanged pack is answered from it, any edit is validated again,
errors are never cached, and a cache that is broken or cannot be written never fails validation."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers_cli import Run

import rulekit.checks.cache
import rulekit.errors
import rulekit.pack.loader
from rulekit.pack.loader import LoadedPack

UNUSED = ("  points: {per_role: true, initial: 0}\n",
          "  points: {per_role: true, initial: 0}\n  spare: {initial: 0}\n")


def test_an_unchanged_pack_is_answered_from_its_entry(run: Run, make_pack: Any,
                                                      cache: Path) -> None:
    pack = make_pack()
    assert run("validate", pack)[1] == f"{pack}: ok (2 cards, 2 scenarios; 3 warnings)\n"
    (entry,) = cache.glob("validate/*.json")
    found = json.loads(entry.read_text(encoding="utf-8"))
    found["report"]["summary"] = "as the cache says"
    found["report"]["diagnostics"] = []
    entry.write_text(json.dumps(found), encoding="utf-8")
    assert run("validate", pack)[1] == f"{pack}: ok (as the cache says)\n"
    assert run("validate", "--no-cache", pack)[1].endswith("(2 cards, 2 scenarios; 3 warnings)\n")


def test_an_unchanged_pack_is_not_loaded_again(run: Run, make_pack: Any, cache: Path,
                                               loads: list[Path]) -> None:
    pack = make_pack(replace={"game.yaml": UNUSED})
    first = run("validate", pack)
    assert first[0] == 0 and "warning" in first[1] and "'spare'" in first[2]
    assert len(loads) == 1 and list((cache / "validate").glob("*.json"))
    assert run("validate", pack) == first  # the same report, warnings and all
    json_first = run("validate", "--format", "json", pack)
    assert len(loads) == 1
    assert run("validate", "--format", "json", "--no-cache", pack) == json_first
    assert len(loads) == 2


def test_version_control_folders_are_not_read(run: Run, make_pack: Any, cache: Path,
                                              loads: list[Path]) -> None:
    pack = make_pack()
    run("validate", pack)
    (pack / ".git").mkdir()
    (pack / ".git/index").write_text("changes all the time", encoding="utf-8")
    run("validate", pack)
    assert len(loads) == 1


@pytest.mark.parametrize("change", ["a comment", "a digit", "a new file"])
def test_any_change_in_the_folder_is_validated_again(run: Run, make_pack: Any, cache: Path,
                                                      loads: list[Path], change: str) -> None:
    pack = make_pack()
    run("validate", pack)
    run("validate", pack)
    assert len(loads) == 1
    if change == "a comment":
        with open(pack / "game.yaml", "a", encoding="utf-8") as handle:
            handle.write("# a comment\n")
    elif change == "a digit":  # beyond the bounds of the parameter (1 to 20)
        scenario = pack / "scenarios/duel.yaml"
        scenario.write_text(scenario.read_text(encoding="utf-8").replace("turns: 1}", "turns: 91}"),
                            encoding="utf-8")
    else:  # a scenario file the pattern scenarios/*.yaml now finds, with a mistake
        (pack / "scenarios/more.yaml").write_text(
            "scenarios:\n  - name: n\n    expect: ['pointz[red] == 0']\n", encoding="utf-8")
    code, _, err = run("validate", pack)
    assert len(loads) == 2
    expected = {"a comment": "", "a digit": "must be between 1 and 20, not 91",
                "a new file": "unknown name 'pointz'"}[change]
    assert code == (1 if expected else 0) and expected in err


def test_a_change_in_the_base_pack_is_seen(run: Run, make_pack: Any, cache: Path,
                                           loads: list[Path], tmp_path: Path) -> None:
    make_pack("base")
    variant = tmp_path / "variant"
    variant.mkdir()
    (variant / "pack.yaml").write_text(
        "id: variant\nname: Variant\nversion: '1.0'\nextends: ../base\n", encoding="utf-8")
    assert run("validate", variant)[0] == 0
    run("validate", variant)
    assert len(loads) == 1
    game = tmp_path / "base/game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("points[red] += 1",
                                                             "pointz[red] += 1"),
                    encoding="utf-8")
    code, _, err = run("validate", variant)
    assert code == 1 and "in the base pack duel" in err and len(loads) == 2


def test_another_rulekit_validates_again(run: Run, make_pack: Any, cache: Path,
                                         loads: list[Path], monkeypatch: pytest.MonkeyPatch
                                         ) -> None:
    """Another version of rulekit edits its code, so the cache misses."""
    pack = make_pack()
    run("validate", pack)
    monkeypatch.setattr(rulekit.checks.cache, "_code_stamp", lambda: "edited")
    run("validate", pack)
    run("validate", pack)
    assert len(loads) == 2


def test_a_pack_with_errors_is_never_cached(run: Run, make_pack: Any, cache: Path,
                                            loads: list[Path]) -> None:
    pack = make_pack(replace={"game.yaml": ("points[red] += 1", "pointz[red] += 1")})
    for _ in range(2):
        assert run("validate", pack)[0] == 1
    assert len(loads) == 2 and not list(cache.glob("validate/*.json"))


def test_warnings_fail_under_strict_from_the_cache_too(run: Run, make_pack: Any,
                                                       cache: Path, loads: list[Path]) -> None:
    pack = make_pack(replace={"game.yaml": UNUSED})
    run("validate", pack)
    code, _, err = run("validate", "--strict", pack)
    assert code == 1 and "invalid (4 warnings)" in err and len(loads) == 1


def test_a_corrupt_cache_entry_is_ignored_and_replaced(run: Run, make_pack: Any, cache: Path,
                                                       loads: list[Path]) -> None:
    pack = make_pack()
    first = run("validate", pack)
    (entry,) = cache.glob("validate/*.json")
    found = json.loads(entry.read_text(encoding="utf-8"))
    damaged = [{**found, "report": {**found["report"], "diagnostics": [{"text": 3}]}},
               {**found, "report": {**found["report"], "summary": None}},
               {**found, "roots": "not a list"}, {**found, "key": None}, [1, 2]]
    for garbage in ["{not json", "\udcff", *map(json.dumps, damaged)]:
        entry.write_text(garbage, encoding="utf-8", errors="surrogateescape")
        assert run("validate", pack) == first
    assert len(loads) == 8
    run("validate", pack)
    assert len(loads) == 8  # written again after the last miss


def test_an_unwritable_cache_never_fails_validation(run: Run, make_pack: Any, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("", encoding="utf-8")
    monkeypatch.setenv("RULEKIT_NO_CACHE", "")
    monkeypatch.setenv("RULEKIT_CACHE_DIR", str(blocker / "cache"))
    code, out, err = run("validate", make_pack())
    assert code == 0 and "duel: ok" in out and "not-a-folder" not in err


def test_the_cache_can_be_turned_off(run: Run, make_pack: Any, cache: Path,
                                     loads: list[Path], monkeypatch: pytest.MonkeyPatch) -> None:
    pack = make_pack()
    run("validate", "--no-cache", pack)
    monkeypatch.setenv("RULEKIT_NO_CACHE", "1")
    run("validate", pack)
    run("validate", pack)
    assert len(loads) == 3 and not cache.exists()


def test_the_cache_folder_follows_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from rulekit.checks.cache import cache_dir

    monkeypatch.setenv("RULEKIT_NO_CACHE", "0")
    monkeypatch.delenv("RULEKIT_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache_dir() == tmp_path / "rulekit"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache_dir() == tmp_path / "home/.cache/rulekit"


def test_a_working_folder_that_is_gone(run: Run, make_pack: Any, cache: Path, tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    pack = make_pack()
    gone = tmp_path / "gone"
    gone.mkdir()
    monkeypatch.chdir(gone)
    gone.rmdir()
    for _ in range(2):
        code, out, _ = run("validate", pack)
        assert code == 0 and f"{pack}: ok" in out


def test_a_pack_edited_while_it_is_validated_is_not_cached(
        run: Run, make_pack: Any, cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pack = make_pack()
    load = rulekit.pack.loader.load_pack

    def editing(ref: str | Path, params: dict[str, object] | None = None,
                **options: bool) -> LoadedPack:
        loaded = load(ref, params, **options)
        with open(pack / "game.yaml", "a", encoding="utf-8") as handle:
            handle.write("# edited meanwhile\n")
        return loaded

    monkeypatch.setattr(rulekit.pack.loader, "load_pack", editing)
    assert run("validate", pack)[0] == 0
    assert not list(cache.glob("validate/*.json"))
