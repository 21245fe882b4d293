"""A table worker: owns a share of the shards, and runs every table of the shards it owns.

It only composes its parts, each one concept, sharing one ``WorkerContext`` (its services,
the shards it owns and the tables it holds):

- ``leases.py``: the lease keeper, which takes and gives up shards;
- ``consumer.py``: the shards' consumers and the batches of their requests;
- ``host.py``: turns each request into commands (``checks.py``: who may ask what);
- ``commands.py``: decides a command, logs it under the lease, and follows it up;
- ``seating.py``, ``stakes.py``: the bots the table seats itself, the stacks from the ledger;
- ``presence_reports.py``: the players' connections, applied to their seats;
- ``publisher.py``, ``bot_turns.py``, ``postings.py``: views and refusals, bots' turns, and
  the ledger's postings with the outbox relay;
- ``timers.py``: the tables' deadlines; ``recorder.py``: finished games' records.

For each request: check who sent it, decide it with the game, log the events under the lease
(fenced), then publish each seat's view, wake the bots whose turn it is, send the postings from
the outbox and arm the table's deadline. A request is acknowledged to the broker only after
that.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import time
from collections.abc import Callable

from services.table.bot_relay import BotRelay
from services.table.bot_turns import BotTurns
from services.table.commands import Commands
from services.table.consumer import ShardConsumer
from services.table.context import WorkerContext
from services.table.host import TableHost
from services.table.leases import LeaseKeeper
from services.table.postings import PostingsPublisher
from services.table.presence_reports import PresenceReports
from services.table.publisher import Publisher
from services.table.recorder import Recorder
from services.table.seating import Seating
from services.table.stakes import Stakes
from services.table.storage import TableStorage
from services.table.timers import Timers
from services.table.wallets import Wallets
from shared.bus import DEFAULT_BOT_TURN_TTL_MS, Bus
from shared.supervise import supervise

log = logging.getLogger("swick.table")


class TableWorker:
    def __init__(
        self,
        bus: Bus,
        store: TableStorage,
        wallets: Wallets,
        *,
        worker_id: str | None = None,
        lease_ttl: float = 1.5,
        tick: float = 0.4,
        clock: Callable[[], float] = time.time,
        bot_turn_ttl_ms: int = DEFAULT_BOT_TURN_TTL_MS,
        abandon_after: float = 300.0,
        host_tables: int | None = 3,
    ) -> None:
        ctx = self.ctx = WorkerContext(
            bus,
            store,
            wallets,
            worker_id or f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(2)}",
            clock,
            int(abandon_after * 1000),  # a table nobody attends closes after this
        )
        self.bus, self.store, self.wallets = bus, store, wallets
        self.worker_id = ctx.worker_id
        self.ready = ctx.ready
        self.metrics = ctx.metrics
        self.tables = ctx.tables
        self.owned = ctx.owned
        self.relay = BotRelay(bus, store, ctx.metrics)  # the bots' actions, paced per bot
        # Composed bottom up: each part holds the context and the parts it calls.
        publisher = Publisher(ctx)
        self.postings = PostingsPublisher(ctx)
        timers = Timers(ctx)
        bot_turns = BotTurns(ctx, publisher, bot_turn_ttl_ms)
        commands = Commands(
            ctx, publisher, bot_turns, timers, Recorder(ctx), self.postings, Stakes(ctx)
        )
        self.host = TableHost(
            ctx,
            publisher,
            commands,
            Seating(ctx, commands),
            PresenceReports(ctx, commands),
            timers,
            host_tables,
        )
        self.consumer = ShardConsumer(ctx, self.host.handle, publisher)
        self.leases = LeaseKeeper(
            ctx, self.consumer, timers, bot_turns, lease_ttl=lease_ttl, tick=tick
        )

    def now_ms(self) -> int:
        return self.ctx.now_ms()

    async def run(self) -> None:
        try:
            async with asyncio.TaskGroup() as tasks:
                tasks.create_task(self.bus.lost())  # crash-only: leases expire, others take over
                tasks.create_task(self.leases.run(tasks))
                tasks.create_task(self.consumer.process())
                # Postings a failed publication left in the outbox go out with the relay.
                tasks.create_task(
                    supervise("the outbox relay", self.postings.relay_outbox, logger=log)
                )
                tasks.create_task(
                    supervise("the postings publisher", self.postings.publish, logger=log)
                )
                tasks.create_task(
                    supervise("the queue measurer", self.leases.measure_queues, logger=log)
                )
                tasks.create_task(supervise("the bot relay", self.relay.run, logger=log))
        finally:
            for shard in list(self.ctx.owned):
                self.ctx.drop(shard)
            with contextlib.suppress(Exception):
                await asyncio.shield(self.store.leave(self.worker_id))
