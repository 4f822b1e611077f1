"""``rulekit serve``: links, refusals and bad messages, as a page or a stranger meets them."""

from __future__ import annotations

import contextlib
import json
import re
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from helpers_cli import runner
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from rulekit.play.savefile import read_save
from rulekit.web import Room, Server, new_room, resumed_room
from rulekit.web.server import BURST, MAX_MESSAGE, PAGES_PER_LINK


@pytest.fixture
def room(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Room:
    monkeypatch.chdir(tmp_path)
    return new_room("carchase", [], [], seed=11)


def _tokens(room: Room) -> dict[str | None, str]:
    return dict(room.links())


def _next_view(socket: Any) -> dict[str, Any]:
    message = json.loads(socket.receive_text())
    while message["type"] == "board":
        message = json.loads(socket.receive_text())
    return message  # type: ignore[no-any-return]


def _next_error(socket: Any) -> str:
    message = json.loads(socket.receive_text())
    while message["type"] != "error":
        message = json.loads(socket.receive_text())
    return message["message"]  # type: ignore[no-any-return]


def test_a_wrong_or_missing_token_gets_403_and_nothing_else(room: Room) -> None:
    tokens = _tokens(room)
    with TestClient(Server([room]).app()) as client:
        for path in ("/", "/play/", "/play/nope", "/play/" + tokens["law"][:-1], "/ws/x",
                     "/play/" + tokens["law"] + "x"):
            answer = client.get(path)
            assert (answer.status_code, answer.content) == (403, b""), path
        with pytest.raises(WebSocketDisconnect) as refused, \
                client.websocket_connect("/ws/" + tokens["law"].upper()):
            pass
        assert refused.value.code == 1008
        page = client.get("/play/" + tokens["law"])
        assert page.status_code == 200 and "app.js" in page.text


def test_each_page_is_asked_its_own_question_and_the_spectator_none(room: Room) -> None:
    tokens = _tokens(room)
    with TestClient(Server([room]).app()) as client, \
            client.websocket_connect("/ws/" + tokens["law"]) as law, \
            client.websocket_connect("/ws/" + tokens[None]) as watch:
        board = json.loads(law.receive_text())
        assert board["type"] == "board" and board["pack"] == "Car Chase"
        seen = json.loads(law.receive_text())
        assert seen["role"] == "law" and "Your hand" in seen["panels"]
        assert seen["question"]["prompt"] == "Discard cards to draw replacements"
        spectator = _next_view(watch)
        assert spectator["question"] is None and "Your hand" not in spectator["panels"]
        assert "The Law's Hand: 10 cards, face down" in spectator["panels"]


BAD = [
    ("not json", "not JSON"),
    ('{"ask": 1}', "not an answer"),
    ('{"ask": "1", "answer": "none"}', "not an answer"),
    ('{"ask": true, "answer": "none"}', "not an answer"),
    ('[1, 2]', "not an answer"),
    ('{"ask": 1, "answer": "none", "more": 1}', "not an answer"),
    ('{"ask": 1, "answer": "' + "x" * 5000 + '"}', "too long"),
    ('{"ask": 1, "answer": "ace_of_nothing"}', "Not an answer to this question"),
    ('{"ask": 2, "answer": "none"}', "your question 2, and the question now is number 1"),
    ('[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[', "not JSON"),
]


@pytest.mark.parametrize(("message", "said"), BAD)
def test_a_bad_message_gets_an_error_on_its_page_only_and_changes_nothing(
        room: Room, message: str, said: str) -> None:
    tokens = _tokens(room)
    with TestClient(Server([room]).app()) as client, \
            client.websocket_connect("/ws/" + tokens["law"]) as law, \
            client.websocket_connect("/ws/" + tokens["fugitive"]) as fugitive:
        _next_view(law)
        before = _next_view(fugitive)
        law.send_text(message)
        error = json.loads(law.receive_text())
        assert error["type"] == "error" and said in error["message"]
        assert room.session.decisions == []
        law.send_text(json.dumps({"ask": 1, "answer": "none"}))
        assert _next_view(law)["type"] == "view"
        after = json.loads(fugitive.receive_text())  # the game goes on, no error in between
        assert after["type"] == "view" and after["log"] != before["log"]
        assert room.session.decisions == [("law", "none")]


def test_a_replayed_answer_and_a_spectators_answer_are_refused(room: Room) -> None:
    tokens = _tokens(room)
    with TestClient(Server([room]).app()) as client, \
            client.websocket_connect("/ws/" + tokens["law"]) as law, \
            client.websocket_connect("/ws/" + tokens[None]) as watch:
        _next_view(law)
        law.send_text(json.dumps({"ask": 1, "answer": "none"}))
        assert _next_view(law)["question"] is None
        law.send_text(json.dumps({"ask": 1, "answer": "none"}))
        assert json.loads(law.receive_text())["message"] == \
            "Nothing is asked of you now: wait for your turn."
        _next_view(watch)
        watch.send_text(json.dumps({"ask": 1, "answer": "none"}))
        assert "spectator" in _next_error(watch)
        law.send_bytes(b"\x00")
        assert "as text" in json.loads(law.receive_text())["message"]
    assert room.session.decisions == [("law", "none")]


def test_a_flood_is_told_once_and_changes_nothing(room: Room) -> None:
    tokens = _tokens(room)
    with TestClient(Server([room]).app()) as client, \
            client.websocket_connect("/ws/" + tokens["law"]) as law:
        _next_view(law)
        for _ in range(BURST * 5):
            law.send_text(json.dumps({"ask": 9, "answer": "none"}))
        messages = [json.loads(law.receive_text())["message"] for _ in range(BURST + 1)]
    assert messages[:BURST] == [messages[0]] * BURST and "question 9" in messages[0]
    assert messages[BURST] == "Too many messages: wait a moment, then answer."
    assert room.session.decisions == []


def test_a_game_is_saved_as_it_goes_and_resumed_at_the_same_point(room: Room) -> None:
    tokens = _tokens(room)
    with TestClient(Server([room]).app()) as client, \
            client.websocket_connect("/ws/" + tokens["law"]) as law:
        _next_view(law)
        law.send_text(json.dumps({"ask": 1, "answer": "none"}))
        shown = _next_view(law)
    path = room.session.keeper.path
    assert read_save(path).decisions == [("law", "none")]
    again = resumed_room(path, [])
    with TestClient(Server([again]).app()) as client, \
            client.websocket_connect("/ws/" + _tokens(again)["law"]) as law:
        assert _next_view(law) == shown


def test_bots_play_their_seats_on_the_server(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    room = new_room("carchase", ["law=random"], [], seed=2)
    assert [role for role, _ in room.links()] == ["fugitive", None]
    with TestClient(Server([room]).app()) as client, \
            client.websocket_connect("/ws/" + _tokens(room)["fugitive"]) as fugitive:
        for _ in range(50):
            seen = _next_view(fugitive)
            if seen["question"] is not None:
                fugitive.send_text(json.dumps({"ask": seen["question"]["ask"],
                                               "answer": "none"}))
            if sum(who == "law" for who, _ in room.session.decisions) >= 2:
                break
    assert [who for who, _ in room.session.decisions].count("law") >= 2
    assert any("The Law" in line for line in seen["log"])


def test_a_bot_that_fails_stops_the_game_on_every_page_saved(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, agents_module: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    room = new_room("carchase", [f"law={agents_module}:Broken"], [], seed=2)
    tokens = _tokens(room)
    with TestClient(Server([room]).app()) as client, \
            client.websocket_connect("/ws/" + tokens["fugitive"]) as fugitive:
        seen = _next_view(fugitive)
        while room.stopped is None or seen["result"] is None:
            seen = _next_view(fugitive)
        # Only the role: the bot's question and error may quote what it alone knows.
        assert seen["result"] == ("The game stopped: the bot of The Law failed. It is saved; "
                                  "the server's output says why.")
        assert seen["question"] is None
        fugitive.send_text(json.dumps({"ask": 1, "answer": "none"}))
        assert _next_error(fugitive) == seen["result"]  # nothing more is taken
        with client.websocket_connect("/ws/" + tokens[None]) as spectator:
            assert _next_view(spectator)["result"] == seen["result"]
    assert read_save(room.session.keeper.path).decisions == room.session.decisions
    said = capsys.readouterr().err  # the server's terminal: the whole error
    assert f"the bot of law ({agents_module}:Broken) failed at the decision" in said
    assert "RuntimeError: broken on purpose" in said


def test_serve_says_what_is_wrong_with_its_command_line(
        capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    run = runner(capsys)
    code, _, err = run("serve")
    assert code == 1 and "name the PACK to serve, or a saved game with --resume" in err
    code, _, err = run("serve", "carchase", "--seat", "law=random", "--seat",
                       "fugitive=random")
    assert code == 1 and "every seat is a bot's: give at least one to a person" in err
    code, _, err = run("serve", "carchase", "--seat", "law=humn")
    assert code == 1 and "did you mean 'human'" in err
    code, _, err = run("serve", "--resume", "nothing.json")
    assert code == 1 and "nothing.json: no such save file" in err


def test_a_link_opens_a_bounded_number_of_pages(room: Room) -> None:
    token = _tokens(room)["law"]
    with TestClient(Server([room]).app()) as client, contextlib.ExitStack() as pages:
        for _ in range(PAGES_PER_LINK):
            _next_view(pages.enter_context(client.websocket_connect("/ws/" + token)))
        with pytest.raises(WebSocketDisconnect) as refused, \
                client.websocket_connect("/ws/" + token):
            pass
        assert refused.value.code == 1008
        _next_view(pages.enter_context(client.websocket_connect("/ws/" + _tokens(room)[None])))


def test_serve_prints_a_link_per_persons_seat_and_listens_on_this_machine(
        capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    served: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: served.append(options))
    code, out, _ = runner(capsys)("serve", "carchase", "--seat", "law=random", "--games", "2")
    assert code == 0 and served[0]["host"] == "127.0.0.1"
    assert served[0]["ws_max_size"] == MAX_MESSAGE  # a page cannot send a bigger frame
    links = re.findall(r"^  (The Fugitive|spectator): +http://127\.0\.0\.1:8000/play/(\S+)$",
                       out, re.MULTILINE)
    assert [who for who, _ in links] == ["The Fugitive", "spectator"] * 2
    assert len({token for _, token in links}) == 4 and \
        all(len(token) >= 24 for _, token in links)
    assert "The Law" not in out and len(list(tmp_path.glob("rulekit-carchase-*.json"))) == 2


def test_one_server_holds_several_games_each_page_in_its_own(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch
                                                              ) -> None:
    monkeypatch.chdir(tmp_path)
    rooms = [new_room("carchase", [], [], seed=seed) for seed in (1, 2)]
    with TestClient(Server(rooms).app()) as client, \
            client.websocket_connect("/ws/" + _tokens(rooms[0])["law"]) as first, \
            client.websocket_connect("/ws/" + _tokens(rooms[1])["law"]) as second:
        _next_view(first)
        _next_view(second)
        first.send_text(json.dumps({"ask": 1, "answer": "none"}))
        _next_view(first)
        second.send_text(json.dumps({"ask": 1, "answer": "none"}))
        shown = _next_view(second)["panels"]
    assert [room.session.decisions for room in rooms] == [[("law", "none")]] * 2
    assert shown == rooms[1].view("law")["panels"] != rooms[0].view("law")["panels"]


def test_a_phone_sized_page_gets_narrower_panels(room: Room) -> None:
    tokens = _tokens(room)
    with TestClient(Server([room]).app()) as client, \
            client.websocket_connect("/ws/" + tokens["law"]) as wide, \
            client.websocket_connect("/ws/" + tokens["law"] + "?narrow=1") as narrow:
        widths = [max(map(len, _next_view(page)["panels"].splitlines()))
                  for page in (wide, narrow)]
    assert widths[0] > 46 >= widths[1]
