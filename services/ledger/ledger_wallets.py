"""Players' wallets in the PostgreSQL ledger: opening them with the grant, staking bots,
seating players, balances, closing a deleted account's."""

from __future__ import annotations

from services.ledger.closing import AT_STAKE, check_closable, close_posting
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
from services.ledger.storage import Closed, Closing
from shared.messages import DELETED_PLAYER, HOUSE


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
            # Shared: a closing (which locks it for update) is over before this reads on.
            balance: int = await conn.fetchval(
                "SELECT credits - debits FROM ledger.accounts WHERE name = $1 FOR SHARE",
                wallet(player_id),
            )
            if await conn.fetchval(
                "SELECT 1 FROM ledger.closed_wallets WHERE player_id = $1", player_id
            ):
                raise Closed(f"the wallet of {player_id} is closed")  # rolls back the name too
            if created and self.grant and not bot:
                await self._write(conn, grant_posting(player_id, self.grant), None)
                balance += self.grant
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

    async def close_wallet(self, player_id: str, after: tuple[str, int] | None = None) -> Closing:
        """Close the wallet: its balance to the house, the closing recorded (once)."""

        async def work(conn: Conn) -> Closing:
            # The house and the wallet locked in name order, as a posting locks them.
            balances = await self._lock_accounts(conn, sorted([HOUSE, wallet(player_id)]))
            returned = await conn.fetchval(
                "SELECT returned FROM ledger.closed_wallets WHERE player_id = $1", player_id
            )
            if returned is not None:
                return Closing(player_id, int(returned), already_closed=True)
            applied = 0 if after is None else await self._applied(after[0], conn)
            check_closable(after, applied, await conn.fetchval(AT_STAKE, wallet(player_id)))
            balance = balances[wallet(player_id)]
            closing = close_posting(player_id, balance)
            if closing is not None:
                await self._write(conn, closing, None)
            await conn.execute(
                "INSERT INTO ledger.closed_wallets (player_id, returned) VALUES ($1, $2)",
                player_id,
                balance,
            )
            await conn.execute(
                "UPDATE ledger.players SET name = $2 WHERE player_id = $1",
                player_id,
                DELETED_PLAYER,
            )
            return Closing(player_id, balance, already_closed=False)

        return await transaction(self.pool, work)
