"""One contract for both buses: RabbitMQ and the in-process one behave alike for the services."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

import aio_pika
import pytest

from shared.bus import Bus, RabbitBus, Topology, UpdatesQueue, shard_of, url_user
from shared.memory_bus import MemoryBus
from shared.settings import Settings

BUSES = ["rabbitmq", "memory"]


@asynccontextmanager
async def open_bus(backend: str, settings: Settings, topology: Topology) -> AsyncIterator[Bus]:
    """The bus of ``backend`` (one of ``BUSES``) on ``topology``: RabbitMQ's declared for the
    block and deleted after it."""
    if backend == "memory":
        yield MemoryBus(topology).as_user(url_user(settings.amqp_url))
        return
    rabbit = await RabbitBus.connect(settings.amqp_url, topology, declare=True)
    try:
        yield rabbit
    finally:
        await rabbit.close()
        await delete(settings.amqp_url, topology)


@pytest.fixture(params=BUSES)
async def bus(request: pytest.FixtureRequest, settings: Settings) -> AsyncIterator[Bus]:
    topology = Topology(f"contract-{secrets.token_hex(4)}", shards=4)
    async with open_bus(request.param, settings, topology) as bus:
        yield bus


async def delete(url: str, t: Topology) -> None:
    connection = await aio_pika.connect(url)
    async with connection:
        channel = await connection.channel()
        names = [t.shard_queue(k) for k in range(t.shards)]
        for name in [*names, t.postings, t.bot_queue("x"), t.bot_actions("x")]:
            await channel.queue_delete(name)
        for exchange in (t.requests, t.updates, t.bots, t.postings, t.bot_actions("x")):
            await channel.exchange_delete(exchange)


async def take(bus: Bus, queue: str, count: int, *, ack: bool = True) -> list[bytes]:
    bodies: list[bytes] = []
    async with bus.consume(queue, prefetch=count) as deliveries:
        async for delivery in deliveries:
            bodies.append(delivery.body)
            if ack:
                await delivery.ack()
            if len(bodies) == count:
                break
    return bodies


async def test_requests_reach_their_tables_shard_in_order(bus: Bus) -> None:
    table = "t-contract"
    for i in range(20):
        await bus.request(table, f"{i}".encode())
    queue = bus.topology.shard_queue(shard_of(table, bus.topology.shards))
    assert await take(bus, queue, 20) == [f"{i}".encode() for i in range(20)]


async def test_unacknowledged_deliveries_come_back_first_and_in_order(bus: Bus) -> None:
    table = "t-redeliver"
    queue = bus.topology.shard_queue(shard_of(table, bus.topology.shards))
    for i in range(5):
        await bus.request(table, f"{i}".encode())
    assert await take(bus, queue, 2, ack=False) == [b"0", b"1"]
    await asyncio.sleep(0.2)  # the broker requeues once the consumer's channel is closed
    assert await take(bus, queue, 5) == [b"0", b"1", b"2", b"3", b"4"]


async def test_a_nack_requeues(bus: Bus) -> None:
    await bus.publish_posting(b"p1")
    async with bus.consume(bus.topology.postings) as deliveries:
        async for delivery in deliveries:
            await delivery.nack(requeue=True)
            break
    await asyncio.sleep(0.2)
    assert await take(bus, bus.topology.postings, 1) == [b"p1"]


async def test_updates_fan_out_to_the_tables_watchers_only(bus: Bus) -> None:
    first, second = await bus.updates_queue(), await bus.updates_queue()
    await first.watch("t-a")
    await second.watch("t-a")
    await second.watch("t-b")
    await bus.publish_updates(["t-a"], b"a1")
    await bus.publish_updates(["t-b"], b"b1")
    await bus.publish_updates(["t-c"], b"nobody")
    await bus.publish_updates(["t-c", "t-b", "t-a", "t-b"], b"cba")  # once to each watcher
    await second.unwatch("t-b")
    await bus.publish_updates(["t-b"], b"b2")
    await bus.publish_updates(["t-a"], b"a2")

    async def received(queue: UpdatesQueue, count: int) -> list[bytes]:
        bodies: list[bytes] = []
        async with queue.messages() as deliveries:
            async for delivery in deliveries:
                bodies.append(delivery.body)
                if len(bodies) == count:
                    return bodies
        return bodies

    assert await asyncio.wait_for(received(first, 3), 5) == [b"a1", b"cba", b"a2"]
    assert await asyncio.wait_for(received(second, 4), 5) == [b"a1", b"b1", b"cba", b"a2"]


async def test_bot_turns_and_depth(bus: Bus) -> None:
    await bus.declare_bot_queue("x")
    for i in range(3):
        await bus.publish_bot_turn("x", f"{i}".encode(), ttl_ms=60_000)
    await asyncio.sleep(0.2)
    assert await bus.depth(bus.topology.bot_queue("x")) == 3
    assert await take(bus, bus.topology.bot_queue("x"), 3) == [b"0", b"1", b"2"]
    assert await bus.depth("no-such-queue") == 0
    assert bus.connected


async def test_deliveries_say_who_published_them(bus: Bus, settings: Settings) -> None:
    """The broker (and the memory bus alike) stamps each message with its publisher's user."""
    table = "t-who"
    await bus.request(table, b"from a gateway")
    await bus.request(table, b"from a table")
    queue = bus.topology.shard_queue(shard_of(table, bus.topology.shards))
    async with bus.consume(queue, prefetch=2) as deliveries:
        users = []
        async for delivery in deliveries:
            users.append((delivery.body, delivery.user_id))
            await delivery.ack()
            if len(users) == 2:
                break
    me = url_user(settings.amqp_url)
    assert users == [(b"from a gateway", me), (b"from a table", me)]


async def test_bot_turns_expire_unanswered(bus: Bus) -> None:
    await bus.declare_bot_queue("x")
    await bus.publish_bot_turn("x", b"late", ttl_ms=1)
    await bus.publish_bot_turn("x", b"kept", ttl_ms=600_000)
    await until(lambda: bus.depth(bus.topology.bot_queue("x")), 1)
    assert await take(bus, bus.topology.bot_queue("x"), 1) == [b"kept"]


async def until(measure: Callable[[], Awaitable[int]], value: int, within: float = 30.0) -> None:
    deadline = asyncio.get_running_loop().time() + within
    while (now := await measure()) != value:
        assert asyncio.get_running_loop().time() < deadline, f"still {now}, not {value}"
        await asyncio.sleep(0.05)
