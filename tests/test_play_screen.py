"""What a person sees between decisions (issue 12): the whole table at the start of a turn and
only what changed within it, ``board`` and ``log N`` on demand, messages in the player's terms
for mistakes on the command line."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import helpers_play
from helpers_play import Play
from rich.console import Console

from rulekit.engine.decisions import Decision
from rulekit.pack.loader import load_pack
from rulekit.play.menuview import menu_block
from rulekit.play.prompt import Menu
from rulekit.play.render import Renderer

play = helpers_play.play  # the fixture

BOARD = "  Cashed 0 of 1,000,000 · Security "  # the first line of Red Notice's status


def test_the_table_at_the_start_of_a_turn_then_only_what_changed(play: Play) -> None:
    # Angela's first turn: show a Check, then choose her city (one run of two decisions)
    code, out, _ = play(["1", "1", "board", "log 2", "quit"], "play", "rednotice",
                        "--seat", "angela=human,jessah=random",
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
    play(["1", "quit"], "play", "carchase",
         "--seat", "law=human,fugitive=random", "--seed", "3", "--fast", "--save", "cc.json")
    code, _, err = play([], "play", "rednotice", "--resume", "cc.json")
    assert code == 1
    assert "cc.json: this is a save of carchase, not of rednotice" in err
    assert "rulekit play --resume cc.json" in err
    code, _, err = play([], "play", "cc.json")
    assert code == 1 and "cc.json is a file, not a pack" in err
    assert "rulekit play --resume cc.json" in err


def test_cards_lists_the_pack_cards_with_their_text(play: Play) -> None:
    code, out, _ = play(["cards ghost", "cards", "cards zzz", "quit"], "play", "rednotice",
                        "--seat", "angela=human,jessah=random",
                        "--seed", "4", "--fast")
    assert code == 0
    ghost = "  The Ghost: Slip away to any other city of your continent."
    assert ghost in out.split("Angela> cards ghost")[1].split("Angela> ")[0]
    listing = out.split("Angela> cards\n")[1].split("Angela> ")[0]
    assert "Identity" in listing and "Upgrade" in listing and ghost in listing
    assert "No card's name contains 'zzz'." in out


def _question(spec: dict[str, Any]) -> str:
    """A Red Notice question to Angela as the screen shows it (80 columns, no colour)."""
    game = load_pack("rednotice", {}).game
    decision = Decision({"player": "angela", "prompt": "Pick", **spec}, game.label)
    out = io.StringIO()
    Console(file=out, width=80, color_system=None).print(
        menu_block(Renderer(game), Menu(decision, game.label), "angela"))
    return out.getvalue()


def test_an_option_that_is_a_card_shows_its_text() -> None:
    shown = _question({"kind": "one", "items": ["id_ghost", "id_decoy"]})
    assert "  1  The Ghost: Slip away to any other city of your continent." in shown
    assert "  2  The Decoy: Move Jessah's pawn" in shown


def test_pile_shows_every_card_of_a_pile_one_may_see(play: Play) -> None:
    code, out, _ = play(["1", "none", "pile discard", "pile hand", "pile zz", "quit"], "play",
                        "carchase", "--seat", "law=human,fugitive=random", "--seed", "7",
                        "-p", "turns=2", "--fast")
    assert code == 0
    shown = out.split("The Law> pile discard")[1].split("The Law> ")[0]
    assert shown.startswith("\n  Discard pile: ") and "top:" not in shown
    assert shown.count(", ") >= 2
    hands = out.split("The Law> pile hand")[1].split("The Law> ")[0]
    assert "The Law's Hand: " in hands
    assert re.search(r"The Fugitive's Hand: \d+ cards, face down", hands)
    assert "No pile is named 'zz'; piles: Deck, Discard pile, Hand." in out  # as the pack
    # names them, but for its bookkeeping


def test_the_header_counts_the_rounds_and_warns_on_the_last(play: Play) -> None:
    code, out, _ = play(["none"] * 40, "play", "carchase",
                        "--seat", "law=human,fugitive=random", "--seed", "11", "-p", "turns=2",
                        "--fast")
    assert code == 0
    assert "Car Chase - turn 1 of 2 - Draw - The Law" in out  # as the pack names a round
    assert "Car Chase - turn 2 of 2, the last - " in out


def test_short_lines_of_the_table_share_rows(play: Play) -> None:
    code, out, _ = play(["1", "1", "1", "2", "board", "quit"], "play", "rednotice", "--seat",
                        "jessah=human,angela=random", "--seed", "7", "--fast")
    assert code == 0
    status = out.split("Programming - Jessah")[1]
    assert re.search(r"^  Cashed 0 of 1,000,000 · Security \d of 4 · Captures 0 of 3"
                     r"( · |\n  )Initiative (Angela|Jessah)( · |\n  )Identities 2 face down",
                     status, re.M)
    assert re.search(r"^  Angela may be in [A-Z][a-z ]+: ", status, re.M)
    assert re.search(r"(^  |· )Radars: (North|South) America", status, re.M)  # where they lie
    assert re.search(r"(^  |· )Your tokens: Jessah ", status, re.M)
    assert re.search(r"^  Card  Left action  Left token  Right token  Right action$", status,
                     re.M)
    board = out.split("Jessah> board")[1]
    assert "Table\n  Angela's Identities 2\n  Upgrade offer: " in board  # the
    # pack's panels, under their names
    assert "box" not in board and "identity pool" not in board  # bookkeeping is not shown
    assert all(len(line) <= 80 for line in board.splitlines() if " · " in line)


def test_a_question_with_one_answer_says_enter_takes_it() -> None:
    shown = [_question(spec) for spec in ({"kind": "one", "items": [], "optional": True},
                                          {"kind": "one", "items": ["paris"]},
                                          {"kind": "subset", "items": [], "min": 0, "max": 2})]
    assert "Press Enter (nothing to choose)." in shown[0]
    assert "  1  Paris\nPress Enter (Paris)." in shown[1]
    assert "Press Enter (nothing to choose)." in shown[2] and "choose 0" not in shown[2]


def test_replay_steps_round_by_round_with_the_table(play: Play) -> None:
    play(["none"] * 80, "play", "carchase", "--seat", "law=human,fugitive=random", "--seed", "11",
         "-p", "turns=3", "--fast",
         "--save", "fin.json")
    code, out, _ = play(["r", "b", "", "q"], "replay", "fin.json", "--as", "law")
    assert code == 0
    after_round = out.split("] r\n")[1].split("] b\n")[0]
    assert "-- Turn 2 --" in after_round  # the rest of turn 1, then the start of turn 2
    assert "Car Chase - turn 2 of 3 - " in after_round and "Your hand (" in after_round
    table = out.split("] b\n")[1].split("\n[")[0]
    assert "Your hand (" in table and "The Fugitive: Cards in hand 10" in table
    code, out, _ = play(["b", "q"], "replay", "fin.json", "--as", "all")
    table = out.split("] b\n")[1]
    assert "- The Law ===" in table and "- The Fugitive ===" in table  # each one's view


def test_a_card_that_cannot_be_chosen_is_named(play: Play) -> None:
    code, out, _ = play(["1", "smokey", "zzz", "quit"], "play", "carchase",
                        "--seat", "law=human,fugitive=random", "--seed", "7",
                        "-p", "turns=2", "--fast")
    assert code == 0
    assert "Smokey (P13) cannot be chosen here: Play cards (at most one Location)." in out
    assert "Nothing matches 'zzz'" in out


def test_a_belief_that_loses_track_says_so(play: Play, monkeypatch: Any) -> None:
    from rulekit.bots import belief as belief_module

    real = belief_module.Belief.update
    calls = {"n": 0}

    def update_then_lose(self: Any, obs: Any) -> Any:
        calls["n"] += 1
        if calls["n"] > 1:
            raise belief_module.BeliefLost("lost")
        return real(self, obs)

    monkeypatch.setattr(belief_module.Belief, "update", update_then_lose)
    code, out, _ = play(["1", "1", "1", "1", "board", "quit"], "play", "rednotice", "--seat",
                        "jessah=human,angela=random", "--seed", "7", "--fast")
    assert code == 0
    first, later = out.split("Jessah> ", 1)
    assert re.search(r"^  Angela may be in [A-Z]", first, re.M)  # worked out
    # after that the places shown are the last worked out, and the screen says so
    assert re.search(r"^  Angela \(lost track; last worked out\) may be in [A-Z]", later, re.M)
    assert not re.search(r"^  Angela may be in ", later, re.M)
