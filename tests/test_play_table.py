"""The table a pack declares (its ``display:`` section), as a person sees it on a real
pseudo-terminal of 80x24 and of 60 columns, for both packs and both roles: the status block
and the question fit an 80x24 screen, Red Notice's Action row is a table and its spaces are
named by card and side, Car Chase's hand is grouped, and no name is broken across lines."""

from __future__ import annotations

import itertools
import os
import random
import re
import sys
from pathlib import Path

import pytest
from helpers_play import first_key

from rulekit.pack.loader import load_pack

pexpect = pytest.importorskip("pexpect")

ROOT = Path(__file__).resolve().parent.parent
HEADER = re.compile(r"^=+ .+ =+$")
SPACES = "Place your token beside an Action card"


def names_of(pack: str) -> set[str]:
    """Every name of the pack a screen may show that has a space in it."""
    game = load_pack(pack).game
    ids = [*game.symbols.cards, *game.symbols.board.nodes, *game.symbols.board.regions]
    names = {game.label(i) for i in ids} | set(game.role_names.values())
    return {name for name in names if " " in name}


def broken_names(lines: list[str], names: set[str]) -> list[str]:
    """The names that end one line and go on at the start of the next."""
    broken = []
    for above, below in itertools.pairwise(lines):
        end, start = above.rstrip(), below.lstrip()
        for name in names:
            for i, char in enumerate(name):
                if char == " " and end.endswith(name[:i]) and start.startswith(name[i + 1:]):
                    broken.append(f"{name!r} in {above!r} / {below!r}")
    return broken


# The seat not played: a quick random bot.
OPPONENT = {"law": "fugitive", "fugitive": "law", "angela": "jessah", "jessah": "angela"}


def screens(pack: str, role: str, name: str, columns: int, answers: int, tmp_path: Path,
            until: str | None = None) -> tuple[list[str], str]:
    """The screens that start a turn (from the status header to the prompt) among the first
    ``answers`` questions, answering the first line, in a game with seed 2, and the text shown
    before the last question asked (the first whose text holds ``until``, if given)."""
    env = {**os.environ, "NO_COLOR": "1", "TERM": "xterm-256color",
           "PYTHONPATH": str(ROOT), "COLUMNS": str(columns), "LINES": "24"}
    child = pexpect.spawn(sys.executable, ["-m", "rulekit", "play", pack, "--seat",
                                           f"{role}=human,{OPPONENT[role]}=random",
                                           "--seed", "2", "--fast"],
                          cwd=str(tmp_path), env=env, dimensions=(24, columns),
                          encoding="utf-8", timeout=120)
    turns: list[str] = []
    last = ""
    try:
        for _ in range(answers):
            found = child.expect([re.escape(f"{name}> "), "Press Enter to leave",
                                  re.escape("[y/N] ")])
            while found == 2:  # an answer that leaves out a card the phase allows: meant
                child.sendline("y")
                found = child.expect([re.escape(f"{name}> "), "Press Enter to leave",
                                      re.escape("[y/N] ")])
            if found == 1:
                break
            lines = [*child.before.replace("\r", "").split("\n"), f"{name}> "]
            last = "\n".join(lines)
            tops = [i for i, line in enumerate(lines) if HEADER.match(line)]
            if tops:  # a new turn: its status, then the question (else only what changed)
                turns.append("\n".join(lines[tops[-1]:]))
            if until is not None and until in last:
                break
            child.sendline(first_key(last))
        child.sendline("quit")
        if child.expect([pexpect.EOF, "Press Enter to leave", "Back to: "]) == 2:
            child.sendline("quit")  # (the first answered a confirmation)
            child.expect([pexpect.EOF, "Press Enter to leave"])
    finally:
        child.close(force=True)
    return turns, last


ROLES = [("rednotice", "angela", "Angela"), ("rednotice", "jessah", "Jessah"),
         ("carchase", "law", "The Law"), ("carchase", "fugitive", "The Fugitive")]


@pytest.mark.slow
@pytest.mark.parametrize("columns", [80, 60])
@pytest.mark.parametrize("pack, role, name", ROLES)
def test_the_status_and_the_question_fit_the_screen(pack: str, role: str, name: str,
                                                     columns: int, tmp_path: Path) -> None:
    shown, question = screens(pack, role, name, columns, 12, tmp_path,
                              until=SPACES if pack == "rednotice" else None)
    assert len(shown) >= 2
    names = names_of(pack)
    for screen in [*shown, question]:
        lines = screen.split("\n")
        if columns == 80 and screen != question:  # status and question: no scrolling
            assert len(lines) <= 24, screen
        assert all(len(line) <= columns for line in lines), screen
        assert broken_names(lines, names) == [], screen
    last = shown[-1]
    if pack == "rednotice":
        assert re.search(r"^  Cashed \d[\d,]* of 1,000,000 · Security \d of 4", last, re.M)
        assert re.search(r"^  Card +Left action +Left token +Right token +Right action$",
                         last, re.M), last  # the Action row, as a table
        assert re.search(r"^  1 +(Movement|Check|Bank|Security|Joker) ×\d ", last, re.M)
        assert SPACES in question  # the space asked by card and side, with its action
        assert re.search(r"^ +\d[lr]  card \d, (left|right): (Movement|Check|Bank|Security|Joker) "
                         r"×\d$", question, re.M), question
        where = "Angela: " if role == "angela" else "Angela may be in "
        assert where in last
    else:
        assert re.search(r"Car Chase - turn 1 of 7 - ", shown[0])
        assert re.search(r"^  Deck \d+ · Discard pile \d+", shown[0], re.M)
        # the hand, in the status; where the menu of the hand needs the room (60 columns),
        # the hand's lines give way, the scores stay
        assert any(re.search(r"^  Your hand \([A-Z][a-z]+\): ", screen, re.M)
                   for screen in shown)


def test_a_space_the_rules_refuse_says_why_by_its_name() -> None:
    """A token space that holds a token is not in the menu; typed by its name (or the start
    of it) it gets the pack's reason, and the menu lists it as not open."""
    import random

    from rulekit.play.menuview import menu_block
    from rulekit.play.prompt import Problem, parse_answer
    from rulekit.play.render import Renderer

    loaded = load_pack("rednotice")
    game = loaded.game
    state = game.new_game(5)
    rng = random.Random(1)
    render = Renderer(game, {}, None, loaded.display)
    for _ in range(300):
        decision = game.pending(state)[0]
        if decision.refused():
            break
        options = [o for o in decision.options() if not o.id.startswith("!")]
        state = game.apply(state, {decision.player: rng.choice(options)})
    menu = render.menu(decision, game.observe(state, decision.player))
    name = menu.refused[0][0]
    assert name.startswith("card ") and name not in [e.label for e in menu.entries]
    found = re.match(r"card (\d), (left|right)", name)
    assert found
    key = found[1] + found[2][0]  # its key, had it been open: "2l"
    assert menu.entry(key) is None
    for typed in (name, name.split(":")[0], key, key.upper()):
        answer = parse_answer(menu, typed)
        assert isinstance(answer, Problem) and "already holds a token" in answer.message, typed
    closed = menu_block(render, menu, decision.player).closed
    assert closed is not None and f"Not open now: {name}" in closed.body.plain


def test_a_question_says_what_it_is_about() -> None:
    """The pack's context of the procedures a question is asked in: the card resolved, the
    side, the action and its icons, the step of a move."""
    import random

    from rulekit.play.render import Renderer
    from rulekit.play.table import Context

    loaded = load_pack("rednotice")
    game = loaded.game
    state = game.new_game(5)
    rng = random.Random(6)
    context = Context(game, Renderer(game, {}, None, loaded.display).table)
    said: list[tuple[str, str, str | None]] = []
    for _ in range(200):
        decision = game.pending(state)[0]
        said.append((decision.player, decision.prompt, context.text(state, decision.player)))
        options = [o for o in decision.options() if not o.id.startswith("!")]
        state = game.apply(state, {decision.player: rng.choice(options)})
    assert ("jessah", "Move to (or stop)",
            "Card 1, your left side, Movement 2, step 1 of 2") in said
    assert ("angela", "Move to (or stop)",
            "Card 3, your right side, Movement 2, step 1 of 2") in said
    assert ("angela", "How many Checks to draw", "Card 1, your right side, Check 1") in said
    assert ("jessah", "Move to (or stop)",
            "Card 1, your left side, Movement 2, step 2 of 2") in said
    assert all(text is None for _, prompt, text in said if prompt.startswith("Choose a token"))


def test_a_count_stays_with_its_name_when_a_line_wraps() -> None:
    from rich.text import Text

    from rulekit.play.wrapping import wrap_keeping

    text = Text("Checks: $200,000 (North America), $200,000 (South America), "
                "$100,000 (Asia) x2")
    lines = [line.plain for line in wrap_keeping(text, 75, ["$100,000 (Asia)"])]
    assert lines[-1] == "$100,000 (Asia) x2", lines


def test_a_log_value_the_display_words_is_told_in_those_words() -> None:
    from rulekit.play.render import Renderer

    loaded = load_pack("rednotice")
    game, render = loaded.game, Renderer.of(loaded)
    told = []
    for seed in range(6):
        state = game.new_game(seed)
        rng = random.Random(seed)
        while state["result"] is None and not told:
            decision = game.pending(state)[0]
            options = [o for o in decision.options() if not o.id.startswith("!")]
            state = game.apply(state, {decision.player: rng.choice(options)})
            told = [(game.format_event(e), render.event_text(e).plain) for e in state["log"]
                    if "then the other" in game.format_event(e)]
        if told:
            break
    assert told
    engine, shown = told[0]
    assert engine.endswith("does both, then the other her side.")  # the pack's own words
    assert shown.endswith("does both; then the other does her side.")


@pytest.mark.slow
def test_steps_count_within_one_call_and_never_past_their_number() -> None:
    from rulekit.play.render import Renderer
    from rulekit.play.table import Context

    loaded = load_pack("rednotice")
    game = loaded.game
    said: set[str] = set()
    for seed in (5, 8):
        context = Context(game, Renderer.of(loaded).table)
        state = game.new_game(seed)
        rng = random.Random(seed)
        while state["result"] is None:
            decision = game.pending(state)[0]
            text = context.text(state, decision.player)
            if text and " step " in f" {text}":
                said.add(text)
                found = re.search(r"step (\d+) of (\d+)", text)
                assert found, text  # every step says of how many
                assert 1 <= int(found[1]) <= int(found[2]), text  # (Jessah's ran on)
            options = [o for o in decision.options() if not o.id.startswith("!")]
            state = game.apply(state, {decision.player: rng.choice(options)})
    # an escape's imposed step, then a free one: two steps of one call, not "step 1" twice
    assert any(text.endswith("escaping as The Smuggler, step 2 of 2") for text in said)
    assert any(text.startswith("Card ") and "Jessah's" in text for text in said)
