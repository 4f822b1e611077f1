"""A whole Car Chase game clicked through in headless Chromium: two players, a spectator.

The server runs in a thread (uvicorn on 127.0.0.1). Each player has a browser context of their
own, as two people on two machines would. Midway, one page is reloaded and must come back at
the same question. The spectator's page must show no card of either hand. Screenshots of the
main screens are saved in the test's temporary folder. Without Chromium the test is skipped.
"""

from __future__ import annotations

import random
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from rulekit.web import Room, Server, new_room

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not Path(CHROMIUM).exists(),
                       reason="no Chromium at /usr/bin/chromium (apt-get install chromium); "
                              "the browser tests need it"),
]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Room, str]]:
    monkeypatch.chdir(tmp_path)
    room = new_room("carchase", [], [], seed=21)
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(Server([room]).app(), host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    yield room, f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)


def _click_an_answer(page: Any, rand: random.Random) -> bool:
    """Click a legal-looking answer on ``page`` if it is asked something; whether it was."""
    buttons = page.locator("#options button:enabled")
    items = page.locator("#items button:enabled")
    if page.locator("#picker").is_visible() and items.count():
        for index in range(items.count()):  # start afresh: the last pick may have been refused
            if items.nth(index).get_attribute("aria-pressed") == "true":
                items.nth(index).click()
        low, high = (int(n) for n in page.locator("#picker").get_attribute("data-range")
                     .split())
        for index in rand.sample(range(items.count()), min(rand.randint(low, high), 1 + low)):
            items.nth(index).click()
        page.locator("#submit").click()
        return True
    if buttons.count():
        buttons.nth(rand.randrange(buttons.count())).click()
        return True
    return False


def test_a_whole_game_is_played_by_clicking(served: tuple[Room, str], tmp_path: Path) -> None:
    room, base = served
    links = {role: f"{base}/play/{token}" for role, token in room.links()}
    shots = tmp_path / "screenshots"
    shots.mkdir()
    rand = random.Random(5)
    with sync_api.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        pages = {}
        for role, link in links.items():
            size = {"width": 390, "height": 844} if role == "fugitive" else \
                {"width": 1280, "height": 900}
            pages[role] = browser.new_context(viewport=size).new_page()
            pages[role].goto(link)
        for page in pages.values():
            page.wait_for_function("document.getElementById('log') !== null && "
                                   "document.getElementById('heading').textContent !== "
                                   "'Connecting…'")
        pages["law"].screenshot(path=shots / "law-start.png", full_page=True)
        pages["fugitive"].screenshot(path=shots / "fugitive-phone.png", full_page=True)
        reloaded = False
        deadline = time.monotonic() + 60
        while room.session.state_now()["result"] is None:
            assert time.monotonic() < deadline, (
                len(room.session.decisions),
                {r: (p.locator("#prompt").text_content(), p.locator("#error").text_content(),
                     p.locator("#waiting").text_content()) for r, p in pages.items()})
            moved = False
            for role in ("law", "fugitive"):
                moved = _click_an_answer(pages[role], rand) or moved
            if len(room.session.decisions) > 10 and not reloaded:
                time.sleep(0.5)  # the answers clicked reach every page
                before = pages["law"].locator("#prompt").text_content()
                pages["law"].screenshot(path=shots / "law-midgame.png", full_page=True)
                pages["law"].reload()
                pages["law"].wait_for_function(
                    "document.getElementById('heading').textContent !== 'Connecting…'")
                assert pages["law"].locator("#prompt").text_content() == before
                pages["law"].screenshot(path=shots / "law-reloaded.png", full_page=True)
                reloaded = True
            if not moved:
                time.sleep(0.05)
        for page in pages.values():
            page.wait_for_function("!document.getElementById('result').hidden")
        watcher = pages[None]
        assert "Game over" in watcher.locator("#result").text_content()
        watcher.screenshot(path=shots / "spectator-end.png", full_page=True)
        pages["law"].screenshot(path=shots / "law-end.png", full_page=True)
        browser.close()
    assert reloaded
    assert len(list(shots.glob("*.png"))) == 6
