"""What a person sees between decisions (issue 12): the whole table at the start of a turn and
only what changed within it, ``board`` and ``log N`` on demand, messages in the player's terms
for mistakes on the command line."""

from __future__ import annotations

from pathlib import Path

import helpers_play
from helpers_play import Play

play = helpers_play.play  # the fixture

BOARD = "Angela (you)"  # the heading of Angela's own part of the table


def test_the_table_at_the_start_of_a_turn_then_only_what_changed(play: Play) -> None:
    # Angela's first turn: show a Check, then choose her city (one run of two decisions)
    code, out, _ = play(["1", "1", "board", "log 2", "quit"], "play", "rednotice",
                        "--seed", "4", "--fast")
    assert code == 0
    first, second, third = out.split("Angela> ")[:3]
    assert BOARD in first
    assert BOARD not in second  # the same run: only the events and the question
    assert "Choose your secret starting city" in second
    assert "Since your last turn" in third or BOARD in third  # a new turn after Jessah's
    after_board = out.split("Angela> board")[1]
    assert BOARD in after_board.split("Angela> ")[0]
    after_log = out.split("Angela> log 2")[1].split("Angela> ")[0]
    assert "Log (2 of " in after_log


def test_a_save_of_another_pack(play: Play, duel_pack: Path, tmp_path: Path) -> None:
    play(["1", "quit"], "play", "carchase", "--seed", "3", "--fast", "--save", "cc.json")
    code, _, err = play([], "play", "rednotice", "--resume", "cc.json")
    assert code == 1
    assert "cc.json: this is a save of carchase, not of rednotice" in err
    assert "rulekit play --resume cc.json" in err
