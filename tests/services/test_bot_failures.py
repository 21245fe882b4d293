"""A bots service outlives its strategies' bugs and its broker's hiccups.

A bots service runs here in-process against the real broker, as a registered bot of the
test's own, with a strategy made for the test (the input: a strategy that raises, one that
answers illegally); the tables are the real services of the cluster.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import threading
import time
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

import aio_pika
import pytest

from services.benchmarks.engine import seated_table
from services.bots.levels import Easy
from services.bots.service import BotService
from services.bots.strategy import StrategyFactory
from services.broker import register_bot
from services.load.platform import answering, free_port
from services.serve import built_in_bots
from shared import messages as m
from shared.broker import administrator
from shared.bus import RabbitBus
from shared.games.swick import actions as ac
from shared.games.swick.codec import CODEC
from shared.games.swick.legal import to_act
from shared.games.swick.views import SwickView, view_for
from tests.services.cluster import Cluster
from tests.services.database import timeouts
from tests.services.play import bots_playing


class Raising:
    """A strategy with a bug: it raises on every decision but the ready-up (so that it is
    dealt in, and its bug meets every kind of decision)."""

    def __init__(self, rng: random.Random) -> None:
        self.calls = 0

    def choose(self, view: SwickView, legal: Sequence[ac.Action]) -> ac.Action:
        self.calls += 1
        if ac.Ready() in legal:
            return ac.Ready()
        raise RuntimeError("a bug in the strategy")


class Illegal:
    """A strategy that answers with a card nobody holds, but for the ready-up."""

    def __init__(self, rng: random.Random) -> None:
        self.calls = 0

    def choose(self, view: SwickView, legal: Sequence[ac.Action]) -> ac.Action:
        self.calls += 1
        return ac.Ready() if ac.Ready() in legal else ac.PlayCard(64)


class HangingOnce(Easy):
    """The first instance never answers (until the test lets it); the later ones play."""

    instances: ClassVar[list[HangingOnce]] = []
    released = threading.Event()

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self.hangs = not HangingOnce.instances
        HangingOnce.instances.append(self)

    def choose(self, view: SwickView, legal: Sequence[ac.Action]) -> ac.Action:
        if self.hangs:
            HangingOnce.released.wait()
        return super().choose(view, legal)


class Counting(Easy):
    """Any legal action; counts its calls."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self.calls = 0

    def choose(self, view: SwickView, legal: Sequence[ac.Action]) -> ac.Action:
        self.calls += 1
        return super().choose(view, legal)


async def new_bot(cluster: Cluster) -> tuple[str, str]:
    """A bot account of this test: (name, broker URL)."""
    settings = cluster.settings
    name = f"t-{secrets.token_hex(4)}"
    url = await register_bot(settings, name, "Tests", administrator(settings.rabbitmq_api))
    return name, url


async def eventually(check: Callable[[], bool], within: float = 120.0) -> None:
    """Wait until ``check()`` holds (a generous deadline, not a measure of speed)."""
    deadline = time.monotonic() + within
    while not check():
        if time.monotonic() > deadline:
            raise TimeoutError("the condition never held")
        await asyncio.sleep(0.05)


@contextlib.asynccontextmanager
async def serving(
    cluster: Cluster,
    bots: Mapping[str, tuple[str, StrategyFactory]],
    clock: Callable[[], float] = time.time,
    *,
    wait_ready: bool = True,
    decision_limit_s: float = 10.0,
) -> AsyncIterator[BotService]:
    """A bots service for ``bots`` (name -> (broker URL, strategy)) in this process."""
    topology = cluster.settings.topology
    buses = {name: await RabbitBus.connect(url, topology) for name, (url, _) in bots.items()}
    factories = {name: factory for name, (_, factory) in bots.items()}
    service = BotService(
        buses, factories, think_ms=0, clock=clock, decision_limit_s=decision_limit_s
    )
    task = asyncio.create_task(service.run())
    try:
        if wait_ready:
            await eventually(service.ready)
        yield service
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        for bus in buses.values():
            await bus.close()


def sample(service: BotService, metric: str, **labels: str) -> float:
    return service.metrics.registry.get_sample_value(metric, labels) or 0.0


def failures_logged(records: Sequence[logging.LogRecord], table: str) -> list[logging.LogRecord]:
    return [
        r
        for r in records
        if r.name == "swick.bots" and getattr(r, "table", None) == table and "strategy" in r.msg
    ]


@pytest.mark.parametrize(("strategy", "kind"), [(Raising, "error"), (Illegal, "illegal")])
async def test_a_failing_strategy_gets_the_default_and_the_table_plays_on(
    cluster: Cluster,
    caplog: pytest.LogCaptureFixture,
    strategy: type[Raising] | type[Illegal],
    kind: str,
) -> None:
    name, url = await new_bot(cluster)
    async with serving(cluster, {name: (url, strategy)}) as service:
        bots = {"1": name, "2": "easy", "3": "easy"}
        async with bots_playing(cluster.base, bots, timer_seconds=30) as (_, table):
            # Every one of the bot's decisions failed, and the seat played the default at
            # once: the timer never had to decide for it.
            assert not await timeouts(cluster.settings, table)
            failing = service.strategies[name]
            assert isinstance(failing, strategy) and failing.calls > 0
            assert service.turns_played > 0
            # Logged once a failure, with the table and seat (records and the counter move
            # together, in the event loop; the strategy's own count may be one ahead).
            records = failures_logged(caplog.records, table)
            counted = sample(service, "swick_bot_strategy_failures_total", bot=name, kind=kind)
            assert len(records) == counted > 0
            assert {(r.seat, r.bot) for r in records} == {(1, name)}  # type: ignore[attr-defined]
            seqs = [r.seq for r in records]  # type: ignore[attr-defined]
            assert len(set(seqs)) == len(seqs)


def turn(name: str, table: str, seq: int, deadline_ms: int | None) -> bytes:
    """A bot turn as a table sends it: the view of the seat to act at a dealt table."""
    state = seated_table(3, seed=1)
    seat = to_act(state)[0]
    view = replace(view_for(state, seat), seq=seq, deadline=deadline_ms)
    message = m.BotTurn(
        table_id=table,
        seat=seat,
        seq=seq,
        bot=name,
        player_id="bench-0",
        view=CODEC.dump_view(view),
    )
    return message.model_dump_json().encode()


@contextlib.asynccontextmanager
async def as_the_tables(cluster: Cluster) -> AsyncIterator[RabbitBus]:
    bus = await RabbitBus.connect(cluster.settings.amqp_url, cluster.settings.topology)
    try:
        yield bus
    finally:
        await bus.close()


async def test_stale_turns_are_dropped_unanswered(cluster: Cluster) -> None:
    name, url = await new_bot(cluster)
    now = 1_000_000.0
    table = f"gone-{secrets.token_hex(4)}"
    async with (
        as_the_tables(cluster) as tables,
        serving(cluster, {name: (url, Counting)}, clock=lambda: now) as service,
    ):
        # Its deadline passed by the service's clock: the table decides for the seat.
        await tables.publish_bot_turn(
            name, turn(name, table, 5, int(now * 1000) - 1), ttl_ms=60_000
        )
        await eventually(lambda: sample(service, "swick_bot_stale_turns_total", bot=name) == 1)
        # A turn in time is answered; an older one for the same seat, coming after it, is not.
        await tables.publish_bot_turn(
            name, turn(name, table, 9, int(now * 1000) + 60_000), ttl_ms=60_000
        )
        await eventually(lambda: service.turns_played == 1)
        await tables.publish_bot_turn(
            name, turn(name, table, 7, int(now * 1000) + 60_000), ttl_ms=60_000
        )
        await eventually(lambda: sample(service, "swick_bot_stale_turns_total", bot=name) == 2)
        assert service.turns_played == 1
        counting = service.strategies[name]
        assert isinstance(counting, Counting) and counting.calls == 1  # stale turns cost nothing


async def test_a_turn_that_cannot_parse_is_set_aside_and_the_others_flow(
    cluster: Cluster, caplog: pytest.LogCaptureFixture
) -> None:
    name, url = await new_bot(cluster)
    table = f"gone-{secrets.token_hex(4)}"
    async with as_the_tables(cluster) as tables:
        for body in (b"not json", b'{"table_id": 1}'):
            await tables.publish_bot_turn(name, body, ttl_ms=60_000)
        await tables.publish_bot_turn(name, turn(name, table, 3, None), ttl_ms=60_000)
        async with serving(cluster, {name: (url, Counting)}) as service:
            await eventually(lambda: service.turns_played == 1)
            await eventually(
                lambda: sample(service, "swick_bot_turns_set_aside_total", bot=name) == 2
            )
            # Set aside, not put back: the queue is empty, and stays so.
            assert await tables.depth(cluster.settings.topology.bot_queue(name)) == 0
            await tables.publish_bot_turn(name, turn(name, table, 4, None), ttl_ms=60_000)
            await eventually(lambda: service.turns_played == 2)
            assert sample(service, "swick_bot_turns_set_aside_total", bot=name) == 2
    set_aside = [r for r in caplog.records if r.name == "swick.bots" and "set aside" in r.msg]
    assert len(set_aside) == 2 and all("parse" in r.getMessage() for r in set_aside)


async def test_not_ready_while_not_consuming_and_back_when_it_can(cluster: Cluster) -> None:
    """The bot's queue is missing: the consumer retries with a backoff, the service says it
    is not ready; the queue is back: it consumes again, and is ready."""
    name, url = await new_bot(cluster)
    topology = cluster.settings.topology
    connection = await aio_pika.connect(cluster.settings.amqp_url)
    async with connection:
        channel = await connection.channel()
        await channel.queue_delete(topology.bot_queue(name))
        async with serving(cluster, {name: (url, Counting)}, wait_ready=False) as service:
            await eventually(
                lambda: sample(service, "swick_bot_consumer_restarts_total", bot=name) >= 2
            )
            assert not service.ready()
            queue = await channel.declare_queue(topology.bot_queue(name), durable=True)
            await queue.bind(topology.bots, name)
            await eventually(service.ready)
            async with as_the_tables(cluster) as tables:
                await tables.publish_bot_turn(name, turn(name, "gone", 2, None), ttl_ms=60_000)
                await eventually(lambda: service.turns_played == 1)


def test_only_names_the_built_in_bots_served() -> None:
    assert list(built_in_bots("hard")) == ["hard"]
    assert list(built_in_bots("easy, medium")) == ["easy", "medium"]
    assert list(built_in_bots(None)) == ["easy", "medium", "hard"]
    with pytest.raises(ValueError, match="--only"):
        built_in_bots("hardest")


async def consumers(cluster: Cluster, *bots: str) -> dict[str, int]:
    connection = await aio_pika.connect(cluster.settings.amqp_url)
    async with connection:
        channel = await connection.channel()
        counts = {}
        for bot in bots:
            queue = await channel.declare_queue(
                cluster.settings.topology.bot_queue(bot), passive=True
            )
            result: Any = queue.declaration_result
            counts[bot] = int(result.consumer_count)
        return counts


async def test_serve_bots_only_hard_serves_the_hard_bot_alone(cluster: Cluster) -> None:
    """With the hard bot's broker user alone, it is ready: it consumes no other bot's turns
    (it could not: the broker would refuse them)."""
    before = await consumers(cluster, "easy", "medium", "hard")
    settings = cluster.settings
    port = free_port()
    env = {
        variable: "" for variable in cluster.env("bots") if variable.startswith("SWICK_AMQP_URL_")
    }
    env["SWICK_AMQP_URL"] = settings.amqp_url_for("bot-hard")
    process = cluster.spawn("bots", "bots", "--only", "hard", "--port", str(port), env=env)
    try:
        await answering(f"http://127.0.0.1:{port}", "/readyz", process=process)
        after = await consumers(cluster, "easy", "medium", "hard")
        assert after == before | {"hard": before["hard"] + 1}
    finally:
        cluster.kill(process)


async def test_a_strategy_that_hangs_gets_the_default_and_a_new_instance(
    cluster: Cluster, caplog: pytest.LogCaptureFixture
) -> None:
    name, url = await new_bot(cluster)
    table = f"gone-{secrets.token_hex(4)}"
    try:
        async with (
            as_the_tables(cluster) as tables,
            serving(cluster, {name: (url, HangingOnce)}, decision_limit_s=3) as service,
        ):
            await tables.publish_bot_turn(name, turn(name, table, 3, None), ttl_ms=60_000)
            await eventually(lambda: service.turns_played == 1)
            assert (
                sample(service, "swick_bot_strategy_failures_total", bot=name, kind="timeout") == 1
            )
            assert service.abandoned_threads == 1
            assert service.strategies[name] is HangingOnce.instances[1]
            # The next decision goes to the new instance, on a new thread.
            await tables.publish_bot_turn(name, turn(name, table, 4, None), ttl_ms=60_000)
            await eventually(lambda: service.turns_played == 2)
            assert (
                sample(service, "swick_bot_strategy_failures_total", bot=name, kind="timeout") == 1
            )
    finally:
        HangingOnce.released.set()
    [record] = [r for r in failures_logged(caplog.records, table) if "within" in r.msg]
    assert (record.seat, record.seq) == (to_act(seated_table(3, seed=1))[0], 3)  # type: ignore[attr-defined]


class AlwaysHanging(Easy):
    released = threading.Event()

    def choose(self, view: SwickView, legal: Sequence[ac.Action]) -> ac.Action:
        AlwaysHanging.released.wait()
        return super().choose(view, legal)


async def test_a_service_whose_strategy_keeps_hanging_stops_for_a_clean_restart(
    cluster: Cluster,
) -> None:
    """Each hung decision still gets the seat its default; past three hung threads the service
    stops with an error (its process exits, for its supervisor to start a clean one)."""
    name, url = await new_bot(cluster)
    bus = await RabbitBus.connect(url, cluster.settings.topology)
    service = BotService({name: bus}, {name: AlwaysHanging}, think_ms=0, decision_limit_s=0.2)
    try:
        async with as_the_tables(cluster) as tables:
            for _ in range(4):  # four tables, so that none of the turns is stale
                table = f"gone-{secrets.token_hex(4)}"
                await tables.publish_bot_turn(name, turn(name, table, 3, None), ttl_ms=60_000)
        with pytest.raises(ExceptionGroup) as stopped:
            await asyncio.wait_for(service.run(), 120)
        assert stopped.group_contains(RuntimeError, match="hung")
        assert service.turns_played == 4
        assert sample(service, "swick_bot_strategy_failures_total", bot=name, kind="timeout") == 4
    finally:
        AlwaysHanging.released.set()
        await bus.close()
