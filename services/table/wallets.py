"""Where a player's chips come from when they sit down.

With one seat at a time per player, a seated player's stack is their whole balance: no other
table can spend it meanwhile. The ledger service provides the balance; until a player has a
ledger account, the starting grant applies.
"""

from __future__ import annotations

from typing import Protocol


class Wallets(Protocol):
    async def balance(self, player_id: str) -> int: ...


class StartingGrant:
    """Every player sits down with the starting grant (no ledger behind it)."""

    def __init__(self, amount: int) -> None:
        self.amount = amount

    async def balance(self, player_id: str) -> int:
        return self.amount
