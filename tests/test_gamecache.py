"""Compiled games kept between runs of ``rulekit simulate`` (rulekit.sim.gamecache): a kept
game plays exactly as one compiled afresh, and an edit of the pack, a corrupt file or a file
others could have written is never used."""

from __future__ import annotations

import json
import os
import random
import shutil
from pathlib import Path
from typing import Any

import pytest

import rulekit.sim.gamecache as gamecache
from rulekit.engine.game import Game
from rulekit.pack.find import find_pack
from rulekit.pack.loader import load_pack
from rulekit.sim.gamecache import KeptGame
from rulekit.sim.simulation import simulate


def _kept(folder: Path, params: dict[str, object] | None = None) -> Game:
    """The game of ``folder`` as a later run finds it kept."""
    params = params or {}
    KeptGame(folder, params).put(load_pack(folder, params))
    found = KeptGame(folder, params).get()
    assert found is not None
    return found[0]


def _states(game: Game, seed: int) -> list[str]:
    """Every state of a game of random choices, as JSON."""
    choices = random.Random(seed)
    state = game.new_game(seed)
    seen = [json.dumps(state, sort_keys=True)]
    while state["result"] is None:
        actions = {d.player: choices.choice(d.options()).id for d in game.pending(state)}
        state = game.apply(state, actions)
        seen.append(json.dumps(state, sort_keys=True))
    return seen


@pytest.mark.parametrize("pack", ["carchase", "rednotice"])
def test_a_kept_game_plays_as_one_compiled_afresh(pack: str, cache: Path) -> None:
    folder = find_pack(pack)
    kept, fresh = _kept(folder), load_pack(folder).game
    assert kept.program is not fresh.program
    for seed in range(3):  # step by step, every state
        assert _states(kept, seed) == _states(fresh, seed)
    # quiet playouts, and the report of a run, which now starts from the kept game
    assert simulate(pack, games=40, seed=5).outcome() == simulate(
        load_pack(folder).folder, games=40, seed=5).outcome()
    # a snippet's place in its file, for the messages of checks, is found as before
    name, proc = next(iter(fresh.symbols.procedures.items()))
    assert kept.symbols.procedures[name].snippet.locate(1, 2) == proc.snippet.locate(1, 2)


def test_a_run_keeps_the_game_and_the_next_uses_it(cache: Path, duel_pack: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    first = simulate(duel_pack, games=30, seed=2)
    assert len(list((cache / "games").glob("*.pickle"))) == 1

    def no_loading(*args: object, **kwargs: object) -> None:
        raise AssertionError("the pack was loaded again")

    monkeypatch.setattr("rulekit.pack.loader.load_pack", no_loading)
    assert simulate(duel_pack, games=30, seed=2).outcome() == first.outcome()


def test_an_edited_pack_is_compiled_again(cache: Path, duel_pack: Path) -> None:
    assert simulate(duel_pack, games=20, seed=1).length.longest == 3
    manifest = duel_pack / "pack.yaml"
    manifest.write_text(manifest.read_text().replace("default: 3", "default: 5"))
    assert simulate(duel_pack, games=20, seed=1).length.longest == 5  # not the kept game
    assert simulate(duel_pack, {"turns": 2}, games=20, seed=1).length.longest == 2


def test_a_pack_edited_while_it_loads_is_not_kept(cache: Path, duel_pack: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    import rulekit.pack.loader

    manifest = duel_pack / "pack.yaml"
    before = manifest.read_text()
    load = rulekit.pack.loader.load_pack

    def edit_then_load(*args: Any, **kwargs: Any) -> Any:  # after the files were looked at
        manifest.write_text(before.replace("default: 3", "default: 5"))
        return load(*args, **kwargs)

    monkeypatch.setattr(rulekit.pack.loader, "load_pack", edit_then_load)
    assert simulate(duel_pack, games=20, seed=1).length.longest == 5
    monkeypatch.setattr(rulekit.pack.loader, "load_pack", load)
    manifest.write_text(before)  # the files as they were looked at: not the game compiled
    assert simulate(duel_pack, games=20, seed=1).length.longest == 3


def test_an_edited_base_pack_is_compiled_again(cache: Path, tmp_path: Path) -> None:
    base = tmp_path / "packs" / "carchase"
    shutil.copytree(find_pack("carchase"), base)
    variant = tmp_path / "packs" / "quick"
    variant.mkdir()
    (variant / "pack.yaml").write_text(
        "id: quick\nname: Quick\nversion: '1.0'\nextends: ../carchase\n")
    assert simulate(variant, games=20, seed=1).length.longest == 7
    manifest = base / "pack.yaml"
    text = manifest.read_text()
    assert "default: 7" in text
    manifest.write_text(text.replace("default: 7", "default: 4", 1))
    assert simulate(variant, games=20, seed=1).length.longest == 4


def _entry(cache: Path) -> Path:
    (entry,) = (cache / "games").glob("*.pickle")
    return entry


def test_a_corrupt_entry_is_ignored_and_written_again(cache: Path, duel_pack: Path) -> None:
    first = simulate(duel_pack, games=20, seed=3).outcome()
    entry = _entry(cache)
    header, _, data = entry.read_bytes().partition(b"\n")
    for broken in (b"nonsense", header + b"\n" + data[: len(data) // 2], header + b"\n"):
        entry.write_bytes(broken)
        assert KeptGame(duel_pack, {}).get() is None
        assert simulate(duel_pack, games=20, seed=3).outcome() == first
        assert KeptGame(duel_pack, {}).get() is not None  # written again


def test_an_entry_others_could_write_is_not_used(cache: Path, duel_pack: Path) -> None:
    simulate(duel_pack, games=5, seed=3)
    entry = _entry(cache)
    assert KeptGame(duel_pack, {}).get() is not None
    entry.chmod(0o666)
    assert KeptGame(duel_pack, {}).get() is None


def test_at_most_a_few_entries_are_kept(cache: Path, duel_pack: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gamecache, "MAX_FILES", 2)
    for turns in (1, 2, 3):
        simulate(duel_pack, {"turns": turns}, games=1)
        os.utime(_newest(cache), (turns, turns))  # the order they were used in
    assert len(list((cache / "games").glob("*.pickle"))) == 2
    assert KeptGame(duel_pack, {"turns": 1}).get() is None  # the first used went


def _newest(cache: Path) -> Path:
    return max((cache / "games").glob("*.pickle"), key=lambda p: p.stat().st_mtime_ns)


def test_nothing_is_kept_without_a_cache_folder(duel_pack: Path, tmp_path: Path) -> None:
    assert os.environ["RULEKIT_NO_CACHE"] == "1"
    simulate(duel_pack, games=5)
    assert KeptGame(duel_pack, {}).get() is None
