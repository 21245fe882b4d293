"""A running platform for the service tests: two table workers and a gateway."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import aio_pika
import pytest

from shared.settings import Settings
from tests.services.client import Player
from tests.services.cluster import Cluster


async def delete_topology(settings: Settings) -> None:
    t = settings.topology
    connection = await aio_pika.connect(settings.amqp_url)
    async with connection:
        channel = await connection.channel()
        names = [t.shard_queue(k) for k in range(t.shards)]
        names += [t.postings] + [t.bot_queue(level) for level in ("easy", "medium", "hard")]
        for name in names:
            await channel.queue_delete(name)
        for exchange in (t.requests, t.updates, t.bots):
            await channel.exchange_delete(exchange)


@pytest.fixture(scope="session")
async def cluster(
    settings: Settings, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Cluster]:
    logs: Path = tmp_path_factory.mktemp("logs")
    platform = Cluster(settings, logs)
    try:
        await platform.start_ledger()
        platform.start_worker()
        platform.start_worker()
        platform.start_bots()
        platform.start_bots()
        await platform.start_gateway()
        await platform.settled(workers=2)
        yield platform
    finally:
        platform.stop()
        await delete_topology(settings)


@pytest.fixture
async def players(cluster: Cluster) -> AsyncIterator[list[Player]]:
    """Three signed-up, connected players; more with ``new_player``."""
    made = [Player(cluster.base, name) for name in ("Alice", "Bob", "Carol")]
    for player in made:
        await player.sign_up()
        await player.connect()
    yield made
    for player in made:
        await player.close()
