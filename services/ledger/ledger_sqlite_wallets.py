"""Players' wallets in the SQLite ledger: opening them with the grant, staking bots, seating
players, balances, closing a deleted account's."""

from __future__ import annotations

from services.ledger.closing import AT_STAKE_SQLITE, check_closable, close_posting
from services.ledger.ledger_sqlite_db import DatabaseBooks
from services.ledger.rules import (
    grant_posting,
    stake_posting,
    wallet,
)
from services.ledger.seating import Seating
from services.ledger.storage import Closed, Closing
from shared.messages import DELETED_PLAYER
from shared.sqlite import first, run


class SqliteWalletBooks(DatabaseBooks, Seating):
    """Players' wallets in the SQLite file."""

    async def open_wallet(self, player_id: str, name: str = "", bot: bool = False) -> int:
        async with self.db.write() as conn:
            if name:
                await run(
                    conn,
                    "INSERT INTO ledger_players (player_id, name, bot) VALUES (?1, ?2, ?3)"
                    " ON CONFLICT (player_id) DO UPDATE SET name = ?2",
                    player_id,
                    name,
                    bot,
                )
            created = await run(
                conn,
                "INSERT INTO ledger_accounts (name, kind) VALUES (?, 'wallet')"
                " ON CONFLICT DO NOTHING",
                wallet(player_id),
            )
            if await first(
                conn, "SELECT 1 FROM ledger_closed_wallets WHERE player_id = ?", player_id
            ):
                raise Closed(f"the wallet of {player_id} is closed")  # rolls back the name too
            if created and self.grant and not bot:
                await self._write(conn, grant_posting(player_id, self.grant), None)
            balance = await self._balance(conn, player_id)
        assert balance is not None
        return balance

    async def _stake(self, player_id: str, name: str) -> int:
        """A bot's balance after the house fills its wallet up to the grant."""
        async with self.db.write() as conn:
            await run(
                conn,
                "INSERT INTO ledger_players (player_id, name, bot) VALUES (?1, ?2, 1)"
                " ON CONFLICT (player_id) DO UPDATE SET name = ?2",
                player_id,
                name or player_id,
            )
            await run(
                conn,
                "INSERT INTO ledger_accounts (name, kind) VALUES (?, 'wallet')"
                " ON CONFLICT DO NOTHING",
                wallet(player_id),
            )
            balance = await self._balance(conn, player_id)
            assert balance is not None
            if balance < self.grant:
                staked = await first(
                    conn,
                    "SELECT count(*) AS n FROM ledger_transfers"
                    " WHERE credit = ? AND code = 'stake'",
                    wallet(player_id),
                )
                serial = 0 if staked is None else int(staked["n"])
                await self._write(
                    conn, stake_posting(player_id, self.grant - balance, serial), None
                )
                balance = self.grant
        return balance

    async def _applied(self, table_id: str) -> int:
        async with self.db.read() as conn:
            return await self._progress(conn, table_id)

    async def _record_seat(self, player_id: str, table_id: str, bot: bool) -> None:
        async with self.db.write() as conn:
            await run(
                conn,
                "INSERT INTO ledger_seats (player_id, table_id, bot) VALUES (?, ?, ?)"
                " ON CONFLICT DO NOTHING",
                player_id,
                table_id,
                bot,
            )

    async def balance(self, player_id: str) -> int | None:
        async with self.db.read() as conn:
            return await self._balance(conn, player_id)

    async def close_wallet(self, player_id: str, after: tuple[str, int] | None = None) -> Closing:
        async with self.db.write() as conn:
            closed = await first(
                conn, "SELECT returned FROM ledger_closed_wallets WHERE player_id = ?", player_id
            )
            if closed is not None:
                return Closing(player_id, int(closed["returned"]), already_closed=True)
            applied = 0 if after is None else await self._progress(conn, after[0])
            pot = await first(conn, AT_STAKE_SQLITE, wallet(player_id))
            check_closable(after, applied, None if pot is None else str(pot[0]))
            await run(  # a wallet never opened is closed at 0, as the PostgreSQL ledger keeps it
                conn,
                "INSERT INTO ledger_accounts (name, kind) VALUES (?, 'wallet')"
                " ON CONFLICT DO NOTHING",
                wallet(player_id),
            )
            balance = await self._balance(conn, player_id) or 0
            closing = close_posting(player_id, balance)
            if closing is not None:
                await self._write(conn, closing, None)
            await run(
                conn,
                "INSERT INTO ledger_closed_wallets (player_id, returned, closed_at)"
                " VALUES (?, ?, ?)",
                player_id,
                balance,
                self.db.now(),
            )
            await run(
                conn,
                "UPDATE ledger_players SET name = ? WHERE player_id = ?",
                DELETED_PLAYER,
                player_id,
            )
        return Closing(player_id, balance, already_closed=False)
