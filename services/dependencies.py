"""What the services need before they start, as ``shared.startup`` dependencies.

The table worker does not wait for the ledger: it asks it only when a player sits down (and
says so to the player when it cannot), so games in progress need not stop with the ledger.
"""

from __future__ import annotations

import asyncpg

from shared.bus import RabbitBus
from shared.postgres import connect_pool
from shared.settings import Settings
from shared.startup import Dependency, Startup


def database(
    settings: Settings, *, size: int | None = None, application: str = "swick"
) -> Dependency[asyncpg.Pool]:
    """The database, in a pool of ``size`` connections (``SWICK_DATABASE_POOL`` by default)."""

    async def connect() -> asyncpg.Pool:
        return await connect_pool(
            settings.database_url, size=size or settings.database_pool, application=application
        )

    return Dependency("PostgreSQL", "SWICK_DATABASE_URL", settings.database_url, connect)


def broker(
    settings: Settings, role: str | None = None, *, robust: bool = True
) -> Dependency[RabbitBus]:
    """The broker as ``role``'s user (``bot-<name>``: ``SWICK_AMQP_URL_BOT_<NAME>`` if set),
    or as ``SWICK_AMQP_URL``'s."""
    url = settings.amqp_url if role is None else settings.amqp_url_for(role)
    variable = "SWICK_AMQP_URL" if role is None else settings.amqp_variable_for(role)

    async def connect() -> RabbitBus:
        return await RabbitBus.connect(url, settings.topology, robust=robust)

    return Dependency("RabbitMQ", variable, url, connect)


async def available(startup: Startup, settings: Settings) -> None:
    """Wait until the database and the broker let ``SWICK_DATABASE_URL``'s and
    ``SWICK_AMQP_URL``'s users in (for a service that connects in its app's lifespan)."""
    pool = await startup.wait_for(database(settings, size=1))
    await pool.close()
    bus = await startup.wait_for(broker(settings, robust=False))
    await bus.close()
