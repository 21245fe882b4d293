"""Players' wallets in the PostgreSQL ledger: opening them with the grant, staking bots,
seating players, balances."""

from __future__ import annotations

from services.ledger.ledger_pool import (
    Conn,
    PoolBooks,
    transaction,
)
from services.ledger.rules import (
    grant_posting,
    stake_posting,
    wallet,
)
from services.ledger.seating import Seating


class WalletBooks(PoolBooks, Seating):
    """Players' wallets in PostgreSQL."""

    async def open_wallet(self, player_id: str, name: str = "", bot: bool = False) -> int:
        """The wallet's balance, opening it with the starting grant the first time."""

        async def work(conn: Conn) -> int:
            if name:
                await conn.execute(
                    "INSERT INTO ledger.players (player_id, name, bot) VALUES ($1, $2, $3)"
                    " ON CONFLICT (player_id) DO UPDATE SET name = $2",
                    player_id,
                    name,
                    bot,
                )
            created = await conn.fetchval(
                "INSERT INTO ledger.accounts (name, kind) VALUES ($1, 'wallet')"
                " ON CONFLICT DO NOTHING RETURNING name",
                wallet(player_id),
            )
            if created and self.grant and not bot:
                await self._write(conn, grant_posting(player_id, self.grant), None)
            balance: int = await conn.fetchval(
                "SELECT credits - debits FROM ledger.accounts WHERE name = $1", wallet(player_id)
            )
            return balance

        return await transaction(self.pool, work)

    async def _stake(self, player_id: str, name: str) -> int:
        """A bot's balance after the house fills its wallet up to the grant."""

        async def work(conn: Conn) -> int:
            await conn.execute(
                "INSERT INTO ledger.players (player_id, name, bot) VALUES ($1, $2, true)"
                " ON CONFLICT (player_id) DO UPDATE SET name = $2",
                player_id,
                name or player_id,
            )
            await conn.execute(
                "INSERT INTO ledger.accounts (name, kind) VALUES ($1, 'wallet')"
                " ON CONFLICT DO NOTHING",
                wallet(player_id),
            )
            balance: int = await conn.fetchval(
                "SELECT credits - debits FROM ledger.accounts WHERE name = $1 FOR UPDATE",
                wallet(player_id),
            )
            if balance < self.grant:
                serial = await conn.fetchval(
                    "SELECT count(*) FROM ledger.transfers WHERE credit = $1 AND code = 'stake'",
                    wallet(player_id),
                )
                stake = stake_posting(player_id, self.grant - balance, serial)
                await self._write(conn, stake, None)
                balance = self.grant
            return balance

        return await transaction(self.pool, work)

    async def _record_seat(self, player_id: str, table_id: str, bot: bool) -> None:
        await self.pool.execute(
            "INSERT INTO ledger.seats (player_id, table_id, bot) VALUES ($1, $2, $3)"
            " ON CONFLICT DO NOTHING",
            player_id,
            table_id,
            bot,
        )

    async def balance(self, player_id: str) -> int | None:
        value: int | None = await self.pool.fetchval(
            "SELECT credits - debits FROM ledger.accounts WHERE name = $1", wallet(player_id)
        )
        return value
