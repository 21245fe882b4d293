"""The message bus: one module owns the RabbitMQ topology and how each service uses it.

Topology (every name under a namespace, ``swick`` by default, so test runs stay apart):

- ``<ns>.requests`` (direct) → ``<ns>.shard.<k>``: durable queues with single-active-consumer,
  one per shard. A table's requests always go to shard ``crc32(table_id) % shards`` (never
  Python's salted ``hash``), so one consumer handles them in order.
- ``<ns>.updates`` (topic): views, outcomes and chat, routing key ``table.<id>``; each gateway
  process binds its own exclusive queue to the tables its sockets watch.
- ``<ns>.bots`` (direct) → ``<ns>.bots.<name>``: bot turns, shared by competing consumers.
- ``<ns>.postings``: a durable queue of ledger postings.

Requests and postings are published persistent, mandatory and with publisher confirms;
updates without confirms (a gateway that misses one sends the next to its sockets whole).
Consumers use ``queue.iterator()`` (a callback consumer runs a task per delivery and reorders).
"""

from __future__ import annotations

import asyncio
import time
import zlib
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from typing import Protocol, cast
from urllib.parse import unquote, urlparse

import aio_pika
from aio_pika.abc import (
    AbstractChannel,
    AbstractConnection,
    AbstractExchange,
    AbstractQueue,
)

DEFAULT_URL = "amqp://guest:guest@127.0.0.1:5672/"
DEFAULT_SHARDS = 32
PERSISTENT = aio_pika.DeliveryMode.PERSISTENT
RECONNECT_PATIENCE = 15.0  # seconds; a robust connection retries every 5 s


class BrokerUnavailable(ConnectionError):
    """The broker did not take a message, and did not come back in time to take it."""


def shard_of(table_id: str, shards: int) -> int:
    return zlib.crc32(table_id.encode()) % shards


@dataclass(frozen=True, slots=True)
class Topology:
    namespace: str = "swick"
    shards: int = DEFAULT_SHARDS

    @property
    def requests(self) -> str:
        return f"{self.namespace}.requests"

    @property
    def updates(self) -> str:
        return f"{self.namespace}.updates"

    @property
    def bots(self) -> str:
        return f"{self.namespace}.bots"

    @property
    def postings(self) -> str:
        return f"{self.namespace}.postings"

    def shard_queue(self, shard: int) -> str:
        return f"{self.namespace}.shard.{shard}"

    def bot_queue(self, bot: str) -> str:
        return f"{self.namespace}.bots.{bot}"

    def user(self, role: str) -> str:
        """The broker user of a service role (gateway, table, ledger)."""
        return f"{self.namespace}-{role}"


class Delivery(Protocol):
    """One message taken from a queue; acknowledge it once handled."""

    @property
    def body(self) -> bytes: ...

    @property
    def user_id(self) -> str | None:
        """The publisher's user as the broker validated it (``None`` if it named none)."""
        ...

    async def ack(self) -> None: ...

    async def nack(self, *, requeue: bool = True) -> None: ...


class UpdatesQueue(Protocol):
    """One gateway process's subscription to the updates of the tables it watches."""

    async def watch(self, table_id: str) -> None: ...

    async def unwatch(self, table_id: str) -> None: ...

    def messages(self) -> AbstractAsyncContextManager[AsyncIterator[Delivery]]: ...


class Bus(Protocol):
    """How services talk: RabbitMQ (``RabbitBus``) or, on one machine, memory (``MemoryBus``)."""

    topology: Topology

    @property
    def connected(self) -> bool: ...

    def on_reconnect(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` whenever the connection comes back after a loss."""
        ...

    async def lost(self) -> None:
        """Wait until the connection is lost for good, then raise ``ConnectionError``."""
        ...

    async def close(self) -> None: ...

    async def request(self, table_id: str, body: bytes) -> None:
        """Raises ``BrokerUnavailable`` if the broker does not take it."""
        ...

    async def publish_update(self, table_id: str, body: bytes) -> None: ...

    async def publish_bot_turn(self, bot: str, body: bytes) -> None: ...

    async def publish_posting(self, body: bytes) -> None: ...

    async def declare_bot_queue(self, bot: str) -> None: ...

    async def depth(self, queue_name: str) -> int: ...

    def consume(
        self, queue_name: str, *, prefetch: int = 64
    ) -> AbstractAsyncContextManager[AsyncIterator[Delivery]]: ...

    async def updates_queue(self) -> UpdatesQueue: ...


class RabbitBus:
    """A connection to RabbitMQ with the platform's topology declared."""

    def __init__(
        self, connection: AbstractConnection, topology: Topology, *, patience: float = 0.0
    ) -> None:
        self.connection = connection
        self.topology = topology
        self.patience = patience  # how long a request waits for a lost connection to return
        self.user = "guest"  # the broker user this connection logged in as
        self._publisher: AbstractChannel | None = None
        self._requests: AbstractExchange | None = None
        self._updates: AbstractExchange | None = None
        self._bots: AbstractExchange | None = None

    @classmethod
    async def connect(
        cls,
        url: str = DEFAULT_URL,
        topology: Topology | None = None,
        *,
        heartbeat: int = 3,
        robust: bool = True,
    ) -> RabbitBus:
        """Connect and declare the topology.

        A robust connection reconnects by itself and restores its consumers: right for the
        gateway and the bots. A table worker connects without: its consumers must never come
        back on their own after it lost its shards, so it stops when the connection does.
        """
        connect = aio_pika.connect_robust if robust else aio_pika.connect
        connection = await connect(url, heartbeat=heartbeat)
        bus = cls(connection, topology or Topology(), patience=RECONNECT_PATIENCE if robust else 0)
        bus.user = unquote(urlparse(url).username or "guest")
        await bus._declare()
        return bus

    async def close(self) -> None:
        await self.connection.close()

    @property
    def connected(self) -> bool:
        return not self.connection.is_closed

    def on_reconnect(self, callback: Callable[[], None]) -> None:
        callbacks = getattr(self.connection, "reconnect_callbacks", None)
        if callbacks is not None:  # only robust connections come back
            callbacks.add(lambda *_: callback())

    async def lost(self) -> None:
        """Wait until the connection closes, and say so."""
        await self.connection.closed()
        raise ConnectionError("the connection to RabbitMQ was lost")

    async def _declare(self) -> None:
        t = self.topology
        channel = await self.connection.channel(publisher_confirms=True)
        self._publisher = channel
        self._requests = await channel.declare_exchange(
            t.requests, aio_pika.ExchangeType.DIRECT, durable=True
        )
        # Views are transient and a gateway that misses one sends the next whole: they go on a
        # channel without publisher confirms, so a table never waits on the broker for them.
        fanout = await self.connection.channel(publisher_confirms=False)
        self._updates = await fanout.declare_exchange(
            t.updates, aio_pika.ExchangeType.TOPIC, durable=True
        )
        self._bots = await channel.declare_exchange(
            t.bots, aio_pika.ExchangeType.DIRECT, durable=True
        )
        for shard in range(t.shards):
            queue = await channel.declare_queue(
                t.shard_queue(shard),
                durable=True,
                arguments={"x-single-active-consumer": True},
            )
            await queue.bind(self._requests, routing_key=str(shard))
        await channel.declare_queue(t.postings, durable=True)

    # Publishing.

    def _exchange(self, exchange: AbstractExchange | None) -> AbstractExchange:
        if exchange is None:
            raise RuntimeError("the bus is not connected")
        return exchange

    async def request(self, table_id: str, body: bytes) -> None:
        """Send a request to the shard that owns ``table_id``; returns once the broker has it.

        While a robust connection is being re-established, keep trying for ``patience``
        seconds: a publish cut short may have arrived, but a table applies a request id once.
        """
        shard = shard_of(table_id, self.topology.shards)
        deadline = time.monotonic() + self.patience
        while True:
            try:
                await self._exchange(self._requests).publish(
                    aio_pika.Message(
                        body, delivery_mode=PERSISTENT, content_type="application/json"
                    ),
                    routing_key=str(shard),
                    mandatory=True,
                )
                return
            except (ConnectionError, RuntimeError, aio_pika.exceptions.AMQPError) as error:
                if time.monotonic() >= deadline:
                    raise BrokerUnavailable(str(error)) from error
                await asyncio.sleep(0.25)

    async def publish_update(self, table_id: str, body: bytes) -> None:
        await self._exchange(self._updates).publish(
            aio_pika.Message(body, content_type="application/json"),
            routing_key=f"table.{table_id}",
            mandatory=False,
        )

    async def publish_bot_turn(self, bot: str, body: bytes) -> None:
        await self.declare_bot_queue(bot)
        await self._exchange(self._bots).publish(
            aio_pika.Message(body, content_type="application/json"),
            routing_key=bot,
            mandatory=True,
        )

    async def publish_posting(self, body: bytes) -> None:
        channel = self._publisher
        if channel is None:
            raise RuntimeError("the bus is not connected")
        await channel.default_exchange.publish(
            # The broker checks user_id against this connection's user: the ledger trusts it.
            aio_pika.Message(
                body, delivery_mode=PERSISTENT, content_type="application/json", user_id=self.user
            ),
            routing_key=self.topology.postings,
            mandatory=True,
        )

    async def depth(self, queue_name: str) -> int:
        """How many messages wait in a queue (0 if it does not exist)."""
        channel = await self.connection.channel()
        try:
            queue = await channel.declare_queue(queue_name, passive=True)
            count = queue.declaration_result.message_count
            return int(count or 0)
        except aio_pika.exceptions.ChannelClosed:
            return 0
        finally:
            if not channel.is_closed:
                await channel.close()

    async def declare_bot_queue(self, bot: str) -> None:
        channel = self._publisher
        if channel is None:
            raise RuntimeError("the bus is not connected")
        queue = await channel.declare_queue(self.topology.bot_queue(bot), durable=True)
        await queue.bind(self._exchange(self._bots), routing_key=bot)

    # Consuming.

    @asynccontextmanager
    async def consume(
        self, queue_name: str, *, prefetch: int = 64
    ) -> AsyncIterator[AsyncIterator[Delivery]]:
        """Deliveries of a durable queue in order, on a channel of their own; ack each one."""
        channel = await self.connection.channel()
        try:
            await channel.set_qos(prefetch_count=prefetch)
            queue = await channel.get_queue(queue_name, ensure=True)
            async with queue.iterator() as deliveries:
                yield cast(AsyncIterator[Delivery], deliveries)
        finally:
            if not channel.is_closed:
                await channel.close()

    async def updates_queue(self) -> RabbitUpdatesQueue:
        """An exclusive queue for one gateway process, to bind the tables it watches."""
        channel = await self.connection.channel()
        queue = await channel.declare_queue(exclusive=True, auto_delete=True)
        return RabbitUpdatesQueue(channel, queue, self.topology.updates)


class RabbitUpdatesQueue:
    def __init__(self, channel: AbstractChannel, queue: AbstractQueue, exchange: str) -> None:
        self.channel = channel
        self.queue = queue
        self.exchange = exchange

    async def watch(self, table_id: str) -> None:
        await self.queue.bind(self.exchange, routing_key=f"table.{table_id}")

    async def unwatch(self, table_id: str) -> None:
        await self.queue.unbind(self.exchange, routing_key=f"table.{table_id}")

    @asynccontextmanager
    async def messages(self) -> AsyncIterator[AsyncIterator[Delivery]]:
        async with self.queue.iterator(no_ack=True) as deliveries:
            yield cast(AsyncIterator[Delivery], deliveries)
