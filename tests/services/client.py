"""A test player: the HTTP lobby and one WebSocket, as a browser would use them."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
import secrets
from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx
import websockets
from websockets.asyncio.client import ClientConnection

# How long a test waits for a frame that must come: only a backstop against a hang, far above
# any answer time, so a loaded machine makes a test slower, never red.
PATIENCE = 60.0


class Player:
    def __init__(self, base: str, name: str) -> None:
        self.base = base
        self.name = name
        self.token = ""
        self.id = ""
        self.ws: ClientConnection | None = None
        self.frames: list[dict[str, Any]] = []  # every frame received, for leak checks
        self.views: dict[str, dict[str, Any]] = {}
        self.answers: dict[str, dict[str, Any]] = {}
        self.chat: list[dict[str, Any]] = []
        self._ids = itertools.count(1)
        self._session = secrets.token_hex(3)  # ids stay unique across reconnects
        self._reader: asyncio.Task[None] | None = None
        self._changed = asyncio.Condition()

    async def sign_up(self) -> None:
        async with httpx.AsyncClient(base_url=self.base) as http:
            reply = await http.post("/api/players", json={"name": self.name})
            reply.raise_for_status()
            data = reply.json()
        self.token, self.id = data["token"], data["id"]

    async def http(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        headers = {"authorization": f"Bearer {self.token}"}
        async with httpx.AsyncClient(base_url=self.base, headers=headers) as http:
            return await http.request(method, path, **kwargs)

    async def connect(self) -> dict[str, Any]:
        url = self.base.replace("http", "ws", 1) + f"/ws?token={self.token}"
        self.ws = await websockets.connect(url, max_size=2**22)
        self._reader = asyncio.create_task(self._read())
        welcome: dict[str, Any] = await self.wait(lambda: self._last("welcome"))
        return welcome

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(BaseException):
                await self._reader

    def _last(self, kind: str) -> dict[str, Any] | None:
        return next((f for f in reversed(self.frames) if f["type"] == kind), None)

    async def _read(self) -> None:
        assert self.ws is not None
        with contextlib.suppress(websockets.ConnectionClosed):
            async for raw in self.ws:
                frame = json.loads(raw)
                self.frames.append(frame)
                kind = frame["type"]
                if kind in ("snapshot", "update"):
                    self.views[frame["table"]] = frame["view"]
                elif kind in ("ack", "reject") and frame.get("id"):
                    self.answers[frame["id"]] = frame
                elif kind == "chat":
                    self.chat.append(frame)
                async with self._changed:
                    self._changed.notify_all()

    async def wait(self, found: Callable[[], Any], within: float = PATIENCE) -> Any:
        async def until() -> Any:
            # Wakes on this player's frames, and polls for conditions on other players' views.
            async with self._changed:
                while not (result := found()):
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._changed.wait(), 0.05)
                return result

        return await asyncio.wait_for(until(), within)

    async def until(
        self, table: str, test: Callable[[dict[str, Any]], bool], within: float = PATIENCE
    ) -> dict[str, Any]:
        """This player's view of ``table`` once ``test`` holds for it."""

        def found() -> dict[str, Any] | None:
            view = self.views.get(table)
            return view if view is not None and test(view) else None

        view: dict[str, Any] = await self.wait(found, within)
        return view

    async def send(self, message: dict[str, Any]) -> str:
        assert self.ws is not None
        message.setdefault("id", f"{self._session}-{next(self._ids)}")
        await self.ws.send(json.dumps(message))
        return str(message["id"])

    async def request(self, message: dict[str, Any], within: float = PATIENCE) -> dict[str, Any]:
        """Send and wait for the ack or reject."""
        client_id = await self.send(message)
        answer: dict[str, Any] = await self.wait(lambda: self.answers.get(client_id), within)
        return answer

    async def watch(self, table: str) -> dict[str, Any]:
        await self.request({"type": "watch", "table": table})
        view: dict[str, Any] = await self.wait(lambda: self.views.get(table))
        return view

    async def act(
        self, table: str, action: dict[str, Any], within: float = PATIENCE
    ) -> dict[str, Any]:
        seq = self.views[table]["seq"] if table in self.views else 0
        message = {"type": "act", "table": table, "seq": seq, "action": action}
        return await self.request(message, within)

    def my_turn(self, table: str) -> bool:
        view = self.views.get(table)
        return bool(view and view["seat"] is not None and view["seat"] in view["to_act"])

    def random_option(self, table: str, rng: random.Random) -> dict[str, Any] | None:
        view = self.views[table]
        options = [o["action"] for o in view["options"] if o["legal"]]
        return rng.choice(options) if options else None


async def registered(base: str, name: str) -> Player:
    """A player signed up over HTTP, with no WebSocket yet."""
    player = Player(base, name)
    await player.sign_up()
    return player


@contextlib.asynccontextmanager
async def signed_up(base: str, *names: str) -> AsyncIterator[list[Player]]:
    """Players signed up and connected, in the order named; closed on the way out."""
    made = [Player(base, name) for name in names]
    try:
        for player in made:
            await player.sign_up()
            await player.connect()
        yield made
    finally:
        for player in made:
            await player.close()
