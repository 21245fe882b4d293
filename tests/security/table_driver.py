"""Driving one table over the embedded mode's parts (real table workers, the in-memory bus, one
SQLite file) on a clock the test moves: the test opens tables as the gateway, lets deadlines
pass and sends the table's ticks itself (as a worker's timer would send them)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from services.table.store_sqlite import SqliteTableStore
from services.table.tables import replayed
from shared import messages as m
from shared.memory_bus import MemoryBus
from tests.clock import Clock
from tests.in_process import create_table, until_logged

WITHIN = 30.0  # seconds a worker has to handle what was sent (generous, not a measure)
# The person at these tables lets every decision time out, away as the rules count it: the
# workers here wait this long (s) before closing such a table, so its game plays to the end.
NEVER_ABANDONED = 10.0**9


class TableDriver:
    def __init__(self, bus: MemoryBus, store: SqliteTableStore, clock: Clock) -> None:
        self.bus = bus
        self.store = store
        self.clock = clock
        self.gateway = bus.as_user(bus.topology.user("gateway"))
        self.table = bus.as_user(bus.topology.user("table"))

    async def until_logged(self, table: str, action_id: str) -> list[str]:
        """The table's logged action ids, once ``action_id`` is among them."""
        return await until_logged(self.store, table, action_id)

    async def state(self, table: str) -> Any:
        """The table's state, replayed from its log as a worker loads it."""
        stored = await self.store.load(table)
        assert stored is not None
        return replayed(stored)

    async def open(
        self, table: str, name: str, settings: dict[str, Any], bots: dict[int, str]
    ) -> None:
        create = create_table(table, "alice", game=name, settings=settings, bots=bots, start=True)
        await self.gateway.request(table, create.model_dump_json().encode())
        await self.until_logged(table, "alice/create:start")

    async def time_out(self, table: str) -> None:
        """Let the pending decision's deadline pass, and wait for the table to decide it and
        do what follows (a seat filled, the next deadline armed)."""
        row = await self.store.table(table)
        assert row is not None
        assert row.deadline is not None, f"the table waits with no deadline: {row.phase}, {row.seq}"
        self.clock.now = max(self.clock.now, row.deadline / 1000)
        tick = m.Tick(table_id=table, request_id=f"tick:{row.seq}", seq=row.seq)
        await self.table.request(table, tick.model_dump_json().encode())
        deadline = time.monotonic() + WITHIN
        while (after := await self.store.table(table)) is None or not (
            after.seq != row.seq and (after.deadline is not None or after.phase == "ended")
        ):
            assert time.monotonic() < deadline, "the deadline passed and the table stands still"
            await asyncio.sleep(0.01)
