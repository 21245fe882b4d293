"""The bus in memory, for running every service in one process (``swick up`` embedded).

It keeps the semantics the services rely on: each queue delivers in order to its consumer,
unacknowledged deliveries go back to the front of their queue when the consumer stops, and
updates fan out to every subscriber of a table.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from shared.bus import Delivery, Topology, shard_of


class _Queue:
    """A FIFO that can take a message back at its front."""

    def __init__(self) -> None:
        self.items: deque[bytes] = deque()
        self.ready = asyncio.Condition()

    async def put(self, body: bytes, *, front: bool = False) -> None:
        async with self.ready:
            if front:
                self.items.appendleft(body)
            else:
                self.items.append(body)
            self.ready.notify()

    async def get(self) -> bytes:
        async with self.ready:
            await self.ready.wait_for(lambda: bool(self.items))
            return self.items.popleft()


class MemoryDelivery:
    def __init__(self, body: bytes, queue: _Queue, pending: dict[int, MemoryDelivery]) -> None:
        self._body = body
        self._queue = queue
        self._pending = pending
        self.user_id: str | None = None  # no broker: nobody outside this process publishes
        pending[id(self)] = self

    @property
    def body(self) -> bytes:
        return self._body

    async def ack(self) -> None:
        self._pending.pop(id(self), None)

    async def nack(self, *, requeue: bool = True) -> None:
        if self._pending.pop(id(self), None) is not None and requeue:
            await self._queue.put(self._body, front=True)


class MemoryUpdatesQueue:
    def __init__(self, bus: MemoryBus) -> None:
        self.bus = bus
        self.queue = _Queue()
        self.tables: set[str] = set()

    async def watch(self, table_id: str) -> None:
        self.tables.add(table_id)
        self.bus.subscribers.setdefault(table_id, set()).add(self)

    async def unwatch(self, table_id: str) -> None:
        self.tables.discard(table_id)
        self.bus.subscribers.get(table_id, set()).discard(self)

    @asynccontextmanager
    async def messages(self) -> AsyncIterator[AsyncIterator[Delivery]]:
        async def deliveries() -> AsyncIterator[Delivery]:
            while True:
                body = await self.queue.get()
                yield MemoryDelivery(body, self.queue, {})

        yield deliveries()


class MemoryBus:
    """Queues and fan-out in this process; never disconnects."""

    def __init__(self, topology: Topology) -> None:
        self.topology = topology
        self.queues: dict[str, _Queue] = {}
        self.subscribers: dict[str, set[MemoryUpdatesQueue]] = {}

    def _queue(self, name: str) -> _Queue:
        return self.queues.setdefault(name, _Queue())

    @property
    def connected(self) -> bool:
        return True

    def on_reconnect(self, callback: Callable[[], None]) -> None:
        """Memory never disconnects."""

    async def lost(self) -> None:
        await asyncio.Event().wait()  # never

    async def close(self) -> None:
        self.subscribers.clear()

    async def request(self, table_id: str, body: bytes) -> None:
        shard = shard_of(table_id, self.topology.shards)
        await self._queue(self.topology.shard_queue(shard)).put(body)

    async def publish_update(self, table_id: str, body: bytes) -> None:
        for subscriber in list(self.subscribers.get(table_id, ())):
            await subscriber.queue.put(body)

    async def publish_bot_turn(self, bot: str, body: bytes) -> None:
        await self._queue(self.topology.bot_queue(bot)).put(body)

    async def publish_posting(self, body: bytes) -> None:
        await self._queue(self.topology.postings).put(body)

    async def declare_bot_queue(self, bot: str) -> None:
        self._queue(self.topology.bot_queue(bot))

    async def depth(self, queue_name: str) -> int:
        queue = self.queues.get(queue_name)
        return 0 if queue is None else len(queue.items)

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
                await queue.put(delivery.body, front=True)

    async def updates_queue(self) -> MemoryUpdatesQueue:
        return MemoryUpdatesQueue(self)
