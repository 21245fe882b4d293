"""Where a player's chips come from when they sit down, the ledger; and where a bot's go when
it leaves, back to the house.

A player holds one seat at a time, so while seated their stack is their whole balance and no
other table can spend it. Before a player sits down again, the ledger must have applied every
posting of the table they left (up to the one that settled them there); it answers with the
balance, opening a new player's wallet with the starting grant (a bot's is staked by the house)
and recording that the player sat at the table (only such players appear in its postings).
The ledger's HTTP API needs the service credential (``SWICK_LEDGER_TOKEN``). The table asks
only once the game has accepted the seating (``services.table.stakes``), so a refused command
opens nothing. A bot that leaves its seat (its table closes, or its seat is vacated) returns its
stack to the house in the posting of the command that vacated it (``returned_stakes``).
Embedded mode answers from a ledger in the same process instead (``services/local_wallets.py``).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from typing import Protocol

import httpx

from shared.games.interface import Transfer
from shared.games.lifecycle import Player
from shared.messages import HOUSE, UNSTAKE


class WalletUnavailable(Exception):
    """The balance cannot be known now; ``str(error)`` is for the player."""


DELETED = "This account was deleted: it takes no seat"  # its wallet is closed for good


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
            if reply.status_code == 410:
                raise WalletUnavailable(DELETED)
            if reply.status_code != 409 or time.monotonic() > deadline:
                raise WalletUnavailable(
                    "Your chips from your last table are still being counted: try again shortly"
                )
            await asyncio.sleep(0.1)


def returned_stakes(
    before: Sequence[Player | None],
    after: Sequence[Player | None],
    stacks: Sequence[int],
    moves: Sequence[Transfer],
) -> list[Transfer]:
    """The legs that give the house back the chips of each bot ``before`` seated (with
    ``stacks``) that is seated no more ``after`` a command moving ``moves``: its stack then, from
    its wallet (a debt a bot ran up stays on its wallet: nothing to return)."""
    staying = {p.id for p in after if p is not None}
    hand_no = moves[0].hand_no if moves else 0
    legs = []
    for player, stack in zip(before, stacks, strict=True):
        if player is None or player.bot is None or player.id in staying:
            continue
        account = f"wallet:{player.id}"
        left = stack + sum(t.amount for t in moves if t.credit == account)
        left -= sum(t.amount for t in moves if t.debit == account)
        if left > 0:
            legs.append(Transfer(account, HOUSE, left, UNSTAKE, hand_no))
    return legs
