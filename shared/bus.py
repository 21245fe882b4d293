"""The message bus: one module owns the RabbitMQ topology and how each service uses it.

Topology (every name under a namespace, ``swick`` by default, so test runs stay apart):

- ``<ns>.requests`` (direct) → ``<ns>.shard.<k>``: durable queues with single-active-consumer,
  one per shard. A table's requests always go to shard ``crc32(table_id) % shards`` (never
  Python's salted ``hash``), so one consumer handles them in order. A shard queue holds at
  most ``SHARD_QUEUE_LIMIT`` requests, a last bound: a confirmed publish beyond it raises
  ``QueueFull``.
- ``<ns>.updates`` (topic): views, outcomes and chat, routing key ``table.<id>``; each gateway
  process binds its own exclusive queue ``<ns>.gateway.<random>`` to the tables its sockets
  watch.
- ``<ns>.bot-actions.<name>`` (fanout) → the queue of the same name: one bot's actions, the
  only place its user may write. At most ``BOT_ACTIONS_LIMIT`` wait there; beyond, the broker
  refuses that bot's publishes (``reject-publish``), and only that bot's. The table workers
  take them at a bounded rate per bot (single-active-consumer: one worker at a time) and
  forward them to the table's shard as their own user (``services/table/bot_relay.py``), so a
  bot that floods fills its own queue, never the shard queues people's requests go through.
- ``<ns>.bots`` (direct) → ``<ns>.bots.<name>``: bot turns, shared by competing consumers;
  each turn expires after a while, so a bot nobody serves leaves no growing queue.
- ``<ns>.postings`` (direct) → ``<ns>.postings``: a durable queue of ledger postings.

Each service kind connects as its own broker user (``Topology.user``, ``Topology.bot_user``)
whose permissions cover only what it uses (``shared/broker.py`` writes them), and stamps every
message with that user: RabbitMQ refuses a ``user_id`` that is not the connection's own, so a
consumer knows who published what it takes (``Delivery.user_id``). The durable topology is
declared once, by an administrator (``swick broker setup``); a service declares nothing but a
gateway's own exclusive updates queue.

Requests and postings are published persistent, mandatory and with publisher confirms, but
for the requests of people (``send``): transient and unconfirmed, as the gateway sends again
what has no answer; updates without confirms (a gateway that misses one sends the next to its
sockets whole).
Consumers use ``queue.iterator()`` (a callback consumer runs a task per delivery and reorders).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
import zlib
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from typing import Any, Protocol, cast
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
DEFAULT_BOT_TURN_TTL_MS = 60_000
ROLES = ("gateway", "table", "ledger")
PERSISTENT = aio_pika.DeliveryMode.PERSISTENT
RECONNECT_PATIENCE = 15.0  # seconds; a robust connection retries every 5 s
# Queue lengths past which the broker refuses publishes (``reject-publish``). A shard's is a
# last bound, far above what its owner ever lets wait; a bot's holds a few seconds of its
# relay's rate (services/table/bot_relay.py), so a bot that floods is refused at once.
SHARD_QUEUE_LIMIT = 20_000
BOT_ACTIONS_LIMIT = 1_000


class BrokerUnavailable(ConnectionError):
    """The broker did not take a message, and did not come back in time to take it."""


class QueueFull(BrokerUnavailable):
    """The queue the message goes to is full: the broker refused it (no retry helps soon)."""


def bounded(limit: int) -> dict[str, object]:
    """Queue arguments: at most ``limit`` messages; a publish beyond is refused (confirmed
    publishers hear of it), never an older message dropped."""
    return {"x-max-length": limit, "x-overflow": "reject-publish"}


def shard_of(table_id: str, shards: int) -> int:
    return zlib.crc32(table_id.encode()) % shards


@dataclass(frozen=True, slots=True)
class Topology:
    namespace: str = "swick"
    shards: int = DEFAULT_SHARDS
    shard_limit: int = SHARD_QUEUE_LIMIT
    bot_actions_limit: int = BOT_ACTIONS_LIMIT

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

    def bot_actions(self, bot: str) -> str:
        """The exchange, and the queue, of one bot's actions (both named alike)."""
        return f"{self.bot_actions_prefix}{bot}"

    @property
    def bot_actions_prefix(self) -> str:
        return f"{self.namespace}.bot-actions."

    def limit_of(self, queue: str) -> int | None:
        """The most messages ``queue`` holds (``None``: unbounded)."""
        if queue.startswith(self.bot_actions_prefix):
            return self.bot_actions_limit
        if queue.startswith(f"{self.namespace}.shard."):
            return self.shard_limit
        return None

    def shard_queue(self, shard: int) -> str:
        return f"{self.namespace}.shard.{shard}"

    def bot_queue(self, bot: str) -> str:
        return f"{self.namespace}.bots.{bot}"

    def queues_of(self, bot: str) -> tuple[str, str]:
        """A bot account's queues: its turns, its actions."""
        return self.bot_queue(bot), self.bot_actions(bot)

    def gateway_queue(self, token: str) -> str:
        """A gateway process's exclusive updates queue (named here, so that a permission can
        name it: RabbitMQ's and the client's generated names are not the same)."""
        return f"{self.namespace}.gateway.{token}"

    def user(self, role: str) -> str:
        """The broker user of a service kind: ``gateway``, ``table`` or ``ledger``."""
        return f"{self.namespace}-{role}"

    def bot_user(self, name: str) -> str:
        """The broker user of the bot account ``name``."""
        return f"{self.namespace}-bot-{name}"

    def bot_of(self, user: str | None) -> str | None:
        """The bot name whose user ``user`` is, or ``None`` if it is no bot's."""
        prefix = f"{self.namespace}-bot-"
        if user is None or not user.startswith(prefix):
            return None
        return user.removeprefix(prefix) or None


def url_user(url: str) -> str:
    """The user an ``amqp://`` URL connects as (RabbitMQ's default: ``guest``)."""
    return unquote(urlparse(url).username or "guest")


def declarations(
    topology: Topology, bots: Iterable[str] = ()
) -> tuple[list[tuple[str, str]], list[tuple[str, dict[str, object]]], list[tuple[str, str, str]]]:
    """The durable topology: (exchange, type), (queue, arguments) and (exchange, queue,
    routing key). One list for both ways of declaring it (AMQP and definitions files)."""
    t = topology
    exchanges = [
        (t.requests, "direct"),
        (t.updates, "topic"),
        (t.bots, "direct"),
        (t.postings, "direct"),
    ]
    queues: list[tuple[str, dict[str, object]]] = [
        (t.shard_queue(k), {"x-single-active-consumer": True, **bounded(t.shard_limit)})
        for k in range(t.shards)
    ]
    queues.append((t.postings, {}))
    bindings = [(t.requests, t.shard_queue(k), str(k)) for k in range(t.shards)]
    bindings.append((t.postings, t.postings, t.postings))
    for bot in sorted(set(bots)):
        queues.append((t.bot_queue(bot), {}))
        bindings.append((t.bots, t.bot_queue(bot), bot))
        actions = t.bot_actions(bot)
        exchanges.append((actions, "fanout"))
        queues.append((actions, {"x-single-active-consumer": True, **bounded(t.bot_actions_limit)}))
        bindings.append((actions, actions, ""))
    return exchanges, queues, bindings


class Delivery(Protocol):
    """One message taken from a queue; acknowledge it once handled."""

    @property
    def body(self) -> bytes: ...

    @property
    def user_id(self) -> str | None:
        """Who published it: the broker user it vouches for (``None``: not stamped)."""
        ...

    async def ack(self, multiple: bool = False) -> None:
        """Acknowledge it (and, if ``multiple``, every earlier one of its consumer)."""
        ...

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
        """Raises ``BrokerUnavailable`` if the broker does not take it (``QueueFull`` if the
        shard's queue is full)."""
        ...

    async def send(self, table_id: str, body: bytes) -> None:
        """Send a request its sender sends again until it is answered (``request``, transient
        and unconfirmed: a broker's third of the cost; a broker restart may lose it)."""
        ...

    async def bot_action(self, table_id: str, body: bytes) -> None:
        """A bot's request, into its own actions queue (a table worker forwards it to the
        table's shard). Raises ``QueueFull`` when that queue is full: the bot sends too much."""
        ...

    async def publish_updates(self, table_ids: Sequence[str], body: bytes) -> None:
        """One message to every gateway watching any of ``table_ids``, once to each."""
        ...

    async def publish_bot_turn(self, bot: str, body: bytes, *, ttl_ms: int) -> None:
        """A bot's turn; dropped unanswered after ``ttl_ms`` (the table's timer acts then)."""
        ...

    async def publish_posting(self, body: bytes) -> None: ...

    async def declare_bot_queue(self, bot: str) -> None:
        """Administrators only: the queue of a bot's turns."""
        ...

    async def depth(self, queue_name: str) -> int: ...

    def consume(
        self, queue_name: str, *, prefetch: int = 64
    ) -> AbstractAsyncContextManager[AsyncIterator[Delivery]]: ...

    async def updates_queue(self) -> UpdatesQueue: ...


class RabbitBus:
    """A connection to RabbitMQ as one broker user, on the platform's topology."""

    def __init__(
        self,
        connection: AbstractConnection,
        topology: Topology,
        *,
        user: str = "guest",
        patience: float = 0.0,
    ) -> None:
        self.connection = connection
        self.topology = topology
        self.user = user  # stamped on every message: the broker refuses any other
        self.patience = patience  # how long a request waits for a lost connection to return
        self._publisher: AbstractChannel | None = None
        self._requests: AbstractExchange | None = None
        self._bot_actions: AbstractExchange | None = None
        self._updates: AbstractExchange | None = None
        self._sends: AbstractExchange | None = None
        self._bots: AbstractExchange | None = None
        self._postings: AbstractExchange | None = None

    @classmethod
    async def connect(
        cls,
        url: str = DEFAULT_URL,
        topology: Topology | None = None,
        *,
        heartbeat: int = 3,
        robust: bool = True,
        declare: bool = False,
    ) -> RabbitBus:
        """Connect as the user of ``url``.

        ``declare``: declare the durable topology first, which needs an administrator's
        rights (a service's user has none: ``swick broker setup`` declares it for them).

        A robust connection reconnects by itself and restores its consumers: right for the
        gateway and the bots. A table worker connects without: its consumers must never come
        back on their own after it lost its shards, so it stops when the connection does.
        """
        connect = aio_pika.connect_robust if robust else aio_pika.connect
        connection = await connect(url, heartbeat=heartbeat)
        bus = cls(
            connection,
            topology or Topology(),
            user=url_user(url),
            patience=RECONNECT_PATIENCE if robust else 0,
        )
        try:
            await bus._open(declare)
        except BaseException:
            await connection.close()  # a robust one would go on reconnecting in the background
            raise
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

    async def _open(self, declare: bool) -> None:
        t = self.topology
        channel = await self.connection.channel(publisher_confirms=True)
        self._publisher = channel
        if declare:
            await declare_topology(channel, t)
        # Handles only: publishing needs the write permission, not the configure one.
        self._requests = await channel.get_exchange(t.requests, ensure=False)
        bot = t.bot_of(self.user)
        if bot is not None:  # a bot's user writes to its own actions exchange, nowhere else
            self._bot_actions = await channel.get_exchange(t.bot_actions(bot), ensure=False)
        self._bots = await channel.get_exchange(t.bots, ensure=False)
        self._postings = await channel.get_exchange(t.postings, ensure=False)
        # Views are transient and a gateway that misses one sends the next whole: they go on a
        # channel without publisher confirms, so a table never waits on the broker for them.
        fanout = await self.connection.channel(publisher_confirms=False)
        self._updates = await fanout.get_exchange(t.updates, ensure=False)
        self._sends = await fanout.get_exchange(t.requests, ensure=False)

    def _message(
        self, body: bytes, *, persistent: bool = False, expiration: float | None = None
    ) -> aio_pika.Message:
        return aio_pika.Message(
            body,
            delivery_mode=PERSISTENT if persistent else None,
            content_type="application/json",
            user_id=self.user,
            expiration=expiration,
        )

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
        await self._to_shard(self._requests, table_id, body)

    async def send(self, table_id: str, body: bytes) -> None:
        await self._to_shard(self._sends, table_id, body, persistent=False)

    async def bot_action(self, table_id: str, body: bytes) -> None:
        await self._to_shard(self._bot_actions, table_id, body)

    async def _to_shard(
        self,
        exchange: AbstractExchange | None,
        table_id: str,
        body: bytes,
        *,
        persistent: bool = True,
    ) -> None:
        shard = shard_of(table_id, self.topology.shards)
        deadline = time.monotonic() + self.patience
        while True:
            try:
                await self._exchange(exchange).publish(
                    self._message(body, persistent=persistent),
                    routing_key=str(shard),
                    mandatory=persistent,  # confirmed: an unroutable one is an error
                )
                return
            except (ConnectionError, RuntimeError, aio_pika.exceptions.AMQPError) as error:
                if refused_as_full(error):
                    raise QueueFull(f"the queue of table {table_id} is full") from error
                if time.monotonic() >= deadline:
                    raise BrokerUnavailable(str(error)) from error
                await asyncio.sleep(0.25)

    async def publish_updates(self, table_ids: Sequence[str], body: bytes) -> None:
        # The broker routes one message by its key and its "BCC" keys, to each queue once.
        first, *others = [f"table.{table_id}" for table_id in dict.fromkeys(table_ids)]
        message = self._message(body)
        if others:
            headers: dict[str, Any] = {"BCC": others}
            message.headers = headers
        await self._exchange(self._updates).publish(message, routing_key=first, mandatory=False)

    async def publish_bot_turn(self, bot: str, body: bytes, *, ttl_ms: int) -> None:
        # Not mandatory: a bot without a queue (its account gone) loses the turn to the timer.
        await self._exchange(self._bots).publish(
            self._message(body, expiration=ttl_ms / 1000),
            routing_key=bot,
            mandatory=False,
        )

    async def publish_posting(self, body: bytes) -> None:
        await self._exchange(self._postings).publish(
            self._message(body, persistent=True),
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
        await declare_topology(channel, self.topology, [bot], shared=False)

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
        name = self.topology.gateway_queue(secrets.token_hex(8))
        queue = await channel.declare_queue(name, exclusive=True, auto_delete=True)
        return RabbitUpdatesQueue(channel, queue, self.topology.updates)


async def given_or_connected(
    bus: Bus | None, url: str, topology: Topology, owned: contextlib.AsyncExitStack
) -> Bus:
    """``bus`` when one is given (embedded mode), else a connection to the broker at ``url``,
    closed with ``owned``."""
    if bus is not None:
        return bus
    connected = await RabbitBus.connect(url, topology)
    owned.push_async_callback(connected.close)
    return connected


def refused_as_full(error: BaseException) -> bool:
    """Whether the broker nacked a confirmed publish: a bounded queue is full (a returned,
    unroutable message is a ``PublishError``, another kind of delivery error)."""
    return isinstance(error, aio_pika.exceptions.DeliveryError) and not isinstance(
        error, aio_pika.exceptions.PublishError
    )


async def declare_topology(
    channel: AbstractChannel, topology: Topology, bots: Iterable[str] = (), *, shared: bool = True
) -> None:
    """Declare the durable topology (``shared``) and the queues of ``bots``: an administrator's
    job, done by ``swick broker setup``."""
    exchanges, queues, bindings = declarations(topology, bots)
    chosen = {queue for bot in bots for queue in topology.queues_of(bot)}
    declared: dict[str, AbstractExchange] = {}
    for name, kind in exchanges:
        declared[name] = await channel.declare_exchange(
            name, aio_pika.ExchangeType(kind), durable=True
        )
    made: dict[str, AbstractQueue] = {}
    for name, arguments in queues:
        if shared or name in chosen:
            made[name] = await channel.declare_queue(
                name, durable=True, arguments=cast(Any, arguments) or None
            )
    for exchange, queue, key in bindings:
        if queue in made:
            await made[queue].bind(declared[exchange], routing_key=key)


@dataclass(eq=False)
class RabbitUpdatesQueue:
    channel: AbstractChannel
    queue: AbstractQueue
    exchange: str

    async def watch(self, table_id: str) -> None:
        await self.queue.bind(self.exchange, routing_key=f"table.{table_id}")

    async def unwatch(self, table_id: str) -> None:
        await self.queue.unbind(self.exchange, routing_key=f"table.{table_id}")

    @asynccontextmanager
    async def messages(self) -> AsyncIterator[AsyncIterator[Delivery]]:
        async with self.queue.iterator(no_ack=True) as deliveries:
            yield cast(AsyncIterator[Delivery], deliveries)
