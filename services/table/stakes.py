"""The chips a player sits down with: asked of the ledger (which opens the wallet, stakes a
bot, records the seat) only once the game accepts the seating."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from services.table.context import WorkerContext
from services.table.refusals import Refused
from services.table.tables import LiveTable
from services.table.wallets import WalletUnavailable
from shared.games.interface import Command, IllegalCommand
from shared.games.lifecycle import AddBot, Player, TakeSeat

# The stack a seating action carries until the game has accepted it and the ledger has given
# the real one (``Stakes.staked``): the games' seating rules hold for any stack >= 0.
UNSTAKED = 0


class Stakes:
    def __init__(self, ctx: WorkerContext) -> None:
        self.ctx = ctx

    async def staked(self, table: LiveTable, command: Command[Any]) -> Command[Any]:
        """A seating command with the stack its player sits down with, asked of the ledger
        (which opens the wallet, stakes a bot, records the seat) only once the game accepts the
        seating, which it judges whatever the stack: a command the game refuses comes back as
        it was, and is refused without the ledger hearing of it."""
        try:
            table.game.decide(table.state, command)
        except IllegalCommand:
            return command
        action: TakeSeat | AddBot = command.action
        stack = await self._stack(action.player, table.row.table_id)
        return replace(command, action=replace(action, stack=stack))

    async def _stack(self, player: Player, table_id: str) -> int:
        """The chips ``player`` sits down with at ``table_id``: their whole balance."""
        try:
            departure = await self.ctx.store.departure(player.id)
            return await self.ctx.wallets.seat(player, departure, table_id)
        except WalletUnavailable as error:
            raise Refused("cashier", str(error)) from None
