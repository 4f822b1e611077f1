"""``rulekit play`` on a real pseudo-terminal of 80x24 (and 60 columns), as a person plays it:
a few decisions of each pack and role, read off the screen. Menu keys are numbers in
increasing order (anytime actions letters), a long label wraps under itself, no line is wider
than the terminal, and with ``NO_COLOR`` no escape code reaches the screen."""

from __future__ import annotations

import json
import os
import random
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers_play import ENTRY, menu_keys

from rulekit.pack.loader import load_pack

pexpect = pytest.importorskip("pexpect")

ROOT = Path(__file__).resolve().parent.parent
CONFIRM = "? [y/N] "
ROLES = [("carchase", "law", "The Law"), ("carchase", "fugitive", "The Fugitive"),
         ("rednotice", "angela", "Angela"), ("rednotice", "jessah", "Jessah")]


# The seat not played: a quick random bot.
OPPONENT = {"law": "fugitive", "fugitive": "law", "angela": "jessah", "jessah": "angela"}


@pytest.mark.parametrize("columns", [80, 60])
@pytest.mark.parametrize("pack, role, name", ROLES)
def test_a_few_moves_at_80_and_60_columns(pack: str, role: str, name: str, columns: int,
                                          tmp_path: Path) -> None:
    env = {**os.environ, "NO_COLOR": "1", "TERM": "xterm-256color",
           "PYTHONPATH": str(ROOT), "COLUMNS": str(columns), "LINES": "24"}
    other = next(r for p, r, _ in ROLES if p == pack and r != role)
    child = pexpect.spawn(sys.executable, ["-m", "rulekit", "play", pack, "--seat",
                                           f"{role}=human,{other}=random", "--seed", "2",
                                           "--fast"],
                          cwd=str(tmp_path), env=env, dimensions=(24, columns),
                          encoding="utf-8", timeout=60)
    try:
        answered = 0
        seen = ""
        actions: list[str] = []
        leave = "Press Enter to leave"
        while answered < 6:
            found = child.expect([re.escape(f"{name}> "), leave, re.escape(CONFIRM)])
            if found == 2:  # an answer that leaves out cards one may play: meant
                seen += child.before
                child.sendline("y")
                continue
            if found == 1:
                seen += child.before
                child.sendline("")
                break  # the game is over already
            screen = child.before
            seen += screen
            keys = menu_keys(screen)
            numbers = [k for k in keys if k[:1].isdigit()]
            letters = [k for k in keys if not k[:1].isdigit()]
            # keys each once, numbers in increasing order: a place, an amount, a value
            assert len(set(numbers)) == len(numbers), screen
            digits = [int(k) for k in numbers if k.isdigit()]
            assert digits == sorted(digits), screen
            assert letters == [chr(ord("a") + i) for i in range(len(letters))], screen
            assert keys == numbers + letters, screen
            actions += letters
            child.sendline(numbers[0] if numbers else "")
            answered += 1
        found = child.expect([re.escape(f"{name}> "), leave, pexpect.EOF, re.escape(CONFIRM)])
        while found == 3:
            child.sendline("y")
            found = child.expect([re.escape(f"{name}> "), leave, pexpect.EOF,
                                  re.escape(CONFIRM)])
        if found == 1:
            child.sendline("")
        if found == 0:
            child.sendline("quit")
            child.expect(pexpect.EOF)
            assert "Goodbye." in child.before
        seen += child.before
    finally:
        child.close(force=True)
    assert answered >= 3
    if role == "angela":  # her anytime action, a letter (wrapped at 60 columns)
        assert "a" in actions
    assert "\x1b" not in seen
    assert all(len(line) <= columns for line in seen.replace("\r", "").split("\n"))


# -- whole games: the story a player reads ------------------------------------------------------

PASS = "press Enter when ready: "
LEAVE = "Press Enter to leave"


def spawn(tmp_path: Path, *argv: str, columns: int = 80) -> Any:
    env = {**os.environ, "NO_COLOR": "1", "TERM": "xterm-256color",
           "PYTHONPATH": str(ROOT), "COLUMNS": str(columns), "LINES": "24"}
    child = pexpect.spawn(sys.executable, ["-m", "rulekit", "play", *argv, "--fast"],
                          cwd=str(tmp_path), env=env, dimensions=(24, columns),
                          encoding="utf-8", timeout=60)
    child.delaybeforesend = None
    return child


def whole_game(tmp_path: Path, names: list[str], *argv: str, seed: int = 1,
               max_answers: int = 2000, quit_after: int | None = None) -> str:
    """A whole game on a terminal (or its first ``quit_after`` answers), each person
    answering at random among the menu's lines (a subset: one item or none; a confirmation:
    yes); everything the terminal showed."""
    rng = random.Random(seed)
    child = spawn(tmp_path, *argv, "--save", "game.json")
    prompts = [re.escape(f"{name}> ") for name in names]
    patterns = [*prompts, re.escape(PASS), re.escape(CONFIRM), LEAVE, pexpect.EOF]
    seen = ""
    numbers: list[str] = []
    try:
        for _ in range(max_answers):
            found = child.expect(patterns)
            seen += child.before + (child.after if isinstance(child.after, str) else "")
            kind = found - len(names)
            if kind < 0 and quit_after is not None and quit_after <= 0:
                child.sendline("quit")
                child.expect(pexpect.EOF)
                seen += child.before
                break
            if kind < 0:
                quit_after = None if quit_after is None else quit_after - 1
                screen = child.before
                keys = menu_keys(screen)
                if not keys and "Press Enter (nothing to choose)" in screen:
                    child.sendline("")
                    continue
                assert keys or "Back to:" in screen, screen  # a refusal asks again
                numbers = [k for k in keys if k[:1].isdigit()] if keys else numbers
                if "Type numbers" in screen.rsplit("\n", 3)[-1] or not numbers:
                    child.sendline(rng.choice(["none", *numbers[:1]]))
                else:
                    child.sendline(rng.choice(numbers))
            elif kind == 0:
                child.sendline("")
            elif kind == 1:
                child.sendline("y")
            elif kind == 2:
                child.sendline("")
            else:
                break
        else:
            pytest.fail("the game did not end")
    finally:
        child.close(force=True)
    return seen.replace("\r", "")


EVENT = re.compile(r"^  \S")
EVENT_WRAPPED = re.compile(r"^    \S")  # a long log line wraps under itself, further in


def story(transcript: str) -> list[str]:
    """The log lines of a transcript (lines indented by 2, with their wrapped parts)."""
    lines: list[str] = []
    joining = False
    for line in transcript.split("\n"):
        if EVENT.match(line) and not ENTRY.match(line):
            lines.append(line.strip())
            joining = True
        elif joining and EVENT_WRAPPED.match(line) and not ENTRY.match(line):
            lines[-1] += " " + line.strip()
        else:
            joining = False
    return lines


def assert_no_restatement(transcript: str, names: list[str]) -> None:
    """No answer is followed by its restatement, and nothing is said without its actor."""
    assert " chose " not in transcript
    assert "\x1b[3" not in transcript and "\x1b[1m" not in transcript  # NO_COLOR: no styles


CARD = r"[^,]+ \([A-Z]\d+\)"


@pytest.mark.parametrize("role, name", [("law", "The Law"), ("fugitive", "The Fugitive")])
def test_carchase_whole_game_names_the_exchanged_cards(role: str, name: str,
                                                       tmp_path: Path) -> None:
    seen = whole_game(tmp_path, [name], "carchase",
                      "--seat", f"{role}=human,{OPPONENT[role]}=random",
                      "--seed", "3")
    other = "The Fugitive" if role == "law" else "The Law"
    lines = story(seen)
    exchanges = [line for line in lines if line.startswith(other) and " face up" in line]
    assert exchanges, lines  # the opponent's discards go face up: named
    assert all(re.fullmatch(rf"{other} discards {CARD}(, {CARD})* face up and draws "
                            rf"(a replacement|\d replacements)\.", line) for line in exchanges)
    assert any(re.match(r"(Search|Chase|Escape): the Law plays ", line) for line in lines)
    assert "Game over:" in seen
    assert_no_restatement(seen, [name])


@pytest.mark.slow
@pytest.mark.parametrize("role, name, seed", [("jessah", "Jessah", 4), ("angela", "Angela", 2)])
def test_rednotice_whole_game_tells_the_story(role: str, name: str, seed: int,
                                              tmp_path: Path) -> None:
    seen = whole_game(tmp_path, [name], "rednotice",
                      "--seat", f"{role}=human,{OPPONENT[role]}=random",
                      "--seed", str(seed), "-p", "goal=300000", seed=seed)
    lines = story(seen)
    other = "Angela" if role == "jessah" else "Jessah"
    # Angela's Movement is told whatever she did, and never where she went (but to her)
    moves = [line for line in lines if line.startswith("Angela moves in secret")]
    assert moves and all(re.fullmatch(r"Angela moves in secret \(Movement \d\); (no Radar "
                                      r"triggered|she triggered the Radars in: .+)\.", line)
                         for line in moves)
    where = [line for line in lines if line.startswith("You are in ")]
    assert bool(where) == (role == "angela")
    assert all(line.endswith("(only you)") for line in where)
    # what the opponent declined is said; every draw line says how many were drawn
    assert any(re.match(rf"{other} (declines|cashes no Check|stays in|places no)", line)
               for line in lines), lines
    assert not any("draws Checks;" in line for line in lines)
    draws = [line for line in lines if " draw" in line and "Check" in line]
    assert draws and all(re.fullmatch(r"(Angela|Jessah) (draws (1 Check|\d Checks) \(hand: \d\)"
                                      r"|declines to draw Checks \(hand: \d\)|draws no Check: "
                                      r".+)\.", line) for line in draws), draws
    # each card's reveal says who acts; a capture stands out and says what it means
    assert any(re.match(r"Card \d, .+: .+ (alone|against) .+; \w+ (does|goes)", line)
               for line in lines)
    captures = [line for line in lines if "captures Angela" in line]
    meanings = [r"She escapes with one of her 2 Identities: 1 left after this\.",
                r"She escapes with her last Identity: the next capture wins\.",
                r"No Identity is left to escape with\."]
    for count, line in enumerate(captures):
        assert re.fullmatch(rf"\*\*\* Jessah captures Angela in .+! {meanings[count]} \*\*\*",
                            line)
    if role == "jessah":  # this game has a capture (the later ones: tests/test_story.py)
        assert captures, lines
    assert "Game over:" in seen
    assert_no_restatement(seen, [name])


def turns(pack: str, save: Path) -> tuple[int, int, dict[int, int]]:
    """From a save: how many turns its people had (runs of one person's decisions), how
    many times a new round or phase began inside a turn, and the turns begun in each round.
    Each new turn is checked to be one the rules forced: its last person had nothing to
    answer (else they would have gone on answering)."""
    saved = json.loads(save.read_text())
    game = load_pack(pack, {k: int(v) for k, v in saved["params"].items()}).game
    state = game.new_game(saved["seed"])
    holder, stage = None, None
    count = new_stage = 0
    per_round: dict[int, int] = {}
    for role, option in saved["decisions"]:
        here = (state["round"], state["phase"])
        pending = game.pending(state)
        if role != holder:
            assert not any(d.player == holder for d in pending), (here, holder, role)
            count += 1
            if holder is not None:  # (the game's first pass hands nothing over)
                per_round[state["round"]] = per_round.get(state["round"], 0) + 1
        elif here != stage:
            new_stage += 1
        holder, stage = role, here
        decision = next(d for d in pending if d.player == role)
        state = game.apply(state, {role: decision.option(option)})
    pending = game.pending(state) if state["result"] is None else []
    if pending and not any(d.player == holder for d in pending):
        count += 1  # the question left unanswered (quit) had its pass screen
    return count, new_stage, per_round


def shared_screens(transcript: str) -> list[str]:
    """What the pass screens showed both players."""
    return re.findall(r"For everyone\n(.*?)Pass to", transcript, re.S)


@pytest.mark.slow
@pytest.mark.parametrize("pack, names, argv", [
    ("rednotice", ["Angela", "Jessah"], ["--seed", "5", "--seat", "angela=human,jessah=human"]),
    ("carchase", ["The Law", "The Fugitive"],
     ["--seed", "5", "--seat", "law=human,fugitive=human"]),
])
def test_hot_seat_one_pass_a_turn_and_public_phases_shown_to_both(
        pack: str, names: list[str], argv: list[str], tmp_path: Path) -> None:
    seen = whole_game(tmp_path, names, pack, *argv, seed=5, quit_after=80)
    count, new_stage, per_round = turns(pack, tmp_path / "game.json")
    passes = seen.count(PASS)
    assert passes == count  # one a turn, none more where a phase starts
    # per round: a hand-over only where the rules ask the other person (a token placed in
    # the open, a card's actions in turn); Car Chase's secret plays: one each, not two
    rounds = [n for number, n in per_round.items() if number > 0][:-1]  # (whole rounds)
    assert rounds and max(rounds) <= (12 if pack == "rednotice" else 4), per_round
    assert pack == "carchase" or new_stage > 0  # (a phase did start inside a turn)
    prompts = "|".join(re.escape(f"{name}> ") for name in names)
    goes_on = [chunk for chunk in re.split(prompts, seen) if PASS not in chunk
               and re.search(r"^=+ .* =+$", chunk, re.M)]
    assert goes_on  # a new round or phase of one's own turn: its table, but no new turn
    assert not any("Since your last turn" in chunk for chunk in goes_on)
    assert count >= 8
    shared = shared_screens(seen)
    assert shared and all("(only" not in text and " chose " not in text for text in shared)
    # what the pass screen showed is not told again once the player has pressed Enter
    prompts = "|".join(re.escape(name) for name in names)
    for told, after in re.findall(rf"For everyone\n(.*?)Pass to.*?when ready: (.*?)(?:{prompts})> ",
                                  seen, re.S):
        events = [line for line in story(told) if not line.startswith("--")]
        again = [line for line in story(after) if not line.startswith("--")]
        assert not events or not any(again[i:i + len(events)] == events
                                     for i in range(len(again))), (told, after)
    # a person's own screen tells them none of their own placements again
    for name, after in re.findall(rf"Pass to ({prompts}), press Enter.*?when ready: (.*?)"
                                  rf"(?:{prompts})> ", seen, re.S):
        assert not any(line.startswith(f"{name} places a token") for line in story(after)), \
            after
    public = story("\n".join(shared))
    if pack == "rednotice":  # a card's reveal and who acts, for both at once
        assert any(re.match(r"Card \d, .+ (alone|against) ", line) for line in public)
        assert not any(line.startswith("You are in ") for line in public)
    else:  # a contest's reveal
        assert any(re.match(r"(Search|Chase|Escape): the Law plays ", line) for line in public)


def test_a_subset_that_leaves_out_a_playable_card_is_confirmed(tmp_path: Path) -> None:
    child = spawn(tmp_path, "carchase", "--seat", "law=human,fugitive=random", "--seed", "3")
    prompt = re.escape("The Law> ")
    try:
        for _ in range(40):  # until a contest offers the Law a card it may play
            child.expect(prompt)
            screen = child.before
            if "Play cards" in screen and [k for k in menu_keys(screen) if k[:1].isdigit()]:
                break
            child.sendline("none")  # no exchange; nothing to play
        else:
            pytest.fail("no contest offered a card")
        offered = [line.split("  ", 2)[-1].strip() for line in screen.split("\n")
                   if ENTRY.match(line)]
        child.sendline("none")
        child.expect(re.escape(CONFIRM))
        asked = re.sub(r"\s*\r\n", " ", child.before)
        assert "You leave out " in asked and "which you may choose now." in asked
        assert offered[0] in asked
        assert child.after.startswith("? [y/N]") and "Choose none of them" in asked
        child.sendline("n")  # not meant: the question again
        child.expect(prompt)
        assert "Back to: Play cards" in child.before
        child.sendline("none")
        child.expect(re.escape(CONFIRM))
        child.sendline("none")  # the same answer again: meant
        child.expect(prompt)
        told = child.before.replace("\r", "")
        assert re.search(r"the Law plays nothing for 0", told), told
        child.sendline("quit")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)


def test_piped_play_reads_as_a_transcript(tmp_path: Path) -> None:
    """Piped answers are echoed after their prompts, never restated, never confirmed; a long
    line is not cut."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "60"}
    env.pop("NO_COLOR", None)
    import subprocess

    done = subprocess.run([sys.executable, "-m", "rulekit", "play", "carchase", "--seat",
                           "fugitive=human,law=random", "--seed", "3", "--fast"],
                          input="none\n" * 60,
                          capture_output=True, text=True, cwd=str(tmp_path), env=env,
                          timeout=120)
    out = done.stdout
    assert done.returncode == 0, done.stderr
    assert "\x1b" not in out and "Traceback" not in out + done.stderr
    assert "The Fugitive> none\n" in out and "[y/N]" not in out and " chose " not in out
    lines = story(out)
    exchanges = [line for line in lines if line.startswith("The Law discards")]
    assert exchanges and all(line.endswith(".") for line in exchanges)  # whole, on one line
    assert "The Fugitive keeps the whole hand." in lines
    assert any("the Fugitive plays nothing for 0" in line for line in lines)


@pytest.mark.slow
@pytest.mark.parametrize("names, seats, seed", [
    (["Angela"], "angela=human,jessah=random", 2),
    (["Jessah"], "jessah=human,angela=random", 3),
    (["Angela", "Jessah"], "angela=human,jessah=human", 5),
], ids=["angela", "jessah", "hot-seat"])
def test_every_screen_of_a_whole_red_notice_game_fits_80x24(
        names: list[str], seats: str, seed: int, tmp_path: Path) -> None:
    seen = whole_game(tmp_path, names, "rednotice", "--seat", seats, "--seed", str(seed),
                      "-p", "goal=300000", seed=seed)
    prompts = "|".join(re.escape(f"{name}> ") for name in names)
    asked = re.split(prompts, seen)[:-1]
    assert len(asked) > 50
    starts = cut = 0
    for before in asked:
        screen = before.split("\x1b[H\x1b[2J\x1b[3J")[-1].split("\n\n")[-1].split("\n")
        assert len(screen) <= 24, "\n".join(screen)  # (its last line: the prompt)
        assert all(len(line) <= 80 for line in screen), "\n".join(screen)
        if any(line.startswith("=") for line in screen):
            starts += 1
            # the table a person decides on: the scores, and the Action row once dealt
            assert re.search(r"^  Cashed [\d,]+ of 300,000", before, re.M), "\n".join(screen)
        if "... and " in before.rsplit("\n\n", 1)[-1]:  # a menu cut short: only the Barriers'
            assert "Place a Barrier" in before, "\n".join(screen)
        # the status gives way from its end, never whole: the scores and the belief stay
        assert "type board to see the table" not in before, "\n".join(screen)
        if "(more of the table: type board)" in before:
            cut += 1
            assert re.search(r"^  Cashed ", before.rsplit("====", 1)[-1], re.M), before
    assert starts > 10
    assert cut or names != ["Jessah"]  # (her Barriers' menu did need the room)
