"""``rulekit play`` and ``replay`` keep each player's secrets at the table (issue 7, §1): the
seed of a game in progress is never shown, and a replay of a game still on shows one player's
view unless asked for everyone's."""

from __future__ import annotations

import re
from pathlib import Path

import helpers_play
from helpers_play import Play

from rulekit.play.savefile import read_save

play = helpers_play.play  # the fixture


def test_the_seed_is_shown_only_when_the_game_is_over(play: Play, duel_pack: Path,
                                                      tmp_path: Path) -> None:
    seeds = []
    for name in ("a.json", "b.json"):
        code, out, err = play(["1", "2", "3"], "play", duel_pack, "--seat", "red=human,blue=random",
                              "--fast", "--save", name)
        assert code == 0, err
        seed = read_save(tmp_path / name).seed
        seeds.append(seed)
        before, _, after = out.partition("Game over")
        assert str(seed) not in before
        assert f"The seed of this game was {seed}." in after
    assert seeds[0] != seeds[1]
    assert max(seeds) >= 2 ** 32  # 64 bits from the OS, not a number one could search


def test_a_game_in_progress_shows_no_seed(play: Play, duel_pack: Path, tmp_path: Path) -> None:
    code, out, _ = play(["1", "quit"], "play", duel_pack, "--seat", "red=human,blue=random",
                        "--seed", "987654321", "--fast", "--save", "on.json")
    assert code == 0
    assert "987654321" not in out


def test_replay_of_a_game_still_on_shows_its_one_persons_view(play: Play, duel_pack: Path,
                                                             tmp_path: Path) -> None:
    play(["1", "quit"], "play", duel_pack, "--seat", "red=human,blue=random", "--seed", "987654321",
         "--fast", "--save", "on.json")
    code, out, err = play([], "replay", "on.json", "--all")
    assert code == 0, err
    assert "as seen by Red" in out
    assert "Red chose 1 (only you)" in out
    assert "Blue chose" not in out and "987654321" not in out
    code, out, _ = play([], "replay", "on.json", "--all", "--as", "all")
    assert "as seen by everyone" in out and "Blue chose" in out and "987654321" in out


def test_replay_of_a_hot_seat_game_still_on_needs_a_view(play: Play, duel_pack: Path,
                                                         tmp_path: Path) -> None:
    play(["", "1", "", "2", "quit"], "play", duel_pack, "--seat", "red=human,blue=human",
         "--seed", "5", "--fast", "--save", "hot.json")
    assert len(read_save(tmp_path / "hot.json").decisions) == 2
    code, out, err = play([], "replay", "hot.json", "--all")
    assert code == 1
    assert "this game is not over" in err and "--as ROLE" in err and "--as all" in err
    assert "chose" not in out
    code, out, _ = play([], "replay", "hot.json", "--all", "--as", "blue")
    assert code == 0
    assert re.search(r"Blue chose 2 \(only you\)", out) and "Red chose" not in out


def test_replay_of_a_finished_game_shows_everything(play: Play, duel_pack: Path) -> None:
    play(["1", "2", "3"], "play", duel_pack, "--seat", "red=human,blue=random", "--seed", "5",
         "--fast", "--save", "done.json")
    code, out, _ = play([], "replay", "done.json", "--all")
    assert code == 0
    assert "as seen by everyone" in out and "seed 5" in out and "Blue chose" in out
