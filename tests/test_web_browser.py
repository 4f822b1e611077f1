"""Whole games clicked through in headless Chromium: two players and a spectator.

The server runs in a thread (uvicorn on 127.0.0.1). Each player has a browser context of their
own, as two people on two machines would; one of them has a phone-sized screen. Midway, one
page is reloaded and must come back at the same question, and the spectator's page must show
no card of either hand. Screenshots of the main screens are saved in the test's temporary
folder. Without Chromium the tests are skipped, saying why.
"""

from __future__ import annotations

import random
import shutil
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from rulekit.engine.observe import public_part
from rulekit.web import Room, Server, new_room

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
STALL = 60  # seconds without a decision taken: the pages stopped asking
sync_api = pytest.importorskip("playwright.sync_api",
                               reason="Playwright is not installed (pip install playwright)")

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not Path(CHROMIUM).exists(),
                       reason="no Chromium on the PATH or at /usr/bin/chromium (apt-get install "
                              "chromium): the browser tests need it"),
]

Serve = Callable[[str, list[str], int], tuple[Room, str]]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def serve(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Serve]:
    """Serves a new game of a pack on 127.0.0.1 for the test; its room and address."""
    monkeypatch.chdir(tmp_path)
    servers: list[tuple[uvicorn.Server, threading.Thread]] = []

    def start(pack: str, params: list[str], seed: int) -> tuple[Room, str]:
        room = new_room(pack, [], params, seed=seed)
        port = _free_port()
        server = uvicorn.Server(uvicorn.Config(Server([room]).app(), host="127.0.0.1",
                                               port=port, log_level="warning"))
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        servers.append((server, thread))
        while not server.started:
            time.sleep(0.05)
        return room, f"http://127.0.0.1:{port}"

    yield start
    for server, thread in servers:
        server.should_exit = True
        thread.join(10)


ASKED = """() => {
  const enabled = (selector) => document.querySelectorAll(selector + ":not(:disabled)").length;
  const picker = !document.getElementById("picker").hidden;
  return {picker, items: enabled("#items button"), submit: enabled("#submit"),
          options: enabled("#options button"), targets: document.querySelectorAll(
            "#map .target").length, range: document.getElementById("picker").dataset.range};
}"""  # what the page asks now, read at once


def _click_an_answer(page: Any, rand: random.Random) -> bool:
    """Click a legal-looking answer on ``page`` if it is asked something; whether it was.

    Half the time, a place is clicked on the map when the question offers places there.
    """
    asked = page.evaluate(ASKED)
    if asked["picker"] and (asked["items"] or asked["submit"]):
        items = page.locator("#items button")
        for index in range(asked["items"]):  # start afresh: the last pick may have been refused
            if items.nth(index).get_attribute("aria-pressed") == "true":
                items.nth(index).click()
        low, high = (int(n) for n in asked["range"].split())
        for index in rand.sample(range(asked["items"]), min(rand.randint(low, high), 1 + low)):
            items.nth(index).click()
        if page.locator("#submit:enabled").count():
            page.locator("#submit").click()
        return True
    if asked["targets"] and asked["options"] and rand.random() < 0.5:
        page.locator("#map .target").nth(rand.randrange(asked["targets"])).dispatch_event(
            "click")
        return True
    if asked["options"]:
        page.locator("#options button").nth(rand.randrange(asked["options"])).click()
        return True
    return False


def _hidden_names(room: Room) -> set[str]:
    """The names of the cards in piles no one but their owner sees, and nowhere public."""
    game = room.game
    state = room.session.state_now()
    public = public_part(game.layout, game.observe(state, game.roles[0]))
    cards = game.symbols.cards

    def names(zones: dict[str, Any]) -> set[str]:
        return {str(cards[card].get("name", card)) for data in zones.values()
                for card in data.get("cards", ()) if card in cards}

    seen = {key: game.observe(state, role)["zones"][key] for role in game.roles
            for key, data in public["zones"].items() if None in data.get("cards", [None])
            and "cards" in game.observe(state, role)["zones"][key]}
    return names(seen) - names(dict(public["zones"]))


def _connected(page: Any) -> None:
    page.wait_for_function("document.getElementById('heading').textContent !== 'Connecting…'")


def _play(room: Room, pages: dict[str | None, Any], midgame: Callable[[], None]) -> int:
    """Click answers on the seats' pages until the game ends; the number of decisions.

    The game fails if no answer is taken for a minute: a page that stopped asking.
    """
    rand = random.Random(5)
    done_midgame = False
    taken, since = 0, time.monotonic()
    while room.session.state_now()["result"] is None:
        if len(room.session.decisions) != taken:
            taken, since = len(room.session.decisions), time.monotonic()
        assert time.monotonic() < since + STALL, (
            len(room.session.decisions),
            {r: (p.locator("#prompt").text_content(), p.locator("#error").text_content(),
                 p.locator("#waiting").text_content()) for r, p in pages.items()})
        moved = False
        for role in room.game.roles:
            moved = _click_an_answer(pages[role], rand) or moved
        if len(room.session.decisions) > 10 and not done_midgame:
            midgame()
            done_midgame = True
        if not moved:
            time.sleep(0.05)
    for page in pages.values():
        page.wait_for_function("!document.getElementById('result').hidden")
    assert done_midgame
    return len(room.session.decisions)


def _open(browser: Any, links: dict[str | None, str], sizes: dict[str | None, dict[str, int]]
          ) -> dict[str | None, Any]:
    """A page per link, each in a browser context of its own (as on two machines)."""
    pages = {}
    for role, link in links.items():
        pages[role] = browser.new_context(viewport=sizes.get(role, DESKTOP)).new_page()
        pages[role].goto(link)
    for page in pages.values():
        _connected(page)
    return pages


def test_a_car_chase_game_is_played_by_clicking(serve: Serve, tmp_path: Path) -> None:
    room, base = serve("carchase", [], 21)
    links = {role: f"{base}/play/{token}" for role, token in room.links()}
    shots = tmp_path / "screenshots"
    shots.mkdir()
    with sync_api.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        pages = _open(browser, links, {"fugitive": PHONE})
        law, watcher = pages["law"], pages[None]
        law.screenshot(path=shots / "law-start.png", full_page=True)
        pages["fugitive"].screenshot(path=shots / "fugitive-phone.png", full_page=True)
        assert law.locator("#panels").text_content().count("Your hand") >= 1

        def midgame() -> None:
            time.sleep(0.5)  # the answers clicked reach every page
            before = law.locator("#ask").inner_text()
            law.screenshot(path=shots / "law-midgame.png", full_page=True)
            law.reload()
            _connected(law)
            assert law.locator("#ask").inner_text() == before
            law.screenshot(path=shots / "law-reloaded.png", full_page=True)
            shown = watcher.locator("#table").inner_text() + watcher.locator("#ask").inner_text()
            hidden = _hidden_names(room)
            assert hidden and "Your hand" not in shown
            assert [name for name in hidden if name in shown] == []
            watcher.screenshot(path=shots / "spectator-midgame.png", full_page=True)

        assert _play(room, pages, midgame) > 20
        assert "Game over" in watcher.locator("#result").text_content()
        watcher.screenshot(path=shots / "spectator-end.png", full_page=True)
        law.screenshot(path=shots / "law-end.png", full_page=True)
        browser.close()
    assert len(list(shots.glob("*.png"))) == 7


def test_a_red_notice_game_is_played_by_clicking(serve: Serve, tmp_path: Path) -> None:
    room, base = serve("rednotice", ["goal=100000"], 3)
    links = {role: f"{base}/play/{token}" for role, token in room.links()}
    shots = tmp_path / "screenshots"
    shots.mkdir()
    hunter = room.game.roles[1]
    with sync_api.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        pages = _open(browser, links, {hunter: PHONE})

        def midgame() -> None:
            time.sleep(0.5)
            pages[hunter].screenshot(path=shots / "hunter-phone.png", full_page=True)
            pages[room.game.roles[0]].screenshot(path=shots / "forger.png", full_page=True)
            assert pages[hunter].locator("#map .maybe").count() >= 1

        assert _play(room, pages, midgame) > 20
        assert "Game over" in pages[None].locator("#result").text_content()
        pages[None].screenshot(path=shots / "spectator-end.png", full_page=True)
        browser.close()
    assert len(list(shots.glob("*.png"))) == 3
