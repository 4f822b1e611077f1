"""Late in a game, on a real pseudo-terminal of 80x24 and of 60 columns: the status block
and the question fit on the screen before every question (a long menu goes in columns or is
cut short, ``more`` lists it), no line is wider than the terminal, and each event is told
once. A game is set late by resuming a save of random decisions."""

from __future__ import annotations

import io
import os
import random
import re
import sys
from pathlib import Path
from typing import Any

import helpers_play
import pytest
from helpers_play import Play

from rulekit.pack.loader import load_pack
from rulekit.play.savefile import SavedGame, write_save

play = helpers_play.play  # the fixture


def _pexpect() -> Any:
    return pytest.importorskip("pexpect")

ROOT = Path(__file__).resolve().parent.parent
ROWS = 24
ANSWERS = 8
LONG_MENU = "Place a Barrier"  # Red Notice's hunter: some fifty routes and continents
PASS = "press Enter when ready: "
CONFIRM = "? [y/N] "
LEAVE = "Press Enter to leave"
KEY = re.compile(r"^ +(\d+[a-z]?)  \S")


def late_save(folder: Path, pack: str, seats: dict[str, str], decisions: int,
              seed: int = 7, stop_at: str | None = None) -> Path:
    """A save of ``pack`` after ``decisions`` random decisions (the game not over), or
    earlier, where a person is first asked a question whose prompt starts with ``stop_at``."""
    loaded = load_pack(pack)
    game = loaded.game
    state = game.new_game(seed)
    rng = random.Random(seed)
    taken: list[tuple[str, str]] = []
    for _ in range(decisions):
        pending = game.pending(state)
        decision = pending[0]
        if stop_at and seats[decision.player] == "human" and \
                decision.prompt.startswith(stop_at):
            break
        options = [o for o in decision.options() if not o.id.startswith("!")]
        option = rng.choice(options)
        after = game.apply(state, {decision.player: option})
        if after["result"] is not None:
            break
        state = after
        taken.append((decision.player, option.id))
    saved = SavedGame(pack=game.pack_id, version=game.version, pack_hash=game.pack_hash,
                      params=dict(game.params), seed=seed, seats=seats, decisions=taken,
                      source=str(Path(loaded.folder).resolve()))
    return write_save(folder / "late.json", saved)


def screens(tmp_path: Path, save: Path, names: list[str], columns: int) -> list[str]:
    """What the terminal showed before each of :data:`ANSWERS` questions (from the blank line
    that starts the question's screen to its prompt), answering each with its first line."""
    env = {**os.environ, "NO_COLOR": "1", "TERM": "xterm-256color",
           "PYTHONPATH": str(ROOT), "COLUMNS": str(columns), "LINES": str(ROWS)}
    pexpect = _pexpect()
    child = pexpect.spawn(sys.executable, ["-m", "rulekit", "play", "--resume", str(save),
                                           "--fast"],
                          cwd=str(tmp_path), env=env, dimensions=(ROWS, columns),
                          encoding="utf-8", timeout=90)
    child.delaybeforesend = None
    prompts = [re.escape(f"{name}> ") for name in names]
    patterns = [*prompts, re.escape(PASS), re.escape(CONFIRM), LEAVE, pexpect.EOF]
    shown: list[str] = []
    rng = random.Random(1)
    try:
        while len(shown) < ANSWERS:
            found = child.expect(patterns)
            before: str = child.before.replace("\r", "")
            if found < len(names):
                shown.append(before + str(child.after))
                keys = [m.group(1) for m in map(KEY.match, before.split("\n")) if m]
                child.sendline(rng.choice(keys) if keys else "")
            elif found - len(names) in (0, 2):
                child.sendline("")
            elif found - len(names) == 1:
                child.sendline("y")
            else:
                break
    finally:
        child.close(force=True)
    return shown


def question_screen(before: str) -> list[str]:
    """The lines of the screen a question stands on: from the blank line before it (or the
    wipe of the hot seat) to its prompt."""
    text = before.split("\x1b[H\x1b[2J\x1b[3J")[-1]
    return text.split("\n\n")[-1].split("\n")


# Red Notice's hunter is set earlier: her belief of where Angela may be is worked out from
# the whole game the first time it is shown (see benchmarks/bench_belief.py for its cost).
CASES = [("rednotice", {"angela": "human", "jessah": "random"}, ["Angela"], 260),
         ("rednotice", {"jessah": "human", "angela": "random"}, ["Jessah"], 400),
         ("carchase", {"law": "human", "fugitive": "random"}, ["The Law"], 25),
         ("carchase", {"fugitive": "human", "law": "human"}, ["The Fugitive", "The Law"], 25),
         ("rednotice", {"angela": "human", "jessah": "human"}, ["Angela", "Jessah"], 260)]


@pytest.mark.slow
@pytest.mark.parametrize("case, columns", [(0, 80), (0, 60), (1, 80), (2, 60), (3, 80), (4, 80)],
                         ids=["angela-80", "angela-60", "jessah-80", "law-60", "hot-seat-80",
                              "rednotice-hot-seat-80"])
def test_late_in_a_game_every_question_fits(case: int, columns: int, tmp_path: Path) -> None:
    pack, seats, names, decisions = CASES[case]
    save = late_save(tmp_path, pack, seats, decisions, stop_at=LONG_MENU)
    shown = screens(tmp_path, save, names, columns)
    assert len(shown) >= 3
    for before in shown:
        screen = question_screen(before)
        assert len(screen) <= ROWS, "\n".join(screen)
        wiped = before.replace("\x1b[H\x1b[2J\x1b[3J", "")  # the hot seat's wipe
        assert all(len(line) <= columns for line in wiped.split("\n")), before
    assert columns < 80 or any(re.search(r"^(\x1b\[H\x1b\[2J\x1b\[3J)?=+ .*\b(round|turn) \d+",
                                         s, re.M) for s in shown)  # a status block at 80


def test_a_long_menu_is_cut_short_and_more_lists_it(tmp_path: Path) -> None:
    """A menu of some fifty lines on 24: in columns, cut short; ``more`` lists them all."""
    from rulekit.engine.decisions import Decision
    from rulekit.play.menuview import menu_block
    from rulekit.play.prompt import Menu
    from rulekit.play.render import Renderer
    from rulekit.play.screen import Screen

    loaded = load_pack("rednotice")
    places = list(loaded.game.symbols.board.nodes)
    decision = Decision({"player": "jessah", "kind": "one", "prompt": "Go to",
                         "items": places * 2, "ids": [f"{p}{i}" for i in range(2)
                                                      for p in places]}, str)
    menu = Menu(decision, str)
    block = menu_block(Renderer(loaded.game, {}, None, loaded.display), menu, "jessah")
    out = io.StringIO()
    screen = Screen(output=out, no_color=True)
    screen.console.width = 80
    screen.console.soft_wrap = False  # as on a terminal
    screen.show(block.capped(5))
    lines = out.getvalue().splitlines()
    assert len(lines) == 1 + 5 + 1, lines  # the title, 4 lines of entries, 'more', the hint
    assert "18 more: type more to list them all" in lines[-2]
    assert "1  new_york" in lines[1] and "5  miami" in lines[1]  # read down the columns
    assert all(len(line) <= 80 for line in lines)
    out.truncate(0)
    screen.show(block)  # 'more': every line
    assert len(out.getvalue().splitlines()) == 1 + 30 + 1


def test_each_event_is_told_once_and_nothing_unset_is_shown(play: Play) -> None:
    """Jessah's first screens: Angela's start shown once (not again under "Since your last
    turn"), and no line for her own pawn not yet placed or her tokens not yet drawn."""
    code, out, _ = play(["1", "1", "quit"], "play", "rednotice", "--seat",
                        "jessah=human,angela=random", "--seed", "2", "--fast")
    assert code == 0
    assert out.count("Angela shows $") == 1, out
    setup = out.split("Jessah> ")[0]
    assert "Jessah -" not in setup and "Your tokens: none" not in setup, setup
    assert "Your Checks: " in setup
