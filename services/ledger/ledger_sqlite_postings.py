"""Applying the tables' postings in the SQLite ledger: in order, once; what breaks a rule is
set aside."""

from __future__ import annotations

import json
from collections.abc import Sequence

import aiosqlite

from services.ledger.ledger_sqlite_db import DatabaseBooks, log
from services.ledger.rules import (
    InOrder,
    check_seated,
    dead_letter_row,
    digest,
    players_of,
)
from services.ledger.storage import Outcome, Rejected
from shared.messages import Posting
from shared.sqlite import first, run


class SqlitePostingBooks(DatabaseBooks, InOrder):
    """The tables' postings applied in the SQLite file."""

    async def apply_batch(self, postings: Sequence[Posting]) -> bool:
        """Declines: one process holds the file, and its postings come a hand at a time."""
        return False

    async def _apply_one(self, posting: Posting) -> tuple[Outcome, str | None]:
        """The posting's outcome, and the body of the table's posting that may follow it now
        (the next one waiting, after an applied or dead-lettered posting; the one the table is
        stuck at otherwise: so a redelivery finishes an interrupted drain)."""
        body = posting.model_dump_json()
        fingerprint = digest(posting)
        table_id = posting.table_id
        try:
            async with self.db.write() as conn:
                await run(
                    conn,
                    "INSERT INTO ledger_table_progress (table_id, posting_no) VALUES (?, 0)"
                    " ON CONFLICT DO NOTHING",
                    table_id,
                )
                done = await self._progress(conn, table_id)
                if posting.posting_no <= done:
                    applied = await first(
                        conn,
                        "SELECT digest FROM ledger_postings WHERE table_id = ? AND posting_no = ?",
                        table_id,
                        posting.posting_no,
                    )
                    stuck = await self._next_waiting(conn, table_id, done + 1)
                    if applied is None or applied["digest"] in (None, fingerprint):
                        return "duplicate", stuck
                    await self._conflict(conn, posting, fingerprint, body)
                    return "conflict", stuck
                if posting.posting_no > done + 1:
                    await run(
                        conn,
                        "INSERT INTO ledger_waiting"
                        " (table_id, posting_no, digest, body, arrived_at)"
                        " VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                        table_id,
                        posting.posting_no,
                        fingerprint,
                        body,
                        self.db.now(),
                    )
                    return "waiting", await self._next_waiting(conn, table_id, done + 1)
                seated = await conn.execute_fetchall(
                    "SELECT player_id, bot FROM ledger_seats WHERE table_id = ?"
                    " AND player_id IN (SELECT value FROM json_each(?))",
                    (table_id, json.dumps(list(players_of(posting)))),
                )
                check_seated(
                    posting,
                    (str(row["player_id"]) for row in seated),
                    (str(row["player_id"]) for row in seated if row["bot"]),
                )
                taken = await first(
                    conn, "SELECT posting_no FROM ledger_postings WHERE id = ?", posting.id
                )
                if taken is not None:
                    raise Rejected(
                        f"posting id {posting.id} was already applied as number {taken[0]}"
                    )
                return "applied", await self._write(conn, posting, fingerprint)
        except Rejected as error:
            await self.dead_letter(posting, str(error))
            async with self.db.write() as conn:
                await run(
                    conn,
                    "DELETE FROM ledger_waiting WHERE table_id = ? AND posting_no = ?"
                    " AND (digest = ? OR body = ?)",
                    table_id,
                    posting.posting_no,
                    fingerprint,
                    body,
                )
                following = await self._next_waiting(
                    conn, table_id, await self._progress(conn, table_id) + 1
                )
            return "rejected", following

    async def _conflict(
        self, conn: aiosqlite.Connection, posting: Posting, fingerprint: str, body: str
    ) -> None:
        """Record a posting whose number was applied with another body: loudly, never applied."""
        log.error(
            "CONFLICT: posting %s of table %s differs from the one applied as number %s",
            posting.id,
            posting.table_id,
            posting.posting_no,
        )
        now = self.db.now()
        await run(
            conn,
            "INSERT INTO ledger_conflicts"
            " (table_id, posting_no, digest, posting_id, body, first_at, last_at)"
            " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6) ON CONFLICT (table_id, posting_no, digest)"
            " DO UPDATE SET times = times + 1, last_at = ?6",
            posting.table_id,
            posting.posting_no,
            fingerprint,
            posting.id,
            body,
            now,
        )

    async def dead_letter(self, posting: Posting, reason: str) -> None:
        """Set aside a posting that breaks a rule (or keeps failing), with its reason (once by
        its body)."""
        log.error("dead-lettered posting %r: %s", posting.id[:200], reason)
        async with self.db.write() as conn:
            await run(
                conn,
                "INSERT INTO ledger_dead_postings (digest, posting_id, table_id, posting_no,"
                " body, reason, first_at, last_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7)"
                " ON CONFLICT (digest) DO UPDATE SET times = times + 1, last_at = ?7",
                *dead_letter_row(posting, reason),
                self.db.now(),
            )
