"""The table service's PostgreSQL storage: tables, event logs, snapshots, leases, the outbox.

The parts: ``store_leases`` (shard leases), ``store_tables`` (the tables' rows and seatings),
``store_log`` (event logs and the outbox), ``store_archive`` (records, replays, bots),
``store_forgetting`` (a deleted account's name forgotten), on the shared ``store_pool``.

Every write of a worker happens under its shard lease: the transaction first reads the lease row
with a share lock and checks the epoch, so a worker that lost its shard (even one that was
paused and woke up) cannot write, while a takeover waits for writes already under way.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from services.table.storage import (
    DuplicateAction,
    Fenced,
    SeatConflict,
    Stored,
    TableRow,
    Write,
)
from services.table.store_archive import GameArchive
from services.table.store_forgetting import LogForgetting
from services.table.store_leases import LeaseStore
from services.table.store_log import EventLog
from services.table.store_pool import (
    MIGRATIONS,
    SCHEMA,
)
from services.table.store_tables import TableDirectory
from shared.migrations import migrate
from shared.postgres import DEFAULT_DSN, connect_pool
from shared.settings import Settings

# The shared types live with the storage protocol (the read model's rows in shared.tables_read)
# and the pool helper in shared.postgres; importing them from here keeps working.
__all__ = [
    "DEFAULT_DSN",
    "MIGRATIONS",
    "SCHEMA",
    "DuplicateAction",
    "Fenced",
    "SeatConflict",
    "Stored",
    "TableRow",
    "TableStore",
    "Write",
    "connect_pool",
    "open_table_store",
]


class TableStore(LeaseStore, TableDirectory, EventLog, GameArchive, LogForgetting):
    """``TableStorage`` in PostgreSQL, one part per concept (each a module of its own)."""

    async def migrate(self, shards: int) -> None:
        async with self.pool.acquire() as conn:
            await migrate(conn, SCHEMA, MIGRATIONS)
            await conn.executemany(
                "INSERT INTO tables.leases (shard) VALUES ($1) ON CONFLICT DO NOTHING",
                [(shard,) for shard in range(shards)],
            )


@asynccontextmanager
async def open_table_store(settings: Settings, application: str) -> AsyncIterator[TableStore]:
    """A store on a pool of its own, migrated, closed on exit: how a service that runs alone
    opens the tables it reads (``shared.tables_read.OpenTableReads``: the gateway's)."""
    pool = await connect_pool(
        settings.database_url, size=settings.database_pool, application=application
    )
    try:
        store = TableStore(pool)
        await store.migrate(settings.shards)
        yield store
    finally:
        await pool.close()
