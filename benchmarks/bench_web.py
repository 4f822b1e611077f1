"""The figures of ``rulekit serve`` on loopback: latency, many games at once, a kill and resume.

    python benchmarks/bench_web.py [--games 50] [--seconds 60]

1. **Latency**: two pages of one Car Chase game over real WebSockets; for each answer, the time
   from its send to the other page's new view (no bot: nothing thinks). Median and 95th
   percentile, in ms.
2. **Load**: ``--games`` games of Car Chase in one server, two pages each, all answering at
   random at once until every game ends or ``--seconds`` pass. The server's memory (RSS) per
   game, the answers accepted, and whether each room's decisions are exactly the answers its
   pages saw accepted (none lost, none twice).
3. **Kill and resume**: ``rulekit serve`` in a process of its own, killed (SIGKILL) while
   pages answer, then started again with ``--resume``; the decisions the save holds against
   the answers that reached the pages.

Nothing here is a pass/fail test: the script prints figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import uvicorn
import websockets

from rulekit.web import Room, Server, new_room
from rulekit.web.server import MAX_MESSAGE


def rss_mb() -> float:
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS")) / 1024


def pick(question: dict[str, Any], rand: random.Random) -> str:
    if question["kind"] == "one":
        return str(rand.choice(question["options"])["id"])
    return "+".join(item["id"] for item in question["items"][:question["min"]]) or "none"


def start(rooms: list[Room], port: int) -> uvicorn.Server:
    server = uvicorn.Server(uvicorn.Config(Server(rooms).app(), host="127.0.0.1", port=port,
                                           log_level="warning", ws_max_size=MAX_MESSAGE))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.02)
    return server


class Pages:
    """The pages of one game, answering at random; what they saw accepted."""

    def __init__(self, url: str, links: dict[str, str], seed: int) -> None:
        self.url, self.links, self.rand = url, links, random.Random(seed)
        self.asked: dict[str, int] = {}  # the last question each page was asked
        self.sent_at: float | None = None
        self.sender: str | None = None
        self.latencies: list[float] = []
        self.stop_after: int | None = None  # answers, all pages together

    async def play(self, role: str, deadline: float) -> None:
        async with websockets.connect(f"{self.url}/ws/{self.links[role]}") as socket:
            answered = 0
            while time.monotonic() < deadline:
                message = json.loads(await asyncio.wait_for(socket.recv(), deadline
                                                             - time.monotonic()))
                if message["type"] == "error":
                    continue  # a random pick refused: the next view asks again
                if message["type"] != "view":
                    continue
                if self.sent_at is not None and self.sender != role:
                    self.latencies.append(time.perf_counter() - self.sent_at)
                    self.sent_at = None
                question = message["question"]
                if message["result"] is not None or (self.stop_after is not None
                        and sum(self.asked.values()) >= self.stop_after):
                    return
                if question is not None and question["ask"] > answered:
                    answered = self.asked[role] = question["ask"]
                    self.sent_at, self.sender = time.perf_counter(), role
                    await socket.send(json.dumps({"ask": answered,
                                                  "answer": pick(question, self.rand)}))


async def _games(url: str, rooms: list[Room], seconds: float) -> list[Pages]:
    deadline = time.monotonic() + seconds
    pages = [Pages(url, {str(r): t for r, t in room.links() if r is not None}, i)
             for i, room in enumerate(rooms)]
    await asyncio.gather(*(p.play(role, deadline) for p in pages for role in p.links),
                         return_exceptions=True)
    return pages


def latency(port: int) -> None:
    rooms = [new_room("carchase", [], [], seed=seed) for seed in range(3)]
    server = start(rooms, port)
    pages = asyncio.run(_games(f"ws://127.0.0.1:{port}", rooms, 120))
    server.should_exit = True
    times = sorted(t * 1000 for p in pages for t in p.latencies)
    print(f"latency: {len(times)} answers to the other page: median "
          f"{statistics.median(times):.1f} ms, 95th percentile "
          f"{times[int(len(times) * 0.95)]:.1f} ms, max {times[-1]:.1f} ms")


def load(port: int, games: int, seconds: float) -> None:
    before = rss_mb()
    rooms = [new_room("carchase", [], [], seed=1000 + i) for i in range(games)]
    server = start(rooms, port)
    started = time.monotonic()
    pages = asyncio.run(_games(f"ws://127.0.0.1:{port}", rooms, seconds))
    took = time.monotonic() - started
    after = rss_mb()
    server.should_exit = True
    over = sum(room.over for room in rooms)
    decisions = sum(len(room.session.decisions) for room in rooms)
    exact = sum(1 for room, p in zip(rooms, pages, strict=True)
                if room.over and _asks(room) == p.asked)
    print(f"load: {games} games, {2 * games} pages, {over} ended in {took:.1f} s; "
          f"{decisions} decisions; memory {(after - before) / games:.2f} MB per game "
          f"(RSS {before:.0f} -> {after:.0f} MB); ended games whose seats took exactly one "
          f"decision per question their page was asked: {exact} of {games}")


def _asks(room: Room) -> dict[str, int]:
    """The decisions of each role: a page's last question is its number of decisions."""
    counts: dict[str, int] = {}
    for role, _ in room.session.decisions:
        counts[role] = counts.get(role, 0) + 1
    return counts


def kill_and_resume(port: int) -> None:
    folder = Path(tempfile.mkdtemp())
    save = folder / "game.json"
    command = [sys.executable, "-m", "rulekit", "serve", "carchase", "--seed", "4",
               "--port", str(port)]
    links = _serve(command, folder)
    pages = Pages(f"ws://127.0.0.1:{port}", links, 4)
    pages.stop_after = 15  # a game is some 28 answers: kill it midway
    asyncio.run(_games_until(pages, 10))
    os.kill(int(links["pid"]), signal.SIGKILL)
    saved = next(folder.glob("rulekit-carchase-*.json"))
    saved.rename(save)
    held = len(json.loads(save.read_text())["decisions"])
    seen = sum(pages.asked.values()) - len(pages.asked)  # the last question of each: open
    links = _serve([sys.executable, "-m", "rulekit", "serve", "--resume", str(save), "--port",
                    str(port)], folder)
    back = asyncio.run(_first_view(f"ws://127.0.0.1:{port}/ws/{links['law']}"))
    os.kill(int(links["pid"]), signal.SIGTERM)
    law = sum(1 for role, _ in json.loads(save.read_text())["decisions"] if role == "law")
    where = f"is asked its question {back}" if back else "is asked nothing (the other's turn)"
    print(f"kill and resume: the pages saw {seen} answers taken, the save holds {held} "
          f"decisions (lost: {max(0, seen - held)}); the resumed Law page {where} after "
          f"{law} decisions of the Law")


async def _first_view(url: str) -> object:
    async with websockets.connect(url) as socket:
        while (message := json.loads(await socket.recv()))["type"] != "view":
            pass
    return message["question"] and message["question"]["ask"]


def _serve(command: list[str], folder: Path) -> dict[str, str]:
    process = subprocess.Popen(command, cwd=folder, stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    links = {"pid": str(process.pid)}
    for line in process.stdout:
        found = re.search(r"(\S+):\s+http://\S+/play/(\S+)", line)
        if found and found.group(1) != "spectator":
            links[{"Law": "law", "Fugitive": "fugitive"}[found.group(1)]] = found.group(2)
        if line.startswith("Each link"):
            break
    time.sleep(1.5)  # uvicorn starts listening
    return links


async def _games_until(pages: Pages, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    await asyncio.gather(*(pages.play(role, deadline) for role in ("law", "fugitive")),
                         return_exceptions=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60)
    args = parser.parse_args()
    os.chdir(tempfile.mkdtemp())  # the games' save files
    latency(8811)
    load(8812, args.games, args.seconds)
    kill_and_resume(8813)


if __name__ == "__main__":
    main()
