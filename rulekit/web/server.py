"""The web server: one WebSocket per page; an unknown token gets 403 and nothing else."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator, Coroutine, Iterable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import anyio
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from rulekit.web.rooms import Refused, Room

MAX_MESSAGE = 4096  # bytes of one message from a page; uvicorn refuses bigger frames
RATE = 5.0  # messages a page may send per second, on average
BURST = 20  # messages a page may send at once
POLICY_VIOLATION = 1008  # the WebSocket close code for a refused link
PAGES_PER_LINK = 8  # open pages of one link at once: tabs, phones, a reload


def static_folder() -> Path:
    """The page's HTML, CSS and JavaScript, shipped in the package."""
    return Path(str(resources.files("rulekit.web") / "static"))


@dataclass(eq=False)
class Page:
    """One open page: its socket, its seat, what it was last sent, its message budget."""

    socket: WebSocket
    role: str | None
    narrow: bool = False  # a phone-sized screen: narrower panels
    sent: str | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    budget: float = BURST
    checked: float = field(default_factory=time.monotonic)
    warned: float = 0.0

    def spend(self) -> bool:
        """Whether the page may send one more message now."""
        now = time.monotonic()
        self.budget = min(BURST, self.budget + (now - self.checked) * RATE)
        self.checked = now
        if self.budget < 1:
            return False
        self.budget -= 1
        return True


async def _forbidden(request: Request) -> Response:
    """403 and nothing else: a wrong or missing token learns nothing."""
    return Response(status_code=403)


class Server:
    """The rooms served, by token, and their open pages."""

    def __init__(self, rooms: Iterable[Room] = ()) -> None:
        self.rooms: list[Room] = []
        self.by_token: dict[str, Room] = {}
        self.pages: dict[int, set[Page]] = {}
        self.tasks: set[asyncio.Task[None]] = set()
        for room in rooms:
            self.add(room)

    def add(self, room: Room) -> None:
        self.rooms.append(room)
        self.pages[id(room)] = set()
        for token in room.tokens:
            self.by_token[token] = room

    def app(self) -> Starlette:
        """The ASGI application."""
        return Starlette(routes=[
            Route("/play/{token}", self.page),
            WebSocketRoute("/ws/{token}", self.socket),
            Mount("/static", StaticFiles(directory=static_folder()), name="static"),
            Route("/{rest:path}", _forbidden),
        ], lifespan=self._lifespan)

    @contextlib.asynccontextmanager
    async def _lifespan(self, app: Starlette) -> AsyncIterator[None]:
        for room in self.rooms:
            self._spawn(self._bots(room))
        yield
        for task in self.tasks:
            task.cancel()

    async def page(self, request: Request) -> Response:
        if request.path_params["token"] not in self.by_token:
            return await _forbidden(request)
        return FileResponse(static_folder() / "index.html",
                            headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"})

    async def socket(self, socket: WebSocket) -> None:
        token = socket.path_params["token"]
        room = self.by_token.get(token)
        open_pages = sum(page.role == room.tokens[token] for page in self.pages[id(room)]) \
            if room is not None else 0
        if room is None or open_pages >= PAGES_PER_LINK:
            await socket.close(POLICY_VIOLATION)  # before accept: an HTTP 403
            return
        await socket.accept()
        page = Page(socket, room.tokens[token], socket.query_params.get("narrow") == "1")
        self.pages[id(room)].add(page)
        try:
            await socket.send_text(json.dumps(room.board))
            await self._show(room, page)
            await self._listen(room, page)
        except WebSocketDisconnect:
            pass
        finally:
            self.pages[id(room)].discard(page)

    async def _listen(self, room: Room, page: Page) -> None:
        while True:
            message = await page.socket.receive()
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text")
            if not page.spend():
                await self._refuse(page, "Too many messages: wait a moment, then answer.")
                continue
            if page.role is None:
                await self._refuse(page, "A spectator's page answers nothing.")
                continue
            if text is None:
                await self._refuse(page, 'Send answers as text: {"ask": N, "answer": ID}.')
                continue
            try:
                await asyncio.to_thread(room.answer, page.role, text)
            except Refused as exc:
                await self._refuse(page, str(exc))
                continue
            self._spawn(self.show_all(room))
            self._spawn(self._bots(room))

    async def _refuse(self, page: Page, message: str) -> None:
        now = time.monotonic()
        if message.startswith("Too many") and now - page.warned < 1:
            return  # a flood is told once a second
        page.warned = now if message.startswith("Too many") else page.warned
        await page.socket.send_text(json.dumps({"type": "error", "message": message}))

    async def _show(self, room: Room, page: Page) -> None:
        """Send ``page`` its view, if it changed since it was last sent."""
        async with page.lock:
            view = await asyncio.to_thread(room.view, page.role, page.narrow)
            text = json.dumps(view, ensure_ascii=False)
            if text != page.sent:
                page.sent = text
                await page.socket.send_text(text)

    async def show_all(self, room: Room) -> None:
        """Send each open page of ``room`` its new view."""
        for page in list(self.pages[id(room)]):
            with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError,
                                     anyio.ClosedResourceError, anyio.BrokenResourceError):
                await self._show(room, page)

    def _spawn(self, work: Coroutine[None, None, None]) -> None:
        """Run ``work`` on its own: a page that leaves does not cut it short."""
        task = asyncio.get_running_loop().create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _bots(self, room: Room) -> None:
        while await asyncio.to_thread(room.play_bots):
            await self.show_all(room)
