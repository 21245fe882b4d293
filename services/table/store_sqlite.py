"""The table service's storage in an embedded SQLite file (embedded mode): ``TableStorage``.

The same semantics as the PostgreSQL ``TableStore``, on a ``shared.sqlite.Database``: every
write of a worker runs in one ``BEGIN IMMEDIATE`` transaction (SQLite's single writer) that
first checks the shard's lease, so a worker that lost its shard writes nothing, and a takeover
(which bumps the epoch) happens before or after a write, never during it. The primary key
(table, seq) is the fencing token of the log, (table, action id) is unique, a player has one
seating over all tables; a failed check rolls the whole write back.
"""

from __future__ import annotations

from pathlib import Path

from services.table.store_sqlite_archive import SqliteGameArchive
from services.table.store_sqlite_db import (
    MIGRATIONS,
    SCOPE,
)
from services.table.store_sqlite_forgetting import SqliteLogForgetting
from services.table.store_sqlite_leases import SqliteLeaseStore
from services.table.store_sqlite_log import SqliteEventLog
from services.table.store_sqlite_tables import SqliteTableDirectory
from shared.sqlite import Database, run_many


class SqliteTableStore(
    SqliteLeaseStore,
    SqliteTableDirectory,
    SqliteEventLog,
    SqliteGameArchive,
    SqliteLogForgetting,
):
    """``TableStorage`` over an open ``Database`` (which a ``SqliteLedger`` may share)."""

    @classmethod
    async def open(cls, path: str | Path) -> SqliteTableStore:
        """A store on its own connection to the file at ``path``; ``close()`` it when done."""
        return cls(await Database.open(path))

    async def close(self) -> None:
        await self.db.close()

    async def migrate(self, shards: int) -> None:
        await self.db.migrate(SCOPE, MIGRATIONS)
        async with self.db.write() as conn:
            await run_many(
                conn,
                "INSERT INTO tables_leases (shard) VALUES (?) ON CONFLICT DO NOTHING",
                [(shard,) for shard in range(shards)],
            )
