"""The database a gateway's own state lives in, for the tests of its stores: the test session's
PostgreSQL database, an SQLite file, or none (the stores in memory). What it opens is a table
store, where the gateway finds its database (``services.gateway.store_database``)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from services.table.store import TableStore, connect_pool
from services.table.store_sqlite import SqliteTableStore
from shared.settings import Settings
from shared.sqlite import Database

KINDS = ("postgres", "sqlite", "memory")


@contextlib.asynccontextmanager
async def store_database(
    kind: str, settings: Settings, folder: Path, size: int = 2
) -> AsyncIterator[TableStore | SqliteTableStore | None]:
    """A table store on ``kind``'s database (``KINDS``; ``None`` for memory), closed on exit;
    not migrated: each test migrates what it needs."""
    if kind == "postgres":
        pool = await connect_pool(settings.database_url, size=size)
        try:
            yield TableStore(pool)
        finally:
            await pool.close()
    elif kind == "sqlite":
        db = await Database.open(folder / "gateway.sqlite3")
        try:
            yield SqliteTableStore(db)
        finally:
            await db.close()
    else:
        yield None


async def stored_rows(store: object, table: str) -> list[dict[str, Any]]:
    """Every row of one of the gateway's tables as the database holds it (none in memory)."""
    if isinstance(store, TableStore):
        return [dict(r) for r in await store.pool.fetch(f"SELECT * FROM gateway.{table}")]
    if isinstance(store, SqliteTableStore):
        async with store.db.read() as conn:
            rows = await conn.execute_fetchall(f"SELECT * FROM gateway_{table}")
        return [dict(r) for r in rows]
    return []
