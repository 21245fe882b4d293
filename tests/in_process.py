"""A table worker in the test's own process, over the in-memory bus and one SQLite file (the
embedded mode's parts), for tests that drive it request by request."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from services.ledger.ledger_sqlite import SqliteLedger
from services.local_wallets import LocalWallets
from services.table.store_sqlite import SqliteTableStore
from services.table.worker import TableWorker
from shared.memory_bus import MemoryBus

READY_WITHIN = 30.0


@contextlib.asynccontextmanager
async def running_worker(store: SqliteTableStore, bus: MemoryBus) -> AsyncIterator[TableWorker]:
    """A worker for ``store`` (migrated) on ``bus``, as the table's user, with the ledger in
    the same file; ready inside the block, stopped after it."""
    ledger = SqliteLedger(store.db, 4000)
    await ledger.migrate()
    table_user = bus.as_user(bus.topology.user("table"))
    worker = TableWorker(table_user, store, LocalWallets(ledger), lease_ttl=30, tick=0.05)
    running = asyncio.create_task(worker.run())
    try:
        await asyncio.wait_for(worker.ready.wait(), READY_WITHIN)
        yield worker
    finally:
        running.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await running


async def logged(store: SqliteTableStore, table_id: str) -> list[str]:
    """The action ids in ``table_id``'s event log, in order."""
    async with store.db.read() as conn:
        rows = await conn.execute_fetchall(
            "SELECT action_id FROM tables_events WHERE table_id = ? ORDER BY seq", (table_id,)
        )
    return [row["action_id"] for row in rows]
