"""What the tables tell people: each seat's view, refusals, and the catching up after a
duplicate. Updates sent in one block go out as one message (a bundle); those of a batch being
decided wait for its commit."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

from services.table.batch import Send
from services.table.context import WorkerContext
from services.table.tables import LiveTable
from shared import messages as m

log = logging.getLogger("swick.table")


class Publisher:
    def __init__(self, ctx: WorkerContext) -> None:
        self.ctx = ctx
        self._bundle: list[m.TableUpdate | m.Refusal] | None = None  # updates going out together

    @contextlib.asynccontextmanager
    async def bundled(self) -> AsyncIterator[None]:
        """Gather the updates sent in the block, and publish them as one message at its end."""
        self._bundle = []
        try:
            yield
        finally:
            bundle, self._bundle = self._bundle, None
        if bundle:
            tables = [update.table_id for update in bundle]
            await self.ctx.bus.publish_updates(tables, m.pack(bundle))

    async def send_update(self, update: m.TableUpdate | m.Refusal) -> None:
        batch = self.ctx.batch
        if batch is not None:
            batch.sends.append(lambda: self.send_update(update))
        elif self._bundle is not None:
            self._bundle.append(update)
        else:
            await self.ctx.bus.publish_updates([update.table_id], m.pack([update]))

    async def emit(self, send: Send) -> None:
        """Send now, or once the batch being decided is committed."""
        batch = self.ctx.batch
        if batch is None:
            await send()
        else:
            batch.sends.append(send)

    async def resend(self, table: LiveTable, request: m.Act | m.Join | m.CreateTable) -> None:
        """A duplicate may be a redelivery whose first answer was lost with a worker: send its
        sender the table as it stands, so their view catches up with what was applied."""
        player = getattr(request, "player_id", getattr(request, "host_id", None))
        await self.publish(table, None, snapshot_for=player)

    async def publish(
        self,
        table: LiveTable,
        outcome: m.Outcome | None,
        snapshot_for: str | None = None,
        state: Any = None,
    ) -> None:
        """Publish the table's views (as of ``state``, by default as it stands now)."""
        g = table.game
        state = table.state if state is None else state
        people = {
            seat: player.id
            for seat, player in enumerate(g.players(state))
            if player is not None and player.bot is None
        }
        spectator, views = g.views_json(state, people)
        update = m.TableUpdate(
            table_id=table.row.table_id,
            seq=g.seq(state),
            views={people[seat]: view for seat, view in views.items()},
            spectator=spectator,
            outcome=outcome,
            snapshot_for=snapshot_for,
        )
        await self.send_update(update)

    async def refuse(self, request: m.Request, code: str, message: str) -> None:
        self.ctx.metrics.commands.labels("refused").inc()
        log.info(
            "refused",
            extra={"table": request.table_id, "request": request.request_id, "code": code},
        )
        player = getattr(request, "player_id", getattr(request, "host_id", None))
        outcome = m.Outcome(
            request_id=request.request_id, player_id=player, ok=False, code=code, message=message
        )
        await self.send_update(m.Refusal(table_id=request.table_id, outcome=outcome))
