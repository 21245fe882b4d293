"""Applying the tables' postings in the PostgreSQL ledger: in order, once, a batch in one
transaction; what breaks a rule is set aside."""

from __future__ import annotations

from collections.abc import Sequence

import asyncpg

from services.ledger.ledger_pool import (
    NEXT_WAITING,
    Conn,
    NotPlain,
    PoolBooks,
    log,
    transaction,
)
from services.ledger.rules import (
    InOrder,
    check_seated,
    check_table_posting,
    dead_letter_row,
    digest,
    players_of,
)
from services.ledger.storage import Outcome, Rejected
from shared.messages import Posting


class PostingBooks(PoolBooks, InOrder):
    """The tables' postings applied in PostgreSQL."""

    async def _apply_one(self, posting: Posting) -> tuple[Outcome, str | None]:
        """The posting's outcome, and the body of the table's posting that may follow it now
        (the next one waiting, after an applied or dead-lettered posting; the one the table is
        stuck at otherwise: so a redelivery finishes an interrupted drain)."""
        body = posting.model_dump_json()
        fingerprint = digest(posting)

        async def work(conn: Conn) -> tuple[Outcome, str | None]:
            return await self._work(conn, posting, fingerprint, body)

        try:
            try:
                return await transaction(self.pool, work)
            except asyncpg.UniqueViolationError as error:  # its id, taken at the same moment
                raise Rejected(f"posting id {posting.id} is taken: {error}") from None
        except Rejected as error:
            await self.dead_letter(posting, str(error))
            async with self.pool.acquire() as conn, conn.transaction():
                await conn.execute(
                    "DELETE FROM ledger.waiting WHERE table_id = $1 AND posting_no = $2"
                    " AND (digest = $3 OR body = $4::text::jsonb)",
                    posting.table_id,
                    posting.posting_no,
                    fingerprint,
                    body,
                )
                done = await self._applied(posting.table_id, conn)
                following = await conn.fetchval(NEXT_WAITING, posting.table_id, done + 1)
            return "rejected", following

    async def _work(
        self, conn: Conn, posting: Posting, fingerprint: str, body: str
    ) -> tuple[Outcome, str | None]:
        """``_apply_one``'s transaction."""
        # Locks the table's progress (creating it at 0): its postings go one at a time.
        done: int = await conn.fetchval(
            "INSERT INTO ledger.table_progress AS p (table_id, posting_no) VALUES ($1, 0)"
            " ON CONFLICT (table_id) DO UPDATE SET posting_no = p.posting_no"
            " RETURNING posting_no",
            posting.table_id,
        )
        if posting.posting_no <= done:
            applied = await conn.fetchval(
                "SELECT digest FROM ledger.postings WHERE table_id = $1 AND posting_no = $2",
                posting.table_id,
                posting.posting_no,
            )
            stuck = await conn.fetchval(NEXT_WAITING, posting.table_id, done + 1)
            if applied is None or applied == fingerprint:
                return "duplicate", stuck
            await self._conflict(conn, posting, fingerprint, body)
            return "conflict", stuck
        if posting.posting_no > done + 1:
            await conn.execute(
                "INSERT INTO ledger.waiting (table_id, posting_no, digest, body)"
                " VALUES ($1, $2, $3, $4::text::jsonb) ON CONFLICT DO NOTHING",
                posting.table_id,
                posting.posting_no,
                fingerprint,
                body,
            )
            return "waiting", await conn.fetchval(NEXT_WAITING, posting.table_id, done + 1)
        # Who of its players sat here, and whether its id was used: one round trip.
        known = await conn.fetchrow(
            "SELECT ARRAY(SELECT player_id FROM ledger.seats WHERE table_id = $1"
            "  AND player_id = ANY($2::text[])) AS seated,"
            " ARRAY(SELECT player_id FROM ledger.seats WHERE table_id = $1"
            "  AND player_id = ANY($2::text[]) AND bot) AS bots,"
            " (SELECT posting_no FROM ledger.postings WHERE id = $3) AS taken",
            posting.table_id,
            list(players_of(posting)),
            posting.id,
        )
        assert known is not None
        check_seated(posting, known["seated"], known["bots"])
        if known["taken"] is not None:
            raise Rejected(f"posting id {posting.id} was applied as number {known['taken']}")
        return "applied", await self._write(conn, posting, fingerprint)

    async def apply_batch(self, postings: Sequence[Posting]) -> bool:
        try:
            for posting in postings:
                check_table_posting(posting)
        except Rejected:
            return False

        async def work(conn: Conn) -> None:
            for posting in postings:
                outcome, following = await self._work(
                    conn, posting, digest(posting), posting.model_dump_json()
                )
                if outcome != "applied" or following is not None:
                    raise NotPlain  # rolls the batch back

        try:
            await transaction(self.pool, work)
        except (NotPlain, Rejected, asyncpg.UniqueViolationError):
            return False
        return True

    async def _conflict(self, conn: Conn, posting: Posting, fingerprint: str, body: str) -> None:
        """Record a posting whose number was applied with another body: loudly, never applied."""
        log.error(
            "CONFLICT: posting %s of table %s differs from the one applied as number %s",
            posting.id,
            posting.table_id,
            posting.posting_no,
        )
        await conn.execute(
            "INSERT INTO ledger.conflicts (table_id, posting_no, digest, posting_id, body)"
            " VALUES ($1, $2, $3, $4, $5::text::jsonb)"
            " ON CONFLICT (table_id, posting_no, digest)"
            " DO UPDATE SET times = ledger.conflicts.times + 1, last_at = now()",
            posting.table_id,
            posting.posting_no,
            fingerprint,
            posting.id,
            body,
        )

    async def dead_letter(self, posting: Posting, reason: str) -> None:
        """Set aside a posting that breaks a rule (or keeps failing), with its reason (once by
        its body)."""
        log.error("dead-lettered posting %r: %s", posting.id[:200], reason)
        await self.pool.execute(
            "INSERT INTO ledger.dead_postings (digest, posting_id, table_id, posting_no, body,"
            " reason) VALUES ($1, $2, $3, $4, $5::text::jsonb, $6)"
            " ON CONFLICT (digest) DO UPDATE SET times = ledger.dead_postings.times + 1,"
            " last_at = now()",
            *dead_letter_row(posting, reason),
        )
