"""Whole games played through the web server's pages, every byte each page receives kept."""

from __future__ import annotations

import json
import random
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from starlette.testclient import TestClient

from rulekit.web import Room, Server


@dataclass
class Recorded:
    """What one page received, in order, as sent."""

    role: str | None
    texts: list[str] = field(default_factory=list)

    def views(self) -> list[dict[str, Any]]:
        return [m for m in map(json.loads, self.texts) if m["type"] == "view"]


def pick(question: dict[str, Any], rand: random.Random, fewest: bool = False) -> str:
    """A random answer to a question as a page shows it; ``fewest`` items of a subset."""
    if question["kind"] == "one":
        return rand.choice(question["options"])["id"]
    count = question["min"] if fewest else rand.randint(question["min"], question["max"])
    chosen = {item["id"] for item in rand.sample(question["items"], count)}
    ids = [item["id"] for item in question["items"] if item["id"] in chosen]
    return "+".join(ids) or "none"


def play_pages(room: Room, seed: int = 0, limit: int = 2000) -> dict[str | None, Recorded]:
    """Play ``room`` to its end by its seats' pages, answering at random; what each received.

    The last role's page is a phone's, with narrower panels.
    """
    server = Server([room])
    records: dict[str | None, Recorded] = {}
    errors: list[str] = []
    with TestClient(server.app()) as client:
        threads = []
        for role, token in room.links():
            record = records[role] = Recorded(role)
            narrow = "?narrow=1" if role == room.game.roles[-1] else ""  # a phone
            socket = client.websocket_connect(f"/ws/{token}{narrow}")
            threads.append(threading.Thread(target=_page, daemon=True, args=(
                socket, record, random.Random(f"{seed}:{role}"), errors, limit)))
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
    assert not errors, errors[:3]
    return records


def _page(connect: Any, record: Recorded, rand: random.Random, errors: list[str],
          limit: int) -> None:
    question = None
    answered = 0
    refused = False
    sent = ""
    with connect as socket:
        for _ in range(limit):
            text = socket.receive_text()
            record.texts.append(text)
            message = json.loads(text)
            if message["type"] == "error" and message["message"].startswith("Too many"):
                time.sleep(1)  # answering at once, faster than a person: the rate bound
                socket.send_text(sent)
                continue
            if message["type"] == "error":
                if not message["message"].startswith("Not an answer") or question is None:
                    errors.append(message["message"])
                    return
                time.sleep(0.2)  # as a person would, and within the pages' message rate
                refused = True
            elif message["type"] == "view":
                if message["result"] is not None:
                    return
                question = message["question"]
                if question is None or question["ask"] <= answered:
                    continue
            else:
                continue
            if question is not None and record.role is not None:
                answered = question["ask"]
                sent = json.dumps({"ask": question["ask"],
                                   "answer": pick(question, rand, refused)})
                socket.send_text(sent)
                refused = False
