"""Stored results (YAML data, schema checks): a run after a change reads only the file that
changed, a stored result never hides an error, and a store that is corrupt, of another rulekit
or turned off is not read."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers_cli import Run, runner

import rulekit.source.store
import rulekit.source.yamlload


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    return runner(capsys)


@pytest.fixture
def composed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The YAML texts read while the test runs."""
    seen: list[str] = []
    compose = rulekit.source.yamlload._compose

    def counting(text: str) -> Any:
        seen.append(text)
        return compose(text)

    monkeypatch.setattr(rulekit.source.yamlload, "_compose", counting)
    return seen


def edit(pack: Path, old: str, new: str) -> None:
    game = pack / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")


def test_a_stored_result_never_hides_an_error(run: Run, make_pack: Any, cache: Path) -> None:
    pack = make_pack()
    run("validate", pack)
    edit(pack, "points[red] += 1", "points[red] +=")
    for _ in range(2):
        code, _, err = run("validate", pack)
        assert code == 1 and "game.yaml:20:35: syntax error" in err
    edit(pack, "points[red] +=", "points[red] += 1")
    assert run("validate", pack)[0] == 0


@pytest.mark.parametrize("damage", ["garbage", "another rulekit", "writable by others"])
def test_a_store_that_does_not_fit_is_not_read(run: Run, make_pack: Any, cache: Path,
                                               composed: list[str], damage: str,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    pack = make_pack()
    first = run("validate", "--no-cache", pack)  # reads and writes nothing
    assert not cache.exists()
    assert run("validate", pack) == first
    if damage == "garbage":
        for file in cache.glob("stored/*.pickle"):
            file.write_bytes(b"\x80\x05not a pickle")
    elif damage == "writable by others":
        for file in cache.glob("stored/*.pickle"):
            file.chmod(0o666)
    else:
        monkeypatch.setattr(rulekit.source.store, "code_stamp", lambda: "an edited rulekit")
    monkeypatch.setenv("RULEKIT_CACHE_DIR", str(cache.with_name("elsewhere")))
    run("validate", pack)
    monkeypatch.setenv("RULEKIT_CACHE_DIR", str(cache))  # the stores are read again
    (cache / "validate").rename(cache / "validated-before")
    composed.clear()
    assert run("validate", pack) == first
    assert composed  # read afresh, and stored again
    monkeypatch.setenv("RULEKIT_CACHE_DIR", str(cache.with_name("elsewhere")))
    run("validate", pack)
    monkeypatch.setenv("RULEKIT_CACHE_DIR", str(cache))
    (cache / "validated-before").rename(cache / "validated-twice")
    composed.clear()
    (cache / "validate").rename(cache / "validated-thrice")
    assert run("validate", pack) == first and not composed  # the stored data serves


def test_only_the_yaml_file_that_changed_is_read_again(run: Run, make_pack: Any, cache: Path,
                                                       composed: list[str]) -> None:
    pack = make_pack()
    assert run("validate", pack)[0] == 0 and len(composed) >= 3
    composed.clear()
    edit(pack, "cards:", "cards:  # the deck")
    assert run("validate", pack)[0] == 0
    assert len(composed) == 1 and "# the deck" in composed[0]
    edit(pack, "cards:  # the deck", "cards: [")
    for _ in range(2):
        code, _, err = run("validate", pack)
        assert code == 1 and "game.yaml:" in err


def test_a_store_file_keeps_the_results_last_added_within_its_size(
        cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rulekit.source.store, "KEPT_BYTES", 2500)
    store = rulekit.source.store.Store("size-test")
    for i in range(5):
        store.put((f"key {i}",), bytes(1000))
    store.save()
    assert (cache / "stored/size-test.pickle").stat().st_size < 4000
    again = rulekit.source.store.Store("size-test")
    assert [again.get((f"key {i}",)) is not None for i in range(5)] == [False] * 3 + [True] * 2


def test_a_store_keeps_the_results_used_over_those_added_before_them(
        cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file edited again and again adds a result at each edit; the results of the files left
    unchanged, used at every run, stay."""
    monkeypatch.setattr(rulekit.source.store, "KEPT_BYTES", 2500)
    store = rulekit.source.store.Store("use-test")
    store.put(("unchanged",), bytes(1000))
    store.put(("edited, first version",), bytes(1000))
    store.save()
    store._loaded = False  # as in the next run
    assert store.get(("unchanged",)) is not None
    store.put(("edited, second version",), bytes(1000))
    store.save()
    again = rulekit.source.store.Store("use-test")
    assert again.get(("unchanged",)) is not None
    assert again.get(("edited, first version",)) is None
