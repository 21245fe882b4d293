"""What every part of the SQLite ledger shares: the database, balances and progress read in a
transaction, and writing one posting's transfers."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from pathlib import Path

import aiosqlite

from services.ledger.rules import (
    accounts,
    kind_of,
    settle,
    wallet,
)
from shared.messages import Posting
from shared.sqlite import Database, first, run, run_many

log = logging.getLogger("swick.ledger")
SCOPE = "ledger"
MIGRATIONS = Path(__file__).parent / "migrations_sqlite"


@dataclass(eq=False)
class DatabaseBooks:
    """The database and the grant every part of the ledger works with, and the posting writer."""

    db: Database
    grant: int = 4000

    async def _balance(self, conn: aiosqlite.Connection, player_id: str) -> int | None:
        record = await first(
            conn,
            "SELECT credits - debits AS balance FROM ledger_accounts WHERE name = ?",
            wallet(player_id),
        )
        return None if record is None else int(record["balance"])

    async def _progress(self, conn: aiosqlite.Connection, table_id: str) -> int:
        record = await first(
            conn, "SELECT posting_no FROM ledger_table_progress WHERE table_id = ?", table_id
        )
        return 0 if record is None else int(record["posting_no"])

    async def _next_waiting(
        self, conn: aiosqlite.Connection, table_id: str, posting_no: int
    ) -> str | None:
        record = await first(
            conn,
            "SELECT body FROM ledger_waiting WHERE table_id = ? AND posting_no = ?"
            " ORDER BY arrived_at, digest LIMIT 1",
            table_id,
            posting_no,
        )
        return None if record is None else str(record["body"])

    async def _write(
        self, conn: aiosqlite.Connection, posting: Posting, fingerprint: str | None
    ) -> str | None:
        """Write one posting inside the caller's write transaction; the body of the table's
        next posting if it is waiting. Other bodies waiting under its number (or an earlier
        one) become conflicts."""
        names = accounts(posting)
        await run_many(
            conn,
            "INSERT INTO ledger_accounts (name, kind) VALUES (?, ?) ON CONFLICT DO NOTHING",
            [(name, kind_of(name)) for name in names],
        )
        rows = await conn.execute_fetchall(
            "SELECT name, credits - debits AS balance FROM ledger_accounts"
            " WHERE name IN (SELECT value FROM json_each(?))",
            (json.dumps(names),),
        )
        effect = settle(posting, {row["name"]: row["balance"] for row in rows})
        now = self.db.now()
        table_id = posting.table_id or None
        posting_no = posting.posting_no if table_id else None
        await run(
            conn,
            "INSERT INTO ledger_postings"
            " (id, table_id, posting_no, hand_no, applied_at, digest, game)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            posting.id,
            table_id,
            posting_no,
            posting.hand_no,
            now,
            fingerprint,
            posting.game,
        )
        await run_many(
            conn,
            "INSERT INTO ledger_transfers"
            " (id, posting_id, debit, credit, amount, code, table_id, hand_no, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    f"{posting.id}:{i}",
                    posting.id,
                    leg.debit,
                    leg.credit,
                    leg.amount,
                    leg.code,
                    table_id,
                    posting.hand_no,
                    now,
                )
                for i, leg in enumerate(posting.legs)
            ],
        )
        await run_many(
            conn,
            "UPDATE ledger_accounts SET debits = debits + ?, credits = credits + ? WHERE name = ?",
            [(effect.debits[name], effect.credits[name], name) for name in effect.names],
        )
        await run_many(
            conn,
            "INSERT INTO ledger_players (player_id, name, bot) VALUES (?, ?, ?)"
            " ON CONFLICT (player_id) DO UPDATE SET name = excluded.name",
            [(pid, name, pid in posting.bots) for pid, name in posting.names.items()],
        )
        if table_id is None:
            return None
        await run(
            conn,
            "UPDATE ledger_table_progress SET posting_no = ? WHERE table_id = ?",
            posting_no,
            table_id,
        )
        await run(
            conn,
            "INSERT INTO ledger_conflicts"
            " (table_id, posting_no, digest, posting_id, body, first_at, last_at)"
            " SELECT table_id, posting_no, digest, json_extract(body, '$.id'), body, ?3, ?3"
            " FROM ledger_waiting WHERE table_id = ?1 AND posting_no <= ?2 AND digest <> ?4"
            " AND substr(digest, 1, 7) <> 'legacy:' ON CONFLICT DO NOTHING",
            table_id,
            posting_no,
            now,
            fingerprint,
        )
        await run(
            conn,
            "DELETE FROM ledger_waiting WHERE table_id = ? AND posting_no <= ?",
            table_id,
            posting_no,
        )
        await run_many(
            conn,
            "INSERT INTO ledger_reconciliations"
            " (table_id, player_id, posting_no, table_says, ledger_says, checked_at)"
            " VALUES (?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (table_id, player_id) DO UPDATE SET posting_no = excluded.posting_no,"
            " table_says = excluded.table_says, ledger_says = excluded.ledger_says,"
            " checked_at = excluded.checked_at",
            [
                (table_id, pid, posting_no, stack, says, now)
                for pid, stack, says in effect.reconciled
            ],
        )
        return await self._next_waiting(conn, table_id, posting.posting_no + 1)
