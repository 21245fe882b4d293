"""Fixtures for tests that talk to the real RabbitMQ and PostgreSQL.

Where each service is: the URL in the environment (``SWICK_AMQP_URL``,
``SWICK_DATABASE_URL``), else the local port; if neither answers and a Docker engine does, a
testcontainer; otherwise the tests that need it fail when ``REQUIRE_SERVICES=1`` (as in CI)
and are skipped elsewhere. Every test session gets its own database and bus namespace, so runs
never see each other's data.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator
from contextlib import ExitStack

import pytest
from hypothesis import settings as hypothesis_settings

from services.load.platform import Platform, isolated
from shared.bus import DEFAULT_URL
from shared.settings import DEFAULT_DATABASE, Settings, reachable

REQUIRED = os.environ.get("REQUIRE_SERVICES") == "1"

# No example may fail for taking long: how long one takes depends on the machine's load, not
# on the code. (Hypothesis's default allows 200 ms an example.)
hypothesis_settings.register_profile("swick", deadline=None)
hypothesis_settings.load_profile("swick")


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
    async with isolated(*service_urls, label="test") as fresh:
        yield fresh


@pytest.fixture(scope="session")
async def cluster(
    settings: Settings, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Platform]:
    """The platform as real processes, shared by the service and browser tests."""
    platform = Platform(settings, tmp_path_factory.mktemp("logs"))
    try:
        await platform.start()
        yield platform
    finally:
        platform.stop()


@pytest.fixture
async def whole_platform(cluster: Platform) -> None:
    """The session's platform with its standard lineup, whatever the test before it stopped
    (for modules to use, or to make autouse for a folder, as ``tests/services`` does)."""
    await cluster.restore()
