"""The table's side of presence (``presence.py`` decides when a report counts): a gateway's
report of a player's connection, or the table's deferred check of it, applied to the seat."""

from __future__ import annotations

import asyncio
import secrets

from services.table.commands import Commands
from services.table.context import WorkerContext
from services.table.presence import Apply, Defer, Presence
from services.table.tables import LiveTable, seat_of
from shared import messages as m
from shared.games.interface import Command, IllegalCommand
from shared.games.lifecycle import SetConnected


class PresenceReports:
    def __init__(self, ctx: WorkerContext, commands: Commands) -> None:
        self.ctx = ctx
        self.commands = commands

    async def handle(self, table: LiveTable, request: m.Presence) -> None:
        """A gateway's report of a player's connection, or the table's deferred check of it:
        applied only when it changes the seat, a disconnect at most once per window."""
        seat = seat_of(table, request.player_id)
        if seat is None:
            return
        if table.presence is None:
            table.presence = Presence(self.ctx.clock)
        current = not self._connection_differs(table, seat, True)
        if request.due:
            decision = table.presence.due(seat, current)
        else:
            decision = table.presence.report(seat, request.connected, current)
        if isinstance(decision, Apply):
            action = SetConnected(seat, decision.connected)
            await self.commands.apply(table, None, action, request.request_id, 0, None)
        elif isinstance(decision, Defer):
            check = m.Presence(
                table_id=table.row.table_id,
                request_id=f"presence-due:{seat}:{secrets.token_hex(4)}",
                player_id=request.player_id,
                connected=request.connected,
                due=True,
            )
            delay = max(0.0, decision.at - self.ctx.clock())
            previous = table.presence_checks.pop(seat, None)
            if previous is not None:
                previous.cancel()
            table.presence_checks[seat] = asyncio.get_running_loop().create_task(
                self._send_later(check, delay)
            )

    def _connection_differs(self, table: LiveTable, seat: int, connected: bool) -> bool:
        """Whether reporting ``connected`` for ``seat`` would change the table (the game
        refuses a report that changes nothing)."""
        trial = Command(
            actor=None,
            action=SetConnected(seat, connected),
            action_id="presence-trial",
            seq=0,
            at=self.ctx.now_ms(),
        )
        try:
            table.game.decide(table.state, trial)
        except IllegalCommand:
            return False
        return True

    async def _send_later(self, request: m.Presence, delay: float) -> None:
        await asyncio.sleep(delay)
        await self.ctx.bus.request(request.table_id, request.model_dump_json().encode())
