"""The table service's wallets answered by a ledger in the same process (embedded mode).

Embedded mode composes every service in one process, so this module may import both the table
service's ``Wallets`` protocol and the ledger's storage; the table service itself knows only
the protocol (``services/table/wallets.py``), and asks the ledger over HTTP when run alone.
"""

from __future__ import annotations

import asyncio
import time

from services.ledger.storage import Closed, LedgerStorage, Pending
from services.table.wallets import DELETED, WalletUnavailable
from shared.games.lifecycle import Player


class LocalWallets:
    """Asks a ledger in the same process (embedded mode), waiting a little for it to catch up."""

    def __init__(self, ledger: LedgerStorage, *, patience: float = 3.0) -> None:
        self.ledger = ledger
        self.patience = patience

    async def seat(self, player: Player, after: tuple[str, int] | None, table_id: str) -> int:
        deadline = time.monotonic() + self.patience
        while True:
            try:
                bot = player.bot is not None
                return await self.ledger.seat(player.id, player.name, bot, after, table_id)
            except Closed:
                raise WalletUnavailable(DELETED) from None
            except Pending:
                if time.monotonic() > deadline:
                    raise WalletUnavailable(
                        "Your chips from your last table are still being counted: try again shortly"
                    ) from None
                await asyncio.sleep(0.1)
