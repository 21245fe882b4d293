"""What a table worker's parts share: its services and identity, the shards it owns (with
their consumers), the tables it holds, and the batch being decided."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from services.table.batch import Batch
from services.table.metrics import TableMetrics
from services.table.storage import TableStorage
from services.table.tables import LiveTable
from services.table.wallets import Wallets
from shared.bus import Bus


@dataclass
class WorkerContext:
    bus: Bus
    store: TableStorage
    wallets: Wallets
    worker_id: str
    clock: Callable[[], float] = time.time
    abandon_ms: int = 300_000  # a table nobody attends closes after this
    metrics: TableMetrics = field(default_factory=TableMetrics)
    owned: dict[int, int] = field(default_factory=dict)  # shard -> lease epoch
    consumers: dict[int, asyncio.Task[None]] = field(default_factory=dict)
    tables: dict[str, LiveTable] = field(default_factory=dict)
    batch: Batch | None = None  # while one is decided: its commit is still to come
    ready: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def shards(self) -> int:
        return self.bus.topology.shards

    def now_ms(self) -> int:
        return int(self.clock() * 1000)

    def drop(self, shard: int) -> None:
        """Forget a shard: its lease, its consumer, and its tables with their timers."""
        self.owned.pop(shard, None)
        self.metrics.queue_depth.remove(self.bus.topology.shard_queue(shard))
        consumer = self.consumers.pop(shard, None)
        if consumer is not None:
            consumer.cancel()
        for table_id, table in list(self.tables.items()):
            if table.row.shard == shard:
                if table.timer is not None:
                    table.timer.cancel()
                for check in table.presence_checks.values():
                    check.cancel()
                del self.tables[table_id]
