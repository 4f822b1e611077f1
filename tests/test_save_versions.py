"""A save of another version of its pack (another pack hash) goes on with the version at hand
while its decisions are still legal there, with a warning naming both versions; a decision that
is no longer legal is named, with what was asked and what the save answers."""

from __future__ import annotations

import shutil
from pathlib import Path

import helpers_play
import pytest
from helpers_play import Play

from rulekit.pack.loader import load_pack, shipped_packs_dir
from rulekit.play.savefile import SavedGame, read_save

play = helpers_play.play  # the fixture

DECISIONS = [("red", "3"), ("blue", "1"), ("red", "2"), ("blue", "2")]


def save_of(folder: Path, path: Path, decisions: list[tuple[str, str]] = DECISIONS) -> Path:
    game = load_pack(folder, {"turns": 3}).game
    saved = SavedGame(pack=game.pack_id, version=game.version, pack_hash=game.pack_hash,
                      params=dict(game.params), seed=1, seats={"red": "human", "blue": "random"},
                      decisions=decisions, source=str(folder))
    path.write_text(saved.to_json(), encoding="utf-8")
    return path


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_a_comment_edited_replays_with_a_warning(play: Play, make_pack: object,
                                                  tmp_path: Path) -> None:
    folder = make_pack()  # type: ignore[operator]
    save = save_of(folder, tmp_path / "s.json")
    before = load_pack(folder).game.pack_hash
    edit(folder / "game.yaml", "cards:", "# a comment\ncards:")
    after = load_pack(folder).game.pack_hash
    code, out, err = play([], "replay", save, "--all", "--as", "all")
    assert code == 0, err
    assert (f"Warning: {save} was saved with duel 1.0 (pack hash {before}), and this is duel "
            f"1.0 (pack hash {after}) (the same version number, but its files changed): its 4 "
            "decisions are replayed on this version.") in " ".join(out.split())


def test_a_rule_changed_replays_when_the_decisions_are_still_legal(
        play: Play, make_pack: object, tmp_path: Path) -> None:
    folder = make_pack()  # type: ignore[operator]
    save = save_of(folder, tmp_path / "s.json")
    edit(folder / "pack.yaml", 'version: "1.0"', 'version: "1.1"')
    edit(folder / "game.yaml", "points[red] += 1", "points[red] += 5")
    code, out, err = play(["1"], "play", "--resume", save, "--fast")
    assert code == 0, err
    flat = " ".join(out.split())
    assert "was saved with duel 1.0 (pack hash" in flat and "and this is duel 1.1" in flat
    assert "its 4 decisions are replayed on this version" in flat
    saved = read_save(save)  # saved again, as a game of the new version
    assert saved.version == "1.1" and saved.pack_hash == load_pack(folder).game.pack_hash
    assert saved.decisions[:4] == DECISIONS and len(saved.decisions) > 4


def test_a_decision_no_longer_legal_is_named(play: Play, make_pack: object,
                                             tmp_path: Path) -> None:
    folder = make_pack()  # type: ignore[operator]
    save = save_of(folder, tmp_path / "s.json")
    edit(folder / "game.yaml", 'let r = choose red one of [1, 2, 3]',
         'let r = choose red one of [1, 2]')
    for argv in (["play", "--resume", save], ["replay", save, "--all"]):
        code, out, err = play([], *argv)
        assert code == 1 and "Warning" not in out
        flat = " ".join(err.split())
        assert flat.startswith(f"rulekit: error: {save}: decision 1 of the save is no longer "
                               "legal in this version of the pack: red was asked \"Pick a "
                               "number\" and the save answers '3', which is not among the "
                               "options now (1, 2). The game was saved with duel 1.0 (pack hash")
        assert "hint: go on with the version of the pack the game was saved with" in flat


def test_a_save_that_outlives_the_new_version_says_so(play: Play, make_pack: object,
                                                      tmp_path: Path) -> None:
    folder = make_pack()  # type: ignore[operator]
    save = save_of(folder, tmp_path / "s.json")
    edit(folder / "game.yaml", "rounds: turns", "rounds: 1")
    code, _, err = play([], "replay", save, "--all")
    assert code == 1
    assert "decision 3 (red: '2') comes after the end of the game (the game was saved with " \
        "duel 1.0" in " ".join(err.split())


def test_the_same_pack_replays_without_a_warning(play: Play, make_pack: object,
                                                 tmp_path: Path) -> None:
    folder = make_pack()  # type: ignore[operator]
    save = save_of(folder, tmp_path / "s.json")
    code, out, _ = play([], "replay", save, "--all")
    assert code == 0 and "Warning" not in out and "saved with" not in out


@pytest.mark.parametrize("pack", ["carchase"])
def test_a_shipped_pack_copied_and_commented(play: Play, tmp_path: Path, pack: str) -> None:
    folder = tmp_path / pack
    shutil.copytree(shipped_packs_dir() / pack, folder)
    code, _, err = play(["1", "2", "quit"], "play", folder, "--seed", "3", "--fast", "--save",
                        "g.json")
    assert code == 0, err
    decisions = read_save(tmp_path / "g.json").decisions
    assert decisions
    edit(folder / "flow.yaml", "\n", "\n# edited after the game was saved\n")
    code, out, err = play(["quit"], "play", "--resume", "g.json", "--fast")
    assert code == 0, err
    assert f"its {len(decisions)} decisions are replayed on this version" in " ".join(out.split())
