"""The lease keeper: a worker's share of the shards.

Ownership is a lease per shard in PostgreSQL, renewed every ``tick``; a worker aims for its
share (shards / live workers), takes expired leases up to it and releases what is over it, so
adding a worker moves tables to it and a dead worker's tables move within a lease's time. The
shard queues have single-active-consumer on top, so only one process consumes each in order.
"""

from __future__ import annotations

import asyncio
import logging
import math
import zlib
from dataclasses import KW_ONLY, dataclass

from services.table.bot_turns import BotTurns
from services.table.consumer import ShardConsumer
from services.table.context import WorkerContext
from services.table.seating import seats_to_fill
from services.table.tables import load
from services.table.timers import Timers
from shared.startup import described
from shared.supervise import Backoff, retryable

log = logging.getLogger("swick.table")

QUEUE_CHECK_SECONDS = 5.0


@dataclass(eq=False)
class LeaseKeeper:
    ctx: WorkerContext
    consumer: ShardConsumer
    timers: Timers
    bot_turns: BotTurns
    _: KW_ONLY
    lease_ttl: float
    tick: float

    def _preference(self) -> list[int]:
        shards = self.ctx.shards
        start = zlib.crc32(self.ctx.worker_id.encode()) % shards
        return [(start + k) % shards for k in range(shards)]

    async def run(self, tasks: asyncio.TaskGroup) -> None:
        """Renew the leases every tick, through the database's passing trouble: while it is
        away the worker is not ready, and once its leases may have expired it gives up its
        shards (another worker may hold them now: fencing refuses our writes anyway)."""
        ctx = self.ctx
        backoff = Backoff()
        renewed = ctx.clock()
        while True:
            try:
                await self._round(tasks)
            except Exception as error:
                if not retryable(error):
                    log.exception("the lease loop failed; stopping")
                    raise
                ctx.ready.clear()
                if ctx.owned and ctx.clock() - renewed >= self.lease_ttl:
                    log.warning("the leases expired while the database was away")
                    for shard in list(ctx.owned):
                        ctx.metrics.shards_lost.inc()
                        ctx.drop(shard)
                pause = backoff.next()
                log.warning(
                    "could not renew the leases: %s; retrying in %.2f s", described(error), pause
                )
                await backoff.sleep(pause)
            else:
                renewed = ctx.clock()
                backoff.reset()
                await asyncio.sleep(self.tick)

    async def _round(self, tasks: asyncio.TaskGroup) -> None:
        ctx, store = self.ctx, self.ctx.store
        live = await store.heartbeat(ctx.worker_id, self.lease_ttl)
        kept = await store.renew(ctx.worker_id, ctx.owned, self.lease_ttl)
        for shard in set(ctx.owned) - kept:
            log.warning("lost the lease of a shard", extra={"shard": shard})
            ctx.metrics.shards_lost.inc()
            ctx.drop(shard)
        target = math.ceil(ctx.shards / max(live, 1))
        if len(ctx.owned) < target:
            for shard in self._preference():
                if len(ctx.owned) >= target:
                    break
                if shard in ctx.owned:
                    continue
                epoch = await store.acquire(shard, ctx.worker_id, self.lease_ttl)
                if epoch is not None:
                    await self._take(shard, epoch, tasks)
        elif len(ctx.owned) > target:
            for shard in sorted(ctx.owned, reverse=True)[: len(ctx.owned) - target]:
                log.info("handing a shard over", extra={"shard": shard, "workers": live})
                await self._hand_over(shard)
        ctx.ready.set()
        ctx.metrics.shards.set(len(ctx.owned))
        ctx.metrics.tables.set(len(ctx.tables))

    async def measure_queues(self) -> None:
        """Apart from the leases: a broker slow to answer must not delay their renewal."""
        ctx = self.ctx
        while True:
            await asyncio.sleep(QUEUE_CHECK_SECONDS)
            for shard in list(ctx.owned):
                name = ctx.bus.topology.shard_queue(shard)
                depth = await ctx.bus.depth(name)
                if shard in ctx.owned:  # a queue's depth comes from its owner alone
                    ctx.metrics.queue_depth.labels(name).set(depth)

    async def _take(self, shard: int, epoch: int, tasks: asyncio.TaskGroup) -> None:
        ctx = self.ctx
        log.info("took a shard", extra={"shard": shard, "epoch": epoch, "worker": ctx.worker_id})
        ctx.metrics.takeovers.inc()
        ctx.owned[shard] = epoch
        try:
            for table_id in await ctx.store.live_tables(shard):
                table = await load(ctx.store, ctx.tables, table_id)
                if table is not None:
                    self.timers.arm(table)
                    await self.bot_turns.wake(table, (), None)
                    if seats_to_fill(table):
                        # Through the shard, in order, once it is consumed: the table itself
                        # seats the bots its last owner did not get to.
                        self.timers.tick_due(self.timers.tick_now(table))
        except BaseException:
            ctx.drop(shard)  # never a shard held without its consumer: taken again later
            raise
        ctx.consumers[shard] = tasks.create_task(self.consumer.consume(shard, epoch))

    async def _hand_over(self, shard: int) -> None:
        """Give a shard up between two requests, never half way through one (a request cut
        short is redelivered and answered "duplicate" although its sender sent it once)."""
        ctx = self.ctx
        consumer = ctx.consumers.get(shard)
        if consumer is not None:
            self.consumer.leaving.add(shard)  # no later batch takes its requests
            while shard in self.consumer.busy:
                await self.consumer.between_batches.wait()
            consumer.cancel()  # closing its channel requeues what it holds, unhandled
            await asyncio.wait([consumer], timeout=10)
            self.consumer.leaving.discard(shard)
        ctx.drop(shard)
        await ctx.store.release(ctx.worker_id, shard)
