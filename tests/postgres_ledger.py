"""Migrated PostgreSQL ledgers for tests: on a database given (the session's, shared by tests
of unique ids), or in a database of its own, created and dropped around a test (for tests
that leave the books unhealthy, or count over all of them)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from services.ledger.ledger import Ledger
from services.load.platform import fresh_database
from shared.postgres import connect_pool
from shared.settings import Settings


@asynccontextmanager
async def migrated_ledger(dsn: str, grant: int, pool_size: int = 10) -> AsyncIterator[Ledger]:
    """The ledger on the database at ``dsn`` (granting ``grant`` to a new wallet), migrated."""
    pool = await connect_pool(dsn, size=pool_size)
    try:
        ledger = Ledger(pool, grant)
        await ledger.migrate()
        yield ledger
    finally:
        await pool.close()


@asynccontextmanager
async def fresh_ledger(
    settings: Settings, grant: int, *, label: str = "test", pool_size: int = 10
) -> AsyncIterator[Ledger]:
    """A migrated ledger in a new database named for ``label``, dropped after the block."""
    async with (
        fresh_database(settings.database_url, label) as dsn,
        migrated_ledger(dsn, grant, pool_size) as ledger,
    ):
        yield ledger
