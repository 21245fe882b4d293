"""Both buses bound their queues alike: a publish to a full shard queue is refused with
``QueueFull`` (never an older message dropped), and a bot's actions go to its own bounded
queue, where a flood is refused without touching any shard."""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator

import pytest

from shared.bus import Bus, QueueFull, Topology, shard_of
from shared.memory_bus import MemoryBus
from shared.settings import Settings
from tests.contract.test_bus import BUSES, open_bus, take

LIMIT = 5


@pytest.fixture(params=BUSES)
async def bus(request: pytest.FixtureRequest, settings: Settings) -> AsyncIterator[Bus]:
    topology = Topology(f"bounds-{secrets.token_hex(4)}", shards=2, shard_limit=LIMIT)
    async with open_bus(request.param, settings, topology) as bus:
        yield bus


async def test_a_full_shard_queue_refuses_the_next_request_and_keeps_the_rest(bus: Bus) -> None:
    table = "t-full"
    for i in range(LIMIT):
        await bus.request(table, f"{i}".encode())
    with pytest.raises(QueueFull):
        await bus.request(table, b"one too many")
    queue = bus.topology.shard_queue(shard_of(table, bus.topology.shards))
    assert await take(bus, queue, 1) == [b"0"]
    await bus.request(table, b"room again")
    assert await take(bus, queue, LIMIT) == [b"1", b"2", b"3", b"4", b"room again"]


async def test_the_memory_bus_puts_a_bots_actions_in_its_own_bounded_queue() -> None:
    topology = Topology("bounds-memory", shards=2, bot_actions_limit=LIMIT)
    bus = MemoryBus(topology)
    bot = bus.as_user(topology.bot_user("spy"))
    for i in range(LIMIT):
        await bot.bot_action("t-any", f"{i}".encode())
    with pytest.raises(QueueFull):
        await bot.bot_action("t-any", b"flood")
    assert await bus.depth(topology.bot_actions("spy")) == LIMIT
    assert [await bus.depth(topology.shard_queue(k)) for k in range(2)] == [0, 0]
    with pytest.raises(PermissionError):  # only a bot's user has an actions queue
        await bus.as_user(topology.user("gateway")).bot_action("t-any", b"{}")
