"""Simulated people: each signs up, holds one WebSocket to the gateway, and plays its seat the
way a person would (a legal option, some time after its turn comes), timing every answer."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import websockets
from websockets.asyncio.client import ClientConnection

RESEND_AFTER = 5.0  # seconds without an answer before the same message goes again
# "Applied already": the answer to a resent message, or to one the broker delivered twice
# because the table's worker lost its shard between applying it and acknowledging it.
QUIET_CODES = ("duplicate",)
# The gateway refuses a socket's messages beyond 30 a second (docs/protocol.md): even at full
# pace a person stays under it, as a real client must.
MESSAGES_PER_SECOND = 25
# After a refusal the same view is tried again only this much later: a refusal answered at once
# on the same view would be refused again, and feed itself.
RETRY_AFTER = 0.5


@dataclass
class Tally:
    """What every simulated person saw, added up."""

    sent: int = 0  # commands (first sendings, not resendings)
    resent: int = 0
    latencies: list[float] = field(default_factory=list)  # command -> own view, seconds
    errors: Counter[str] = field(default_factory=Counter)
    acked: set[str] = field(default_factory=set)  # request ids the gateway acknowledged
    duplicates: set[str] = field(default_factory=set)  # answered "applied already"
    hands: int = 0

    @classmethod
    def added(cls, tallies: Iterable[Tally]) -> Tally:
        """The figures of several tallies together (the games of a mix)."""
        total = cls()
        for tally in tallies:
            total.sent += tally.sent
            total.resent += tally.resent
            total.latencies += tally.latencies
            total.errors += tally.errors
            total.acked |= tally.acked
            total.duplicates |= tally.duplicates
            total.hands += tally.hands
        return total

    def new_window(self) -> None:
        """Count figures from now on (what must hold for the whole run is kept)."""
        self.sent, self.resent, self.hands = 0, 0, 0
        self.latencies = []


@dataclass
class Sent:
    message: dict[str, Any]
    at: float
    first_at: float


@dataclass(eq=False)
class Person:
    base: str
    name: str
    tally: Tally
    rng: random.Random
    pace: tuple[float, float]
    hand_number: str = "hand_no"  # the field of this game's views that numbers its hands
    id: str = field(init=False, default="")
    token: str = field(init=False, default="")
    table: str = field(init=False, default="")
    view: dict[str, Any] | None = field(init=False, default=None)
    view_at: float = field(init=False, default=0.0)
    acting: bool = field(init=False, default=True)
    pending: dict[str, Sent] = field(init=False, default_factory=dict)
    _answers: dict[str, asyncio.Future[dict[str, Any]]] = field(init=False, default_factory=dict)
    _ws: ClientConnection | None = field(init=False, default=None)
    _reader: asyncio.Task[None] | None = field(init=False, default=None)
    _turn: asyncio.Task[None] | None = field(init=False, default=None)
    _ids: Iterator[int] = field(init=False, default_factory=lambda: itertools.count(1))
    _seen: asyncio.Event = field(init=False, default_factory=asyncio.Event)
    _next_send_at: float = field(init=False, default=0.0)
    _refused: tuple[int, float] | None = field(
        init=False, default=None
    )  # (seq refused at, when to try it again)

    async def sign_up(self, http: httpx.AsyncClient) -> None:
        reply = await http.post(f"{self.base}/api/players", json={"name": self.name})
        reply.raise_for_status()
        data = reply.json()
        self.id, self.token = data["id"], data["token"]

    async def connect(self) -> None:
        url = self.base.replace("http", "ws", 1) + f"/ws?token={self.token}"
        # Like a browser: offers permessage-deflate, and sends no keepalive pings of its own (the
        # gateway pings idle sockets).
        self._ws = await websockets.connect(
            url, max_size=2**22, compression="deflate", ping_interval=None
        )
        self._reader = asyncio.create_task(self._read())

    async def close(self) -> None:
        self.acting = False
        for task in (self._turn, self._reader):
            if task is not None:
                task.cancel()
        if self._ws is not None:
            await self._ws.close()

    async def request(self, message: dict[str, Any], within: float = 30.0) -> dict[str, Any]:
        """Send a lobby message and wait for its answer (setting a table up)."""
        client_id = f"{self.name}-{next(self._ids)}"
        answer = asyncio.get_running_loop().create_future()
        self._answers[client_id] = answer
        await self._send({**message, "id": client_id})
        return await asyncio.wait_for(answer, within)

    async def until(
        self, test: Callable[[dict[str, Any]], bool], within: float = 30.0
    ) -> dict[str, Any]:
        """This person's view of their table, once ``test`` holds for it."""
        async with asyncio.timeout(within):
            while self.view is None or not test(self.view):
                self._seen.clear()
                await self._seen.wait()
        return self.view

    async def _send(self, message: dict[str, Any]) -> None:
        assert self._ws is not None
        await self._ws.send(json.dumps(message))

    async def _read(self) -> None:
        assert self._ws is not None
        try:
            async for raw in self._ws:
                self._receive(json.loads(raw), time.perf_counter())
        except websockets.ConnectionClosed:
            pass
        if self.acting:
            self.tally.errors["disconnected"] += 1

    def _receive(self, frame: dict[str, Any], now: float) -> None:
        kind = frame["type"]
        if kind in ("snapshot", "update"):
            if frame["table"] == self.table:
                self._see(frame["view"], now)
        elif kind in ("ack", "reject"):
            client_id = frame.get("id") or ""
            answer = self._answers.pop(client_id, None)
            if answer is not None and not answer.done():
                answer.set_result(frame)
            sent = self.pending.pop(client_id, None)
            if sent is not None:
                self._answered(client_id, sent, frame, now)

    def _see(self, view: dict[str, Any], now: float) -> None:
        previous = self.view
        self.view, self.view_at = view, now
        self._seen.set()
        if previous is not None and view["seat"] == 0 and self._dealt(previous, view):
            self.tally.hands += 1
        self._maybe_act()

    def _dealt(self, previous: dict[str, Any], view: dict[str, Any]) -> bool:
        """Whether ``view`` shows a hand dealt since ``previous``: a later hand of the game, or
        a hand of a later game (whose numbers start again, perhaps below the last game's)."""
        number = self.hand_number
        hand = (view["game_no"], view[number])
        return view[number] > 0 and hand > (previous["game_no"], previous[number])

    def _answered(self, client_id: str, sent: Sent, frame: dict[str, Any], now: float) -> None:
        request_id = f"{self.id}/{client_id}"
        if frame["type"] == "ack":
            self.tally.acked.add(request_id)
            # The gateway pushes the resulting view just before the ack, on the same socket.
            seen = self.view_at if self.view_at >= sent.at else now
            if sent.at == sent.first_at:
                self.tally.latencies.append(seen - sent.at)
        elif frame["code"] in QUIET_CODES:
            # The table sends the table as it stands next: act on that, not on this view.
            self.tally.duplicates.add(request_id)
            return
        else:
            self.tally.errors[frame["code"]] += 1
            retry_at = now + RETRY_AFTER
            self._refused = (sent.message["seq"], retry_at)
            asyncio.get_running_loop().call_later(RETRY_AFTER, self._maybe_act)
        self._maybe_act()

    def _maybe_act(self) -> None:
        view = self.view
        if (
            not self.acting
            or view is None
            or self.pending
            or (self._turn is not None and not self._turn.done())
        ):
            return
        if self._refused is not None:
            seq, retry_at = self._refused
            if view["seq"] == seq and time.perf_counter() < retry_at:
                return  # a later call (or the next view) looks again
            self._refused = None
        if view["seat"] is not None and view["seat"] in view["to_act"]:
            self._turn = asyncio.get_running_loop().create_task(self._act(view["seq"]))
        elif view["phase"] == "ended" and view["seat"] == view["host"]:
            self._turn = asyncio.get_running_loop().create_task(self._start(view["seq"]))

    async def _think(self) -> None:
        """A person's pause before acting: some thought, and never faster than the gateway
        allows."""
        allowed_in = self._next_send_at - time.perf_counter()
        await asyncio.sleep(max(self.rng.uniform(*self.pace), allowed_in))

    async def _act(self, seq: int) -> None:
        await self._think()
        view = self.view
        if not self.acting or view is None or view["seq"] != seq:
            self._reconsider()
            return
        options = [o["action"] for o in view["options"] if o["legal"]]
        ready = [a for a in options if a["kind"] == "ready"]
        choices = ready or [a for a in options if a["kind"] != "skip_hand"]
        if choices:
            await self._command(self.rng.choice(choices), seq)

    async def _start(self, seq: int) -> None:
        await self._think()
        if self.acting and self.view is not None and self.view["seq"] == seq:
            await self._command({"kind": "start_game"}, seq)
        else:
            self._reconsider()

    def _reconsider(self) -> None:
        """The table moved while this person thought: look at it again once this turn's task
        is over (views that arrived meanwhile found it still running, and let it be)."""
        asyncio.get_running_loop().call_soon(self._maybe_act)

    async def start_game(self) -> None:
        await self._command({"kind": "start_game"}, self.view["seq"] if self.view else 0)

    async def _command(self, action: dict[str, Any], seq: int) -> None:
        self._next_send_at = time.perf_counter() + 1 / MESSAGES_PER_SECOND
        client_id = f"{self.name}-{next(self._ids)}"
        message = {"type": "act", "id": client_id, "table": self.table, "seq": seq}
        message["action"] = action
        now = time.perf_counter()
        self.pending[client_id] = Sent(message, now, now)
        self.tally.sent += 1
        await self._send(message)

    async def resend_overdue(self, now: float) -> None:
        """A message unanswered for a while goes again, unchanged (the table applies it once)."""
        for sent in list(self.pending.values()):
            if now - sent.at > RESEND_AFTER:
                sent.at = now
                self.tally.resent += 1
                with contextlib.suppress(websockets.ConnectionClosed):
                    await self._send(sent.message)

    async def settle(self, within: float) -> None:
        """Stop acting and wait for the answers still due."""
        self.acting = False
        if self._turn is not None:
            self._turn.cancel()
        deadline = time.perf_counter() + within
        while self.pending and time.perf_counter() < deadline:
            await self.resend_overdue(time.perf_counter())
            await asyncio.sleep(0.1)
