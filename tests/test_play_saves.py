"""Save files of ``rulekit play`` (issue 7, §2 and §3): a save is data and never runs code; a
broken or hostile save gets a clear message naming the file; no game is lost."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import helpers_play
import pytest
from helpers_play import Play

from rulekit.errors import SaveFileError
from rulekit.play.savefile import read_save
from rulekit.play.saves import new_save_path

play = helpers_play.play  # the fixture

EVIL = '''\
from pathlib import Path

Path("ran.txt").write_text("the save ran code")


class Agent:
    def choose(self, view, decision):
        return decision.options()[0]
'''


def _saved_game(play: Play, duel_pack: Path, seats: str, name: str = "g.json") -> dict:
    code, _, err = play(["1", "quit"], "play", duel_pack, "--seat", seats, "--seed", "3",
                        "--fast", "--save", name)
    assert code == 0, err
    return dict(json.loads(Path(name).read_text()))


def test_a_save_never_imports_an_agent(play: Play, duel_pack: Path, tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    data = _saved_game(play, duel_pack, "red=human,blue=random")
    data["seats"]["blue"] = "evil_agent:Agent"
    (tmp_path / "g.json").write_text(json.dumps(data))
    (tmp_path / "evil_agent.py").write_text(EVIL)
    monkeypatch.syspath_prepend(str(tmp_path))
    code, _, err = play(["2", "3"], "play", "--resume", "g.json", "--fast")
    assert code == 1
    assert not (tmp_path / "ran.txt").exists()
    assert "g.json: the blue seat was played by the agent 'evil_agent:Agent'" in err
    assert "a save never runs code" in err and "--seat blue=evil_agent:Agent" in err
    # named again on the command line, it is the player's own choice
    code, _, err = play(["2", "3"], "play", "--resume", "g.json", "--fast",
                        "--seat", "blue=evil_agent:Agent")
    assert code == 0, err
    assert (tmp_path / "ran.txt").exists()


def test_a_bot_that_raises_ends_the_game_saved_with_its_name(play: Play, duel_pack: Path,
                                                              agents_module: str) -> None:
    seats = f"red=human,blue={agents_module}:Broken"
    code, _, err = play(["1"], "play", duel_pack, "--seat", seats, "--seed", "3", "--fast",
                        "--save", "g.json")
    assert code == 1
    assert (f"rulekit: error: the bot of blue ({agents_module}:Broken) failed at the decision "
            "'") in err and "RuntimeError: broken on purpose" in err
    assert "seed" not in err  # a person plays: the seed, which tells every secret, is kept
    assert "Traceback" not in err and Path("g.json").exists()


def test_a_save_into_a_missing_folder_is_refused_before_the_game(play: Play,
                                                                  duel_pack: Path) -> None:
    code, out, err = play(["1"], "play", duel_pack, "--seat", "red=random,blue=random",
                          "--fast", "--save", "nosuch/g.json")
    assert code == 1 and "Game over" not in out
    assert "cannot save to nosuch/g.json: there is no folder" in err
    assert "hint: make the folder first" in err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
@pytest.mark.parametrize("command", [["play", "--resume"], ["replay"]])
def test_a_pipe_given_as_a_save_is_refused_at_once(play: Play, tmp_path: Path,
                                                   command: list[str]) -> None:
    os.mkfifo(tmp_path / "pipe.json")
    code, _, err = play([], *command, str(tmp_path / "pipe.json"))
    assert code == 1 and "pipe.json: not a save file, but a pipe or a device" in err


def test_a_save_naming_an_endless_search_is_refused(play: Play, duel_pack: Path,
                                                     tmp_path: Path) -> None:
    data = _saved_game(play, duel_pack, "red=human,blue=random")
    data["seats"]["blue"] = "ismcts:seconds=nan"
    (tmp_path / "g.json").write_text(json.dumps(data))
    code, _, err = play(["2", "3"], "play", "--resume", "g.json", "--fast")
    assert code == 1
    assert "agent 'ismcts:seconds=nan': seconds must be more than 0 and at most 3,600" in err


def test_a_bot_seat_is_taken_over_only_when_asked(play: Play, duel_pack: Path,
                                                  tmp_path: Path) -> None:
    _saved_game(play, duel_pack, "red=human,blue=random")
    code, _, err = play(["2", "3"], "play", "--resume", "g.json", "--fast",
                        "--seat", "blue=human")
    assert code == 1
    assert "the blue seat was played by a bot" in err and "--take-seat" in err
    assert read_save(tmp_path / "g.json").seats["blue"] == "random"
    code, out, err = play(["", "2", "", "2", "", "3", "", "3"], "play", "--resume", "g.json",
                          "--fast", "--seat", "blue=human", "--take-seat")
    assert code == 0, err
    assert "Pass to Blue" in out
    # a person leaving a seat to a bot needs no flag
    _saved_game(play, duel_pack, "red=human,blue=random", "h.json")
    code, _, err = play([], "play", "--resume", "h.json", "--fast", "--seat", "red=random")
    assert code == 0, err


@pytest.mark.parametrize("text, message", [
    ('{"format": 1, "seed": ' + "7" * 5000 + "}", "a number too long to read"),
    ("[" * 100_000 + "]" * 100_000, "nested too deep"),
    ('{"format": 1, "seed": 1', "bad JSON"),
    ("[1, 2]", "it does not hold a JSON object"),
    ("\xff\xfe", "not UTF-8"),
    (" " * (8 * 1024 * 1024 + 1), "larger than 8 MB"),
])
def test_broken_save_files_are_named_and_refused(play: Play, tmp_path: Path, text: str,
                                                 message: str) -> None:
    path = tmp_path / "bad.json"
    if text == "\xff\xfe":
        path.write_bytes(b"\xff\xfe{")
    else:
        path.write_text(text)
    for argv in (("play", "--resume", "bad.json"), ("replay", "bad.json")):
        code, _, err = play([], *argv)
        assert code == 1
        assert err.startswith("rulekit: error: bad.json") and message in err, err


def test_a_huge_seed_in_a_save_is_refused(play: Play, duel_pack: Path, tmp_path: Path) -> None:
    data = _saved_game(play, duel_pack, "red=human,blue=random")
    data["seed"] = 10 ** 40
    (tmp_path / "g.json").write_text(json.dumps(data))
    code, _, err = play([], "play", "--resume", "g.json")
    assert code == 1 and "g.json: not a valid rulekit save file: 'seed'" in err


# -- no game is lost --------------------------------------------------------------------------


def _start(duel_pack: Path, folder: Path, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "rulekit", "play", str(duel_pack), "--seat", "red=human,blue=random",
         "--seed", "3", "--fast", "--no-color", *extra],
        cwd=folder, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, env={**os.environ, "PYTHONPATH": str(Path(__file__).parent.parent)})


def _wait_for_save(folder: Path, decisions: int) -> Path:
    """The game's save file once it holds ``decisions`` decisions (polled; a generous limit
    only guards against a hang)."""
    for _ in range(600):
        for path in folder.glob("rulekit-duel-*.json"):
            with contextlib.suppress(SaveFileError):
                if len(read_save(path).decisions) >= decisions:
                    return path
        time.sleep(0.1)
    raise AssertionError("the game was never saved")


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_leaves_the_game_saved(play: Play, duel_pack: Path, tmp_path: Path,
                                        signum: int) -> None:
    process = _start(duel_pack, tmp_path)
    assert process.stdin is not None
    process.stdin.write("3\n")
    process.stdin.flush()
    path = _wait_for_save(tmp_path, 2)  # red's answer and blue's: saved before red is asked
    process.send_signal(signum)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 128 + signum, err
    assert "Traceback" not in out + err
    assert f"Stopped by a signal. The game is saved to {path.name}" in out
    assert read_save(path).decisions[0] == ("red", "3")
    assert [p.name for p in tmp_path.glob("*.json*")] == [path.name]  # no temporary file
    assert not list(tmp_path.glob(".*.tmp"))
    code, out, _ = play(["3", "3"], "play", "--resume", path.name, "--fast")
    assert code == 0 and "Game over" in out
    assert read_save(path).finished


def test_a_killed_game_is_kept_and_its_temporary_file_cleaned(play: Play, duel_pack: Path,
                                                              tmp_path: Path) -> None:
    process = _start(duel_pack, tmp_path)
    assert process.stdin is not None
    process.stdin.write("3\n")
    process.stdin.flush()
    path = _wait_for_save(tmp_path, 2)
    process.kill()
    process.communicate(timeout=60)
    stale = tmp_path / f".{path.name}.k1ll3d.tmp"  # as a write killed half-way leaves it
    stale.write_text('{"format": 1, "pa')
    code, _, _ = play(["1", "quit"], "play", "--resume", path.name, "--fast")
    assert code == 0
    assert not stale.exists()
    assert [d for d in read_save(path).decisions if d[0] == "red"] == [("red", "3"),
                                                                        ("red", "1")]


def test_an_unexpected_error_saves_the_game(play: Play, duel_pack: Path, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    from rulekit.play.render import Renderer

    shown = Renderer.menu
    calls = []

    def broken(self: Renderer, decision: Any, obs: Any) -> Any:
        calls.append(decision)
        if len(calls) == 2:
            raise RuntimeError("a bug")
        return shown(self, decision, obs)

    monkeypatch.setattr(Renderer, "menu", broken)
    code, out, err = play(["2"], "play", duel_pack, "--seat", "red=human,blue=random", "--fast")
    assert code == 1
    assert "rulekit: error: internal error: RuntimeError: a bug" in err
    assert "the game up to here is saved" in out
    [path] = tmp_path.glob("rulekit-duel-*.json")
    assert read_save(path).decisions[0] == ("red", "2")


def test_a_new_game_never_overwrites_one_still_on(play: Play, duel_pack: Path,
                                                 tmp_path: Path) -> None:
    _saved_game(play, duel_pack, "red=human,blue=random", "mine.json")
    before = (tmp_path / "mine.json").read_text()
    code, _, err = play(["1"], "play", duel_pack, "--save", "mine.json")
    assert code == 1
    assert "mine.json holds a game of duel that is not over: it is not overwritten" in err
    assert (tmp_path / "mine.json").read_text() == before
    (tmp_path / "notes.json").write_text("my notes")
    code, _, err = play(["1"], "play", duel_pack, "--save", "notes.json")
    assert code == 1 and "notes.json exists and is not a rulekit save" in err
    # games started in the same second get a file each
    first = new_save_path("duel", "2026-01-02T03:04:05Z", tmp_path)
    second = new_save_path("duel", "2026-01-02T03:04:05Z", tmp_path)
    assert (first.name, second.name) == ("rulekit-duel-20260102-030405.json",
                                         "rulekit-duel-20260102-030405-2.json")


def test_the_games_still_on_are_listed(play: Play, duel_pack: Path, tmp_path: Path) -> None:
    code, out, _ = play([], "play", "--list")
    assert code == 0 and "No unfinished game is saved in this folder." in out
    _saved_game(play, duel_pack, "red=human,blue=random", "on.json")
    play(["1", "2", "3"], "play", duel_pack, "--seat", "red=human,blue=random", "--fast",
         "--save", "over.json")
    (tmp_path / "other.json").write_text("[]")
    code, out, _ = play([], "play", "--list")
    assert code == 0
    assert re.search(r"^  on\.json  duel, started \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC, "
                     r"2 decisions \(red: person, blue: random\)$", out, re.M), out
    assert "over.json" not in out and "other.json" not in out
    code, out, _ = play(["quit"], "play", duel_pack, "--fast")
    assert "1 unfinished game of duel here (rulekit play --list); this is a new one." in out
    code, _, err = play([], "play", "--resume", "over.json")
    assert code == 1 and "over.json: this game is over" in err and "rulekit replay" in err


def test_piped_input_stops_after_a_few_bad_answers(play: Play, tmp_path: Path) -> None:
    code, out, _ = play(["1"] * 3 + ["zzz"] * 1000, "play", "rednotice",
                        "--seat", "jessah=human,angela=random", "--fast")
    assert code == 1
    assert out.count("Nothing matches 'zzz'") == 5
    assert "Stopping: 5 answers in a row were not understood, and the input is not a " \
           "terminal." in out
    [path] = tmp_path.glob("rulekit-rednotice-*.json")
    assert sum(1 for role, _ in read_save(path).decisions if role == "jessah") == 3
    assert f"The game is saved to {path.name}" in out


def test_a_finished_game_leaves_its_file_only_when_kept(play: Play, duel_pack: Path,
                                                        tmp_path: Path) -> None:
    code, out, _ = play(["1", "2", "3"], "play", duel_pack, "--seat", "red=human,blue=random",
                        "--fast")
    assert code == 0 and "Game over" in out
    assert not list(tmp_path.glob("rulekit-*.json"))  # Enter (or the end of input): not kept
    code, out, _ = play(["1", "2", "3", "save"], "play", duel_pack, "--seat",
                        "red=human,blue=random",
                        "--fast")
    [kept] = tmp_path.glob("rulekit-duel-*.json")
    assert read_save(kept).finished and f"rulekit replay {kept.name}" in out
    kept.unlink()
    code, out, _ = play(["1", "2", "3", "save last.json"], "play", duel_pack, "--seat",
                        "red=human,blue=random", "--fast")
    assert read_save(tmp_path / "last.json").finished
    assert not list(tmp_path.glob("rulekit-*.json"))


def test_a_save_is_readable_by_its_owner_only(play: Play, duel_pack: Path,
                                              tmp_path: Path) -> None:
    play(["1", "quit"], "play", duel_pack, "--seat", "red=human,blue=random", "--fast")
    [path] = tmp_path.glob("rulekit-duel-*.json")
    assert path.stat().st_mode & 0o777 == 0o600  # it holds the seed: every secret


def test_a_copy_of_a_pack_leaves_its_saves_behind(play: Play, duel_pack: Path,
                                                  tmp_path: Path) -> None:
    (duel_pack / "rulekit-duel-20260102-030405.json").write_text("{}")
    code, _, err = play([], "new", tmp_path / "copy", "--from", duel_pack)
    assert code == 0, err
    assert (tmp_path / "copy" / "pack.yaml").exists()
    assert not list((tmp_path / "copy").glob("rulekit-*.json"))
