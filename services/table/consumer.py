"""The shards' consumers and the batches: the requests waiting across the worker's shards are
taken together (``batch.py``): decided in turn, logged in one transaction, then answered and
acknowledged together. A request is acknowledged to the broker only once it is handled."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from services.table.batch import Batch, Item
from services.table.context import WorkerContext
from services.table.publisher import Publisher
from services.table.storage import DuplicateAction, Fenced, SeatConflict
from shared.bus import Delivery
from shared.startup import described
from shared.supervise import retryable

log = logging.getLogger("swick.table")

PREFETCH = 8  # requests a shard's consumer holds before acknowledging the first
BATCH_LIMIT = 64  # requests in one batch: bounds how long one commit holds every shard up

Handle = Callable[[int, Delivery], Awaitable[None]]


@dataclass(eq=False)
class ShardConsumer:
    ctx: WorkerContext
    handle: Handle
    publisher: Publisher
    # shards with a request in the batch being handled
    busy: set[int] = field(init=False, default_factory=set)
    # shards to give up once their requests are handled
    leaving: set[int] = field(init=False, default_factory=set)
    between_batches: asyncio.Event = field(init=False, default_factory=asyncio.Event)
    # from every shard, in order
    _inbox: asyncio.Queue[Item] = field(init=False, default_factory=asyncio.Queue)

    async def consume(self, shard: int, epoch: int) -> None:
        # A few requests in hand per shard: the rest wait in the broker, so a busy worker's
        # event loop stays short enough to renew its leases in time.
        queue = self.ctx.bus.topology.shard_queue(shard)
        async with self.ctx.bus.consume(queue, prefetch=PREFETCH) as deliveries:
            async for delivery in deliveries:
                self._inbox.put_nowait(Item(shard, epoch, delivery))

    def _current(self, item: Item) -> bool:
        """Whether ``item``'s shard is still ours under the lease it came with (if not, its
        channel is closed or closing, and the broker gives it to the shard's next owner)."""
        return self.ctx.owned.get(item.shard) == item.epoch and item.shard not in self.leaving

    async def process(self) -> None:
        """Take what waits (never waiting for more), as one batch."""
        metrics = self.ctx.metrics
        while True:
            items = [await self._inbox.get()]
            while len(items) < BATCH_LIMIT and not self._inbox.empty():
                items.append(self._inbox.get_nowait())
            items = [item for item in items if self._current(item)]
            if not items:
                continue
            received = time.perf_counter()
            self.busy = {item.shard for item in items}
            self.between_batches.clear()
            try:
                if len(items) == 1 or not await self._batched(items):
                    for item in items:
                        if self._current(item):
                            await self._one(item)
            finally:
                self.busy = set()
                self.between_batches.set()
            metrics.batch_commands.observe(len(items))
            elapsed = time.perf_counter() - received
            for _ in items:
                metrics.command_seconds.observe(elapsed)

    async def _batched(self, items: list[Item]) -> bool:
        """Handle ``items`` as one batch; false if its commit failed, with nothing of it kept
        in memory or sent (they are to be handled one by one)."""
        batch = self.ctx.batch = Batch()
        try:
            for item in items:
                await self.handle(item.shard, item.delivery)
            if batch.staged:
                appends = batch.appends()
                batch.committed(await self.ctx.store.append_batch(self.ctx.worker_id, appends))
        except Exception as error:
            batch.roll_back()
            if not isinstance(error, Fenced | DuplicateAction | SeatConflict) and not retryable(
                error
            ):
                raise
            log.info("a batch failed, handling its requests one by one: %s", described(error))
            return False
        finally:
            self.ctx.batch = None
        async with self.publisher.bundled():
            for send in batch.sends:
                await send()
        last: dict[int, Delivery] = {}
        for item in items:
            last[item.shard] = item.delivery
        for delivery in last.values():
            await delivery.ack(multiple=True)  # each shard's channel: all of it up to there
        return True

    async def _one(self, item: Item) -> None:
        """Handle one request and commit it alone."""
        shard, delivery = item.shard, item.delivery
        try:
            async with self.publisher.bundled():
                await self.handle(shard, delivery)
            await delivery.ack()
        except Fenced:
            log.warning("fenced out of a shard", extra={"shard": shard})
            self.ctx.metrics.shards_lost.inc()
            self.ctx.drop(shard)  # closing the channel requeues the delivery
        except Exception as error:
            if not retryable(error):
                raise
            # The database failed us half way through a request (its write may or may not
            # have committed): give the shard up, with its tables' state in memory; the lease
            # loop takes it again and reloads them from the log, and the request, requeued,
            # is applied then (or found a duplicate).
            log.warning(
                "the database failed a request; retaking the shard: %s",
                described(error),
                extra={"shard": shard},
            )
            self.ctx.metrics.shards_lost.inc()
            self.ctx.drop(shard)
            with contextlib.suppress(Exception):
                await self.ctx.store.release(self.ctx.worker_id, shard)
