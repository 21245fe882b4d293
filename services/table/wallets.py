"""Where a player's chips come from when they sit down: the ledger.

A player holds one seat at a time, so while seated their stack is their whole balance and no
other table can spend it. Before a player sits down again, the ledger must have applied every
posting of the table they left (up to the one that settled them there); it answers with the
balance, opening a new player's wallet with the starting grant (a bot's is staked by the house)
and recording that the player sat at the table (only such players appear in its postings).
The ledger's HTTP API needs the service credential (``SWICK_LEDGER_TOKEN``).
"""

from __future__ import annotations

import asyncio
import time
from typing import Protocol

import httpx

from services.ledger.storage import LedgerStorage, Pending
from shared.games.lifecycle import Player


class WalletUnavailable(Exception):
    """The balance cannot be known now; ``str(error)`` is for the player."""


class Wallets(Protocol):
    async def seat(self, player: Player, after: tuple[str, int] | None, table_id: str) -> int: ...


class LedgerWallets:
    """Asks the ledger service over HTTP, waiting a little for it to catch up."""

    def __init__(self, base_url: str, token: str, *, patience: float = 3.0) -> None:
        self.http = httpx.AsyncClient(
            base_url=base_url, timeout=5.0, headers={"Authorization": f"Bearer {token}"}
        )
        self.patience = patience

    async def close(self) -> None:
        await self.http.aclose()

    async def seat(self, player: Player, after: tuple[str, int] | None, table_id: str) -> int:
        body = {
            "name": player.name,
            "bot": player.bot is not None,
            "after": None if after is None else {"table_id": after[0], "posting_no": after[1]},
            "table_id": table_id,
        }
        deadline = time.monotonic() + self.patience
        while True:
            try:
                reply = await self.http.post(f"/wallets/{player.id}/seat", json=body)
            except httpx.TransportError:
                raise WalletUnavailable("The cashier is not answering: try again shortly") from None
            if reply.status_code == 200:
                balance: int = reply.json()["balance"]
                return balance
            if reply.status_code != 409 or time.monotonic() > deadline:
                raise WalletUnavailable(
                    "Your chips from your last table are still being counted: try again shortly"
                )
            await asyncio.sleep(0.1)


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
            except Pending:
                if time.monotonic() > deadline:
                    raise WalletUnavailable(
                        "Your chips from your last table are still being counted: try again shortly"
                    ) from None
                await asyncio.sleep(0.1)
