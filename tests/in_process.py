"""A table worker in the test's own process, over the in-memory bus and one SQLite file (the
embedded mode's parts), for tests that drive it request by request."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from typing import Any

from services.ledger.ledger_sqlite import SqliteLedger
from services.local_wallets import LocalWallets
from services.table.store_sqlite import SqliteTableStore
from services.table.worker import TableWorker
from shared import messages as m
from shared.memory_bus import MemoryBus

READY_WITHIN = 30.0
APPLIED_WITHIN = 30.0  # seconds a worker has to apply what was sent (generous, not a measure)


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


async def until_logged(store: SqliteTableStore, table_id: str, action_id: str) -> list[str]:
    """``table_id``'s logged action ids, once ``action_id`` is among them."""
    deadline = time.monotonic() + APPLIED_WITHIN
    while action_id not in (actions := await logged(store, table_id)):
        assert time.monotonic() < deadline, f"{action_id} was never applied"
        await asyncio.sleep(0.01)
    return actions


def create_table(
    table_id: str,
    host: str,
    *,
    game: str = "swick",
    settings: dict[str, Any] | None = None,
    invite_code: str = "code",
    bots: dict[int, str] | None = None,
    start: bool = False,
) -> m.CreateTable:
    """The gateway's request to open ``table_id`` for ``host`` (an id, whose name is it
    capitalised), by default a 4-seat Swick table."""
    return m.CreateTable(
        table_id=table_id,
        request_id=f"{host}/create",
        game=game,
        settings={"seats": 4} if settings is None else settings,
        invite_code=invite_code,
        host_id=host,
        host_name=host.title(),
        bots=bots or {},
        start=start,
    )
