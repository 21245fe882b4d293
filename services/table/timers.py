"""The tables' deadlines: each table is woken when its deadline passes by a tick sent through
its own shard queue, so the tick is decided in order with the table's other requests."""

from __future__ import annotations

import asyncio
import logging

from services.table.closing import wake_at
from services.table.context import WorkerContext
from services.table.tables import LiveTable
from shared import messages as m
from shared.startup import described

log = logging.getLogger("swick.table")

TICK_RETRY_SECONDS = 1.0


class Timers:
    def __init__(self, ctx: WorkerContext) -> None:
        self.ctx = ctx
        self._ticking: set[asyncio.Task[None]] = set()  # ticks being sent

    def arm(self, table: LiveTable) -> None:
        """Wake the table when its deadline passes, through its own shard queue (in order)."""
        if table.timer is not None:
            table.timer.cancel()
            table.timer = None
        deadline = wake_at(table.game, table.state, self.ctx.abandon_ms)
        if deadline is None:
            return
        delay = max(0.0, deadline / 1000 - self.ctx.clock())
        # A handle on the loop's timer heap, not a task per command: most are cancelled.
        table.timer = asyncio.get_running_loop().call_later(
            delay, self.tick_due, self.tick_now(table)
        )

    @staticmethod
    def tick_now(table: LiveTable) -> m.Tick:
        seq = table.game.seq(table.state)
        return m.Tick(table_id=table.row.table_id, request_id=f"tick:{seq}", seq=seq)

    def tick_due(self, tick: m.Tick) -> None:
        task = asyncio.get_running_loop().create_task(self._send_tick(tick))
        self._ticking.add(task)
        task.add_done_callback(self._ticking.discard)

    async def _send_tick(self, tick: m.Tick) -> None:
        try:
            await self.ctx.bus.request(tick.table_id, tick.model_dump_json().encode())
        except Exception as error:
            # Lost, the table would wait for its deadline forever: try again shortly.
            log.warning(
                "could not send a tick: %s", described(error), extra={"table": tick.table_id}
            )
            table = self.ctx.tables.get(tick.table_id)
            if table is not None and table.game.seq(table.state) == tick.seq:
                table.timer = asyncio.get_running_loop().call_later(
                    TICK_RETRY_SECONDS, self.tick_due, tick
                )
