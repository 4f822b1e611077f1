"""Saves written by rulekit 0.1.0 before the engine's redesign still resume and replay."""

from __future__ import annotations

import shutil
from pathlib import Path

import helpers_play
import pytest
from helpers_play import Play

play = helpers_play.play  # the fixture

SAVES = Path(__file__).parent / "data" / "saves"


@pytest.mark.parametrize("name", ["carchase-turn2.json", "rednotice-round3.json"])
def test_an_old_save_resumes_and_replays(play: Play, tmp_path: Path, name: str) -> None:
    save = tmp_path / name
    shutil.copy(SAVES / name, save)
    code, out, err = play(["1", "board"] * 3, "play", "--resume", save, "--fast", "--no-color")
    assert code == 0, err
    assert "End of input: the game is saved" in out + err
    assert "no longer legal" not in out + err
    code, out, err = play([], "replay", save, "--all", "--as", "all")
    assert code == 0, err
