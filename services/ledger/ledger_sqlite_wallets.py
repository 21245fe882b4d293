"""Players' wallets in the SQLite ledger: opening them with the grant, staking bots, seating
players, balances."""

from __future__ import annotations

from services.ledger.ledger_sqlite_db import DatabaseBooks
from services.ledger.rules import (
    grant_posting,
    stake_posting,
    wallet,
)
from services.ledger.seating import Seating
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
