"""Every byte the server sends a seat's page depends only on what that seat may see.

Whole games of both packs are played through the pages (the Starlette test client), and every
message each page receives is kept. Each view sent is then drawn again from the state it was
drawn from, and from that state with the secrets its seat cannot see dealt otherwise
(``helpers_leak``): the two must be the same, byte for byte, and the same as what was sent.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from helpers_leak import Kind, alter, any_card, by_type_and_owner, reask
from helpers_web import play_pages

from rulekit.engine.game import State
from rulekit.engine.observe import public_part
from rulekit.play.render import Renderer
from rulekit.play.table import Context
from rulekit.web import Room, new_room
from rulekit.web.views import NARROW_WIDTH, TEXT_WIDTH, SeatView, Views

# pack -> (what may take an unseen card's place, share of the views checked, seed, parameters)
PACKS: dict[str, tuple[Kind, float, int, list[str]]] = {
    "carchase": (any_card, 1.0, 7, []),
    "rednotice": (by_type_and_owner, 0.05, 3, ["goal=400000"]),
}


def _recording(room: Room) -> dict[str, int]:
    """Record the number of decisions each view sent was drawn at, by its text."""
    drawn: dict[str, int] = {}
    original = room.view

    def view(role: str | None, narrow: bool = False) -> SeatView:
        seen = original(role, narrow)
        done, shown = room._shown[role, narrow]
        assert shown is seen
        drawn[json.dumps(seen, ensure_ascii=False)] = done
        return seen

    room.view = view  # type: ignore[method-assign]
    return drawn


def _states(room: Room) -> list[State]:
    game, session = room.game, room.session
    state = game.new_game(session.seed)
    states = [state]
    for role, option in session.decisions:
        state = game.apply(state, {role: option})
        states.append(state)
    return states


def _drawn(room: Room, state: State, role: str | None) -> dict[str, Any]:
    """A view of ``state`` drawn afresh, beliefs included, by the server's own code."""
    game = room.game
    views = Views(game, Renderer.of(room.session.loaded))
    if role is None:
        seen = views.spectator(public_part(game.layout, game.observe(state, game.roles[0])))
    else:
        ask = 1 + sum(1 for event in state["log"] if event["e"] == "choice"
                      and event["player"] == role)
        decision = game.decision_for(state, role)
        context = Context(game, views.table).text(state, role) if decision else None
        width = NARROW_WIDTH if role == game.roles[-1] else TEXT_WIDTH  # as play_pages
        seen = views.seat(game.observe(state, role), role, decision, ask, context, width)
    return dict(seen)


def _no_context(view: dict[str, Any]) -> dict[str, Any]:
    """``view`` without its question's context, whose steps count along the whole game."""
    question = view["question"]
    return {**view, "question": question and {**question, "context": None}}


@pytest.mark.slow
@pytest.mark.parametrize("pack", sorted(PACKS))
def test_no_page_is_sent_what_its_seat_cannot_see(pack: str, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    kind, share, seed, params = PACKS[pack]
    room = new_room(pack, [], params, seed=seed)
    # Where a hidden piece may be follows the seat's whole history: drawn afresh from one
    # state it may differ from what was sent, and is compared only between real and altered.
    history = ["maybe", "panels"] if room.views.belief_vars else ["maybe"]
    drawn = _recording(room)
    records = play_pages(room, seed=seed)
    states = _states(room)
    assert states[-1]["result"] is not None
    rand = random.Random(seed)
    checked = 0
    for role, record in records.items():
        assert record.views()[-1]["result"] is not None
        for text in record.texts:
            sent = json.loads(text)
            if sent["type"] == "error":  # a random pick the rules refuse, with the pack's
                # reason (lang/reasons), or the page's own answers coming too fast
                assert sent["message"].startswith(("Not an answer", "Too many messages"))
                continue
            if sent["type"] != "view":
                assert sent["type"] == "board"  # the pack's map: the same for everyone
                continue
            if rand.random() >= share:
                continue
            state = states[drawn[text]]
            fresh = _drawn(room, state, role)
            assert _no_context({**fresh, **dict.fromkeys(history)}) == \
                _no_context({**sent, **dict.fromkeys(history)})
            others = [r for r in room.game.roles if r != role]
            hidden_from = [role] if role is not None else others
            for viewer in hidden_from:
                altered = alter(room.game, state, viewer, rand, kind)
                real, other = (reask(room.game, state), reask(room.game, altered)) \
                    if state["pending"] and state["result"] is None else (state, altered)
                assert _drawn(room, real, role) == _drawn(room, other, role), \
                    f"{role}'s page after {drawn[text]} decisions shows a secret"
            checked += 1
    assert checked >= (10 if share < 1 else 50)
