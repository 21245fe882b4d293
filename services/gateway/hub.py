"""The gateway's side of the bus: which sockets watch which tables, and what each receives.

Each gateway process has one exclusive updates queue; it binds a table's routing key while any
of its sockets watches the table. An update carries every seated player's own view and the
spectators' view: each socket gets exactly its player's view (or the spectators'), never
another seat's. Outcomes of requests go back to the socket that sent them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from pydantic import ValidationError

from services.gateway import protocol as p
from services.gateway.identity import Identity
from services.gateway.metrics import GatewayMetrics
from shared import messages as m
from shared.bus import Bus, UpdatesQueue

log = logging.getLogger("swick.gateway")

OUTBOX_LIMIT = 512
POLICY_VIOLATION = 1008  # floods, slow readers
REPLACED = 4409  # the player opened another socket: the newer one wins
# A person's request goes to the broker transient and unconfirmed: one without an answer is
# sent again (the table applies a request id once) this often, and given up after a while.
RESEND_AFTER = 3.0
GIVE_UP_AFTER = 30.0


@dataclass(eq=False)
class Connection:
    """One player's socket: what it watches, what it last saw, and its queue of frames."""

    player: Identity
    outbox: asyncio.Queue[str | None] = field(default_factory=lambda: asyncio.Queue(OUTBOX_LIMIT))
    seen: dict[str, int] = field(default_factory=dict)  # table -> last seq sent
    closed: bool = False
    close_code: int = POLICY_VIOLATION
    close_reason: str = "closed by the server"
    # Ends the connection at once, not behind what is queued (see ``transport``), if the
    # server offers it.
    cut: Callable[[int, str], None] | None = None
    # Writes a frame at once if the socket takes it (see ``transport``), if the server offers it.
    write: Callable[[str], bool] | None = None
    sending: bool = False  # the writer task holds a frame it is sending

    def send(self, message: p.ServerMessage) -> None:
        self.send_text(message.model_dump_json())

    def send_text(self, frame: str) -> None:
        if self.closed:
            return
        if (
            self.write is not None
            and not self.sending
            and self.outbox.empty()  # nothing to overtake
            and self.write(frame)
        ):
            return
        try:
            self.outbox.put_nowait(frame)
        except asyncio.QueueFull:
            log.warning("%s reads too slowly: cutting the connection with 1008", self.player.id)
            while not self.outbox.empty():
                self.outbox.get_nowait()
            self.close(POLICY_VIOLATION, "reads too slowly")
            if self.cut is not None:
                self.cut(POLICY_VIOLATION, "reads too slowly")

    def close(self, code: int = POLICY_VIOLATION, reason: str = "closed by the server") -> None:
        """No more frames: the writer sends what is queued, then closes the socket."""
        if not self.closed:
            self.closed = True
            self.close_code, self.close_reason = code, reason
            with contextlib.suppress(asyncio.QueueFull):
                self.outbox.put_nowait(None)


@dataclass(eq=False)
class Waiting:
    """A person's request on its way to a table, until the table answers it."""

    conn: Connection
    client_id: str
    table_id: str
    body: bytes
    received: float
    sent: float


@dataclass(eq=False)
class Hub:
    bus: Bus
    metrics: GatewayMetrics
    clock: Callable[[], float] = time.perf_counter
    watchers: dict[str, set[Connection]] = field(init=False, default_factory=dict)
    requests: dict[str, Waiting] = field(init=False, default_factory=dict)  # by request id
    # request id -> its outcome, for a sender waiting for it (the lobby's table creation)
    awaited: dict[str, asyncio.Future[m.Outcome]] = field(init=False, default_factory=dict)
    # tables bound for awaited outcomes: how many waits
    _held: dict[str, int] = field(init=False, default_factory=dict)
    _queue: UpdatesQueue | None = field(init=False, default=None)
    _bound: set[str] = field(init=False, default_factory=set)
    _resyncing: asyncio.Task[None] | None = field(init=False, default=None)
    ready: asyncio.Event = field(init=False, default_factory=asyncio.Event)

    async def run(self) -> None:
        """Subscribe to the updates of the watched tables and hand them out; ready while
        subscribed. Raises ``ConnectionError`` if the broker ends the subscription: run it
        again (supervised) to subscribe afresh."""
        if self._queue is None:
            self.bus.on_reconnect(self._resync)
        self._queue = await self.bus.updates_queue()
        self._bound.clear()
        for table_id in list(self.watchers):
            await self._queue.watch(table_id)
            self._bound.add(table_id)
        self.ready.set()
        try:
            async with self._queue.messages() as deliveries:
                async for delivery in deliveries:
                    try:
                        if delivery.body.startswith(m.BUNDLE_START):
                            for update in m.unpack(delivery.body):
                                self.dispatch(update)
                        else:
                            self.dispatch(m.UPDATE.validate_json(delivery.body))
                    except ValidationError:
                        log.warning("dropped an update that does not parse")
        finally:
            self.ready.clear()
        raise ConnectionError("the broker ended the subscription to the updates")

    def _resync(self) -> None:
        """After the broker connection came back, updates may have been missed: ask every
        watched table for a fresh snapshot; requests may have been lost: send them again."""
        self._resyncing = asyncio.get_running_loop().create_task(self._sync_all())

    async def _sync_all(self) -> None:
        await self.resend(overdue_only=False)
        for table_id in list(self.watchers):
            sync = m.Sync(table_id=table_id, request_id=f"resync-{secrets.token_hex(4)}")
            await self.bus.request(table_id, sync.model_dump_json().encode())

    async def watch(self, conn: Connection, table_id: str) -> None:
        await self.ready.wait()
        self.watchers.setdefault(table_id, set()).add(conn)
        if table_id not in self._bound and self._queue is not None:
            await self._queue.watch(table_id)
            self._bound.add(table_id)

    async def unwatch(self, conn: Connection, table_id: str) -> None:
        watchers = self.watchers.get(table_id)
        if watchers is None:
            return
        watchers.discard(conn)
        conn.seen.pop(table_id, None)
        if not watchers:
            del self.watchers[table_id]
            await self._unbind_unused(table_id)

    async def _unbind_unused(self, table_id: str) -> None:
        if table_id in self.watchers or table_id in self._held:
            return
        if table_id in self._bound and self._queue is not None:
            self._bound.discard(table_id)
            with contextlib.suppress(Exception):
                await self._queue.unwatch(table_id)

    async def outcome_of(
        self,
        table_id: str,
        request_id: str,
        send: Callable[[], Awaitable[None]],
        within: float,
    ) -> m.Outcome | None:
        """``send`` a request, then wait for its table's outcome; ``None`` if none came within
        ``within`` seconds. The table's updates are bound before sending, so none is missed."""
        await self.ready.wait()
        future: asyncio.Future[m.Outcome] = asyncio.get_running_loop().create_future()
        self.awaited[request_id] = future
        self._held[table_id] = self._held.get(table_id, 0) + 1
        try:
            if table_id not in self._bound and self._queue is not None:
                await self._queue.watch(table_id)
                self._bound.add(table_id)
            await send()
            try:
                return await asyncio.wait_for(future, within)
            except TimeoutError:
                return None
        finally:
            self.awaited.pop(request_id, None)
            self._held[table_id] -= 1
            if not self._held[table_id]:
                del self._held[table_id]
                await self._unbind_unused(table_id)

    async def forget(self, conn: Connection) -> None:
        for table_id in list(conn.seen) + [t for t, w in self.watchers.items() if conn in w]:
            await self.unwatch(conn, table_id)
        for request_id, waiting in list(self.requests.items()):
            if waiting.conn is conn:
                del self.requests[request_id]

    async def send(
        self, request_id: str, conn: Connection, client_id: str, table_id: str, body: bytes
    ) -> None:
        """Send a person's request to its table; its outcome answers ``client_id``."""
        now = self.clock()
        self.requests[request_id] = Waiting(conn, client_id, table_id, body, now, now)
        try:
            await self.bus.send(table_id, body)
        except BaseException:
            self.requests.pop(request_id, None)
            raise

    async def resend_overdue(self) -> None:
        while True:
            await asyncio.sleep(RESEND_AFTER / 3)
            await self.resend()

    async def resend(self, *, overdue_only: bool = True) -> None:
        """Send again the requests without an answer (those unanswered for ``RESEND_AFTER``,
        or all of them after the broker connection came back); refuse those unanswered for
        ``GIVE_UP_AFTER``."""
        now = self.clock()
        for request_id, waiting in list(self.requests.items()):
            if now - waiting.received >= GIVE_UP_AFTER:
                del self.requests[request_id]
                log.warning("gave up on a request", extra={"request": request_id})
                waiting.conn.send(
                    p.Reject(
                        id=waiting.client_id,
                        code="unavailable",
                        message="The table did not answer: look again, and act again",
                    )
                )
            elif not overdue_only or now - waiting.sent >= RESEND_AFTER:
                waiting.sent = now
                self.metrics.resent.inc()
                try:
                    await self.bus.send(waiting.table_id, waiting.body)
                except ConnectionError:
                    return  # the broker is away: the next round tries again

    def dispatch(self, update: m.Update) -> None:
        if isinstance(update, m.TableUpdate):
            self._views(update)
            if update.outcome is not None:
                self._answer(update.outcome)
        elif isinstance(update, m.Refusal):
            self._answer(update.outcome)
        else:
            line = p.ChatLine(
                table=update.table_id,
                id=update.id,
                player=update.player_id,
                name=update.name,
                text=update.text,
                at=update.at,
            )
            for conn in self.watchers.get(update.table_id, ()):
                conn.send(line)

    def _views(self, update: m.TableUpdate) -> None:
        """Send each watcher its view: the next ``seq`` as an update, anything else whole."""
        for conn in self.watchers.get(update.table_id, ()):
            view = update.views.get(conn.player.id, update.spectator)
            seen = conn.seen.get(update.table_id)
            asked = update.snapshot_for in (conn.player.id, "*")
            if seen is not None and update.seq == seen + 1:
                conn.send_text(p.view_frame("update", update.table_id, update.seq, view))
            elif seen is None or update.seq > seen or (asked and update.seq == seen):
                conn.send_text(p.view_frame("snapshot", update.table_id, update.seq, view))
            else:
                continue
            conn.seen[update.table_id] = update.seq

    def _answer(self, outcome: m.Outcome) -> None:
        awaited = self.awaited.pop(outcome.request_id, None)
        if awaited is not None and not awaited.done():
            awaited.set_result(outcome)
        waiting = self.requests.pop(outcome.request_id, None)
        if waiting is None:
            return
        if outcome.ok:
            # The view the action produced went out just before this acknowledgement.
            self.metrics.command_to_view.observe(self.clock() - waiting.received)
            waiting.conn.send(p.Ack(id=waiting.client_id))
        else:
            waiting.conn.send(
                p.Reject(id=waiting.client_id, code=outcome.code, message=outcome.message)
            )
