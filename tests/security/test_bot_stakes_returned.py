"""A table that closes with bots seated gives their chips back to the house, so the house's
report (``balance``, ``held_by_bots``) counts only the bots still seated: in one process over
the in-memory bus, the SQLite ledger and a real table worker (the embedded mode's parts).

Before, every bot seat ever seated kept its 4,000¢ of the house's for good."""

from __future__ import annotations

import asyncio
import contextlib
import time
from pathlib import Path

from services.ledger.app import consume
from services.ledger.ledger_sqlite import SqliteLedger
from services.ledger.metrics import LedgerMetrics
from services.table.store_sqlite import SqliteTableStore
from shared.bus import Topology
from shared.memory_bus import MemoryBus
from shared.sqlite import Database
from tests.in_process import create_table, running_worker, until_logged

TABLE = "t-closing"


async def test_a_table_closed_with_bots_returns_their_stakes(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "swick.sqlite3")
    try:
        store = SqliteTableStore(db)
        await store.migrate(4)
        await store.register_bot("medium", "swick")
        ledger = SqliteLedger(db, 4000)
        topology = Topology("stakes", 4)
        bus = MemoryBus(topology)
        ledger_user = bus.as_user(topology.user("ledger"))
        consumer = asyncio.create_task(
            consume(ledger_user, ledger, LedgerMetrics(), topology.user("table"))
        )
        async with running_worker(store, bus):
            before = await ledger.house()
            # The second bot is nobody's: the table seats the host and the first bot, then
            # cannot be set up as asked, and closes.
            create = create_table(TABLE, "ann", bots={1: "medium", 2: "nobodys"})
            gateway = bus.as_user(bus.topology.user("gateway"))
            await gateway.request(TABLE, create.model_dump_json().encode())
            await until_logged(store, TABLE, "ann/create:close")  # the table closed
            deadline = time.monotonic() + 30
            bot = f"bot:{TABLE}:1"
            while (await ledger.reconciliation(TABLE))["postings_applied"] < 1:
                assert time.monotonic() < deadline, "the bot's stake never came back"
                await asyncio.sleep(0.01)
            codes = [t["code"] for t in await ledger.history(bot)]
            assert codes == ["unstake", "stake"]  # newest first
            assert await ledger.balance(bot) == 0
            after = await ledger.house()
            assert after["staked"] - before["staked"] == 4000
            assert after["returned"] - before["returned"] == 4000
            for square in ("balance", "held_by_bots", "result"):
                assert after[square] == before[square], square
            health = await ledger.check()
            assert health.ok and health.dead_letters == 0
    finally:
        consumer.cancel()
        with contextlib.suppress(BaseException):
            await consumer
        await db.close()
