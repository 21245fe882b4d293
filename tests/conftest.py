"""Fixtures for tests that talk to the real RabbitMQ and PostgreSQL.

Where each service is: the URL in the environment (``SWICK_AMQP_URL``,
``SWICK_DATABASE_URL``), else the local port; if neither answers and a Docker engine does, a
testcontainer; otherwise the tests that need it fail when ``REQUIRE_SERVICES=1`` (as in CI)
and are skipped elsewhere. Every test session gets its own database and bus namespace, so runs
never see each other's data.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import socket
from collections.abc import AsyncIterator, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlparse

import aio_pika
import asyncpg
import pytest

from shared.bus import DEFAULT_URL
from shared.settings import DEFAULT_DATABASE, Settings, reachable

if TYPE_CHECKING:
    from tests.services.cluster import Cluster

REQUIRED = os.environ.get("REQUIRE_SERVICES") == "1"


def _container(kind: str, stack: ExitStack) -> str | None:
    """A throwaway service from testcontainers, when a Docker engine answers."""
    try:
        import docker  # noqa: PLC0415  (only where no local service runs)

        docker.from_env().ping()
    except Exception:
        return None
    if kind == "postgres":
        from testcontainers.postgres import PostgresContainer  # noqa: PLC0415

        pg = stack.enter_context(PostgresContainer("postgres:15"))
        return str(pg.get_connection_url()).replace("+psycopg2", "")
    from testcontainers.rabbitmq import RabbitMqContainer  # noqa: PLC0415

    mq = stack.enter_context(RabbitMqContainer("rabbitmq:3.12"))
    return f"amqp://guest:guest@{mq.get_container_host_ip()}:{mq.get_exposed_port(5672)}/"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture(scope="session")
def service_urls() -> Iterator[tuple[str, str]]:
    amqp = os.environ.get("SWICK_AMQP_URL", DEFAULT_URL)
    database = os.environ.get("SWICK_DATABASE_URL", DEFAULT_DATABASE)
    with ExitStack() as stack:
        if not reachable(amqp, 5672, 2):
            amqp = _container("rabbitmq", stack) or ""
        if not reachable(database, 5432, 2):
            database = _container("postgres", stack) or ""
        missing = [name for name, url in (("RabbitMQ", amqp), ("PostgreSQL", database)) if not url]
        if missing:
            message = f"{' and '.join(missing)} not reachable"
            if REQUIRED:
                pytest.fail(message)
            pytest.skip(message)
        yield amqp, database


@pytest.fixture(scope="session")
async def settings(service_urls: tuple[str, str]) -> AsyncIterator[Settings]:
    """Settings for a fresh database and bus namespace of this test session."""
    amqp, database = service_urls
    name = f"swick_test_{secrets.token_hex(4)}"
    admin = await asyncpg.connect(database)
    await admin.execute(f'CREATE DATABASE "{name}"')
    parsed = urlparse(database)
    dsn = parsed._replace(path=f"/{name}").geturl()
    yield Settings(
        amqp_url=amqp,
        database_url=dsn,
        namespace=f"test-{secrets.token_hex(4)}",
        shards=8,
        secret=secrets.token_hex(16),
        ledger_url=f"http://127.0.0.1:{free_port()}",
        bot_think_ms=50,
        admin_token=secrets.token_hex(8),
    )
    await asyncio.sleep(0)
    await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    await admin.close()


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
    """The platform as real processes, shared by the service and browser tests."""
    from tests.services.cluster import Cluster  # noqa: PLC0415  (it imports this module)

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
