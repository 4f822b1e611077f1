"""Save files of ``rulekit play`` (issue 7, §2 and §3): a save is data and never runs code; a
broken or hostile save gets a clear message naming the file; no game is lost."""

from __future__ import annotations

import json
from pathlib import Path

import helpers_play
import pytest
from helpers_play import Play

from rulekit.play.savefile import read_save

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
    data = _saved_game(play, duel_pack, "red=human")
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


def test_a_bot_seat_is_taken_over_only_when_asked(play: Play, duel_pack: Path,
                                                  tmp_path: Path) -> None:
    _saved_game(play, duel_pack, "red=human")
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
    _saved_game(play, duel_pack, "red=human", "h.json")
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
    data = _saved_game(play, duel_pack, "red=human")
    data["seed"] = 10 ** 40
    (tmp_path / "g.json").write_text(json.dumps(data))
    code, _, err = play([], "play", "--resume", "g.json")
    assert code == 1 and "g.json: not a valid rulekit save file: 'seed'" in err
