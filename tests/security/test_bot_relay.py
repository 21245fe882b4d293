"""The relay of a bot's actions, on a clock the test controls: it forwards at its bucket's rate
and no faster, names the bot only in what it forwards itself, and drops (counting, logging
sampled) what is not the bot's own action."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import pytest

from services.table.bot_relay import BotRelay, sender
from services.table.metrics import TableMetrics
from services.table.storage import BotAccount
from shared import messages as m
from shared.bus import Topology
from shared.memory_bus import MemoryBus
from tests.clock import Clock

TOPOLOGY = Topology("relay", 2)


class Accounts:
    async def bot_accounts(self) -> list[BotAccount]:
        return [BotAccount("spy", "Mallory", "2026-01-01T00:00:00Z")]


def act(k: int, bot: str | None = None) -> bytes:
    request = m.Act(table_id="t-1", request_id=f"a-{k}", player_id="p", seq=0, action={}, bot=bot)
    return request.model_dump_json().encode()


async def settled(done: Callable[[], Awaitable[bool]]) -> None:
    """Let the relay run until ``done`` (it never sleeps on its own: the test's clock)."""
    for _ in range(100_000):
        if await done():
            return
        await asyncio.sleep(0)
    raise AssertionError("the relay never got there")


async def shard_depth(bus: MemoryBus) -> int:
    return sum([await bus.depth(TOPOLOGY.shard_queue(k)) for k in range(TOPOLOGY.shards)])


async def test_the_relay_forwards_a_burst_then_only_at_its_rate() -> None:
    bus, clock = MemoryBus(TOPOLOGY), Clock()
    metrics = TableMetrics()
    pauses: list[float] = []
    moved = asyncio.Event()

    async def sleep(seconds: float) -> None:  # time passes only when the test says
        pauses.append(seconds)
        await moved.wait()
        moved.clear()

    relay = BotRelay(
        bus.as_user(TOPOLOGY.user("table")),
        Accounts(),
        metrics,
        rate=10,
        burst=5,
        clock=clock,
        sleep=sleep,
    )
    spy = bus.as_user(TOPOLOGY.bot_user("spy"))
    for k in range(50):
        await spy.bot_action("t-1", act(k, bot="easy"))  # naming another bot changes nothing
    running = asyncio.create_task(relay.relay("spy"))

    async def paused(times: int) -> bool:
        return len(pauses) >= times

    await settled(lambda: paused(1))
    assert await shard_depth(bus) == 5  # the burst, then it waits for the clock
    clock.now += 0.5
    moved.set()
    await settled(lambda: paused(2))
    assert await shard_depth(bus) == 5 + 5  # half a second at 10 a second
    running.cancel()
    with pytest.raises(asyncio.CancelledError):
        await running
    shard = TOPOLOGY.shard_queue(0 if await bus.depth(TOPOLOGY.shard_queue(0)) else 1)
    async with bus.consume(shard) as deliveries:
        first = await anext(aiter(deliveries))
    forwarded = m.REQUEST.validate_json(first.body)
    assert isinstance(forwarded, m.Act) and forwarded.bot == "spy"
    assert first.user_id == TOPOLOGY.user("table")
    assert sender(forwarded, first.user_id, TOPOLOGY) == (TOPOLOGY.bot_user("spy"), "spy")
    # The same field from anyone else is nothing.
    gateway = TOPOLOGY.user("gateway")
    assert sender(forwarded, gateway, TOPOLOGY) == (gateway, None)


async def test_what_is_not_the_bots_own_action_is_dropped_counted_and_logged_sampled(
    caplog: pytest.LogCaptureFixture,
) -> None:
    bus, clock = MemoryBus(TOPOLOGY), Clock()
    metrics = TableMetrics()
    relay = BotRelay(
        bus.as_user(TOPOLOGY.user("table")),
        Accounts(),
        metrics,
        clock=clock,
    )
    spy = bus.as_user(TOPOLOGY.bot_user("spy"))
    join = m.Join(table_id="t-1", request_id="j", player_id="p", name="P")
    for _ in range(100):
        await spy.bot_action("t-1", join.model_dump_json().encode())
        await spy.bot_action("t-1", b"not json")
    caplog.set_level(logging.WARNING, "swick.table.bots")
    running = asyncio.create_task(relay.relay("spy"))

    async def drained() -> bool:
        return await bus.depth(TOPOLOGY.bot_actions("spy")) == 0

    await settled(drained)
    await asyncio.sleep(0)
    running.cancel()
    with pytest.raises(asyncio.CancelledError):
        await running
    assert await shard_depth(bus) == 0
    counted = metrics.bot_actions.labels("spy", "forbidden")._value.get()
    assert counted + metrics.bot_actions.labels("spy", "malformed")._value.get() >= 199
    assert len([r for r in caplog.records if "dropped a bot's action" in r.message]) == 1
