"""The bots' turns: a bot is sent its turn when its decision opens (not again while it stays
open), through its own queue, with a time to live after which the turn is stale."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from services.table.context import WorkerContext
from services.table.publisher import Publisher
from services.table.tables import LiveTable
from shared import messages as m


@dataclass(eq=False)
class BotTurns:
    ctx: WorkerContext
    publisher: Publisher
    ttl_ms: int

    async def wake(
        self,
        table: LiveTable,
        pending_before: Sequence[int],
        actor: int | None,
        state: Any = None,
    ) -> None:
        """Send a bot its turn when its decision opens (not again while it stays open)."""
        g = table.game
        state = table.state if state is None else state
        players = g.players(state)
        for seat in g.to_act(state):
            player = players[seat]
            if player is None or player.bot is None:
                continue
            if seat in pending_before and seat != actor:
                continue
            turn = m.BotTurn(
                table_id=table.row.table_id,
                seat=seat,
                seq=g.seq(state),
                bot=player.bot,
                player_id=player.id,
                view=g.dump_view(g.view_for(state, seat)),
            )
            await self.publisher.emit(
                partial(
                    self.ctx.bus.publish_bot_turn,
                    player.bot,
                    turn.model_dump_json().encode(),
                    ttl_ms=self.ttl_ms,
                )
            )
