"""The bus in memory, for running every service in one process (``swick up`` embedded).

It keeps the semantics the services rely on: each queue delivers in order to its consumer,
unacknowledged deliveries go back to the front of their queue when the consumer stops, updates
fan out to every subscriber of a table, and a bot's turn expires unanswered after its time to
live. Like the broker, it vouches for who published each message: every service gets its own
handle (``as_user``) and each delivery carries that handle's user. Its queues are bounded as
the broker's are (``Topology.limit_of``): a message beyond is refused with ``QueueFull``, and a
bot's actions go to its own queue, which the table worker's relay forwards.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from shared.bus import Delivery, QueueFull, Topology, shard_of


@dataclass(frozen=True, slots=True)
class _Message:
    body: bytes
    user_id: str | None
    expires_at: float | None = None


class _Queue:
    """A FIFO that can take a message back at its front, and drops what expired."""

    def __init__(self, clock: Callable[[], float], limit: int | None = None) -> None:
        self.items: deque[_Message] = deque()
        self.ready = asyncio.Condition()
        self.clock = clock
        self.limit = limit

    async def put(self, message: _Message, *, front: bool = False) -> None:
        async with self.ready:
            if front:  # taken back: it held its place already
                self.items.appendleft(message)
            else:
                if self.limit is not None and self.depth() >= self.limit:
                    raise QueueFull("the queue is full")
                self.items.append(message)
            self.ready.notify()

    async def get(self) -> _Message:
        async with self.ready:
            while True:
                await self.ready.wait_for(lambda: bool(self.items))
                message = self.items.popleft()
                if not self._expired(message):
                    return message

    def depth(self) -> int:
        while self.items and self._expired(self.items[0]):
            self.items.popleft()
        return len(self.items)

    def _expired(self, message: _Message) -> bool:
        return message.expires_at is not None and message.expires_at <= self.clock()


class MemoryDelivery:
    def __init__(
        self, message: _Message, queue: _Queue, pending: dict[int, MemoryDelivery]
    ) -> None:
        self._message = message
        self._queue = queue
        self._pending = pending
        pending[id(self)] = self

    @property
    def body(self) -> bytes:
        return self._message.body

    @property
    def user_id(self) -> str | None:
        return self._message.user_id

    async def ack(self, multiple: bool = False) -> None:
        if multiple:
            for key in list(self._pending):  # in delivery order
                if self._pending.pop(key) is self:
                    break
        else:
            self._pending.pop(id(self), None)

    async def nack(self, *, requeue: bool = True) -> None:
        if self._pending.pop(id(self), None) is not None and requeue:
            await self._queue.put(self._message, front=True)


class MemoryUpdatesQueue:
    def __init__(self, bus: MemoryBus) -> None:
        self.bus = bus
        self.queue = _Queue(bus.clock)
        self.tables: set[str] = set()

    async def watch(self, table_id: str) -> None:
        self.tables.add(table_id)
        self.bus.state.subscribers.setdefault(table_id, set()).add(self)

    async def unwatch(self, table_id: str) -> None:
        self.tables.discard(table_id)
        self.bus.state.subscribers.get(table_id, set()).discard(self)

    @asynccontextmanager
    async def messages(self) -> AsyncIterator[AsyncIterator[Delivery]]:
        async def deliveries() -> AsyncIterator[Delivery]:
            while True:
                yield MemoryDelivery(await self.queue.get(), self.queue, {})

        yield deliveries()


@dataclass
class _State:
    """What every handle of one in-memory bus shares."""

    queues: dict[str, _Queue] = field(default_factory=dict)
    subscribers: dict[str, set[MemoryUpdatesQueue]] = field(default_factory=dict)


class MemoryBus:
    """Queues and fan-out in this process; never disconnects."""

    def __init__(
        self,
        topology: Topology,
        user: str | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        state: _State | None = None,
    ) -> None:
        self.topology = topology
        self.user = user
        self.clock = clock
        self.state = state or _State()

    def as_user(self, user: str) -> MemoryBus:
        """A handle on the same bus whose messages carry ``user`` (a service's own)."""
        return MemoryBus(self.topology, user, clock=self.clock, state=self.state)

    @property
    def queues(self) -> dict[str, _Queue]:
        return self.state.queues

    def _queue(self, name: str) -> _Queue:
        queue = self.state.queues.get(name)
        if queue is None:
            queue = self.state.queues[name] = _Queue(self.clock, self.topology.limit_of(name))
        return queue

    def _message(self, body: bytes, ttl_ms: int | None = None) -> _Message:
        expires_at = None if ttl_ms is None else self.clock() + ttl_ms / 1000
        return _Message(body, self.user, expires_at)

    @property
    def connected(self) -> bool:
        return True

    def on_reconnect(self, callback: Callable[[], None]) -> None:
        """Memory never disconnects."""

    async def lost(self) -> None:
        await asyncio.Event().wait()  # never

    async def close(self) -> None:
        """Nothing to close: the handles share the bus, which lives as long as the process."""

    async def request(self, table_id: str, body: bytes) -> None:
        shard = shard_of(table_id, self.topology.shards)
        await self._queue(self.topology.shard_queue(shard)).put(self._message(body))

    async def send(self, table_id: str, body: bytes) -> None:
        await self.request(table_id, body)

    async def bot_action(self, table_id: str, body: bytes) -> None:
        bot = self.topology.bot_of(self.user)
        if bot is None:  # as the broker refuses anyone else's publish to a bot's exchange
            raise PermissionError(f"{self.user} is no bot's user")
        await self._queue(self.topology.bot_actions(bot)).put(self._message(body))

    async def publish_updates(self, table_ids: Sequence[str], body: bytes) -> None:
        subscribers = {}  # each once, in order
        for table_id in table_ids:
            for subscriber in self.state.subscribers.get(table_id, ()):
                subscribers[id(subscriber)] = subscriber
        for subscriber in subscribers.values():
            await subscriber.queue.put(self._message(body))

    async def publish_bot_turn(self, bot: str, body: bytes, *, ttl_ms: int) -> None:
        await self._queue(self.topology.bot_queue(bot)).put(self._message(body, ttl_ms))

    async def publish_posting(self, body: bytes) -> None:
        await self._queue(self.topology.postings).put(self._message(body))

    async def declare_bot_queue(self, bot: str) -> None:
        self._queue(self.topology.bot_queue(bot))

    async def depth(self, queue_name: str) -> int:
        queue = self.state.queues.get(queue_name)
        return 0 if queue is None else queue.depth()

    @asynccontextmanager
    async def consume(
        self, queue_name: str, *, prefetch: int = 64
    ) -> AsyncIterator[AsyncIterator[Delivery]]:
        queue = self._queue(queue_name)
        pending: dict[int, MemoryDelivery] = {}

        async def deliveries() -> AsyncIterator[Delivery]:
            while True:
                yield MemoryDelivery(await queue.get(), queue, pending)

        try:
            yield deliveries()
        finally:
            # Like a broker, put back what was delivered but never acknowledged, in order.
            for delivery in reversed(list(pending.values())):
                await delivery.nack(requeue=True)

    async def updates_queue(self) -> MemoryUpdatesQueue:
        return MemoryUpdatesQueue(self)
