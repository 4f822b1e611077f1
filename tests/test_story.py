"""The log lines of the shipped packs say what happened: checked against the state over random
games (what a player reads in ``rulekit play``; ``test_play_terminal`` reads it off a screen)."""

from __future__ import annotations

import random
import re

import pytest

from rulekit.engine.game import Game
from rulekit.pack.loader import load_pack

DRAW = re.compile(r"(Angela|Jessah) (?:draws (\d) Checks?|declines to draw Checks|"
                  r"draws no Check)\D*?(\d)\)?\.$")


@pytest.fixture(scope="module")
def rednotice() -> Game:
    return load_pack("rednotice").game


def test_every_draw_line_says_how_many_checks_were_drawn(rednotice: Game) -> None:
    game = rednotice
    roles = {game.role_names[role]: role for role in game.roles}
    checked = drawn_none = 0
    for seed in range(12):
        rng = random.Random(seed)
        state = game.new_game(seed)
        while state["result"] is None:
            before = {role: len(state["zones"][f"checks.{role}"]) for role in game.roles}
            start = len(state["log"])
            actions = {d.player: d.sample(rng) for d in game.pending(state)}
            state = game.apply(state, actions)
            lines = [game.format_event(e) for e in state["log"][start:] if e["e"] == "log"]
            draws = [DRAW.match(line) for line in lines if DRAW.match(line)]
            if len(draws) != 1 or any("cashes" in line for line in lines):
                continue
            found = draws[0]
            assert found is not None
            role = roles[found.group(1)]
            after = len(state["zones"][f"checks.{role}"])
            said = int(found.group(2) or 0)
            assert (said, int(found.group(3))) == (after - before[role], after), lines
            checked += 1
            drawn_none += said == 0
    assert checked > 100 and drawn_none > 10


def test_a_capture_stands_out_and_says_what_it_means(rednotice: Game) -> None:
    game = rednotice
    for seed in range(40):
        rng = random.Random(seed)
        state = game.new_game(seed)
        while state["result"] is None:
            state = game.apply(state, {d.player: d.sample(rng) for d in game.pending(state)})
        captures = [e for e in state["log"] if e["e"] == "log"
                    and "captures Angela" in game.format_event(e)]
        if len(captures) == 3:
            break
    else:
        pytest.fail("no game with three captures")
    texts = [game.format_event(e) for e in captures]
    assert all(game.stands_out(e) for e in captures)
    assert not any("**" in text for text in texts)
    assert texts[0].endswith("She escapes with one of her 2 Identities: 1 left after this.")
    assert texts[1].endswith("She escapes with her last Identity: the next capture wins.")
    assert texts[2].endswith("No Identity is left to escape with.")
    others = [e for e in state["log"] if e["e"] == "log" and e not in captures]
    assert not any(game.stands_out(e) for e in others)


def test_carchase_exchanges_name_the_cards_that_go_face_up() -> None:
    game = load_pack("carchase").game
    rng = random.Random(1)
    state = game.new_game(1)
    named = 0
    while state["result"] is None:
        start = len(state["log"])
        decision = game.pending(state)[0]
        option = decision.sample(rng)
        state = game.apply(state, {decision.player: option})
        if decision.prompt.startswith("Discard cards"):
            line = next(game.format_event(e) for e in state["log"][start:] if e["e"] == "log")
            cards = [game.label(card) for card in option.value]
            if cards:
                assert line.startswith(f"{game.role_names[decision.player]} discards "
                                       f"{', '.join(cards)} face up and draws ")
                named += 1
            else:
                assert line == f"{game.role_names[decision.player]} keeps the whole hand."
    assert named >= 2
