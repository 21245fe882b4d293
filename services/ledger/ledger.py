"""The ledger: double-entry accounts in PostgreSQL, fed by the tables' postings.

A posting is applied in one transaction that first locks its table's progress row (so a
table's postings go one at a time), then locks its accounts in name order, checks them, and
writes its transfers, the accounts' new totals and the table's progress in one statement. Every
row a decision reads is locked (``FOR UPDATE``) and re-read at its latest committed version, so
read committed is enough and concurrent postings of different tables only ever wait for each
other on the accounts they share (a serializable transaction here failed on false conflicts of
its predicate locks under load); a deadlock is retried. Postings are applied exactly once
(their id) and, per table, in order (their number): one that arrives early waits in the
``waiting`` table (under its body's digest) until the posting before it is applied, in whose
transaction it is taken out. A posting is checked before anything moves (``rules``); one that
breaks a rule is dead-lettered, one whose number was applied with another body is a conflict.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from services.ledger.rules import (
    BANK,
    GAME_POT_CODES,
    KINDS,
    PAYOUT_CODES,
    accounts,
    apply_in_order,
    check_seated,
    check_table_posting,
    dead_letter_row,
    digest,
    grant_posting,
    house_report,
    kind_of,
    players_of,
    problems_report,
    reconciliation_report,
    settle,
    stake_posting,
    wallet,
)
from services.ledger.storage import Health, Outcome, Pending, Rejected
from shared.messages import HOUSE, UNSTAKE, Posting
from shared.migrations import migrate
from shared.startup import described
from shared.supervise import retryable

log = logging.getLogger("swick.ledger")

SCHEMA = "ledger"
MIGRATIONS = Path(__file__).parent / "migrations"
RETRIES = 20
NEXT_WAITING = (
    "SELECT body #>> '{}' FROM ledger.waiting WHERE table_id = $1 AND posting_no = $2"
    " ORDER BY arrived_at, digest LIMIT 1"
)
T = TypeVar("T")

Conn = asyncpg.Connection | PoolConnectionProxy

# The shared types and rules live in storage.py and rules.py; importing them from here works.
__all__ = [
    "BANK",
    "KINDS",
    "MIGRATIONS",
    "RETRIES",
    "SCHEMA",
    "Health",
    "Ledger",
    "Outcome",
    "Pending",
    "Rejected",
    "kind_of",
    "wallet",
]


async def _transaction(pool: asyncpg.Pool, work: Callable[[Conn], Awaitable[T]]) -> T:
    """Run ``work`` in a (read committed) transaction, retrying deadlocks and a lost connection
    (the pool gives a fresh one) after a random pause. A retry after a connection lost during
    the commit is safe: a posting that did commit is then a duplicate (its id, its number)."""
    for attempt in range(RETRIES):
        try:
            async with pool.acquire() as conn, conn.transaction():
                return await work(conn)
        except (asyncpg.SerializationError, asyncpg.DeadlockDetectedError):
            await asyncio.sleep(random.uniform(0, 0.001 * 2 ** min(attempt, 8)))
        except Exception as error:
            if not retryable(error) or attempt == RETRIES - 1:
                raise
            log.warning("retrying a transaction on fresh connections: %s", described(error))
            await pool.expire_connections()  # the others are likely gone as well
            await asyncio.sleep(random.uniform(0, 0.01 * 2 ** min(attempt, 6)))
    raise RuntimeError("gave up after repeated deadlocks")


class _NotPlain(Exception):
    """A posting of a batch is not simply applied: the batch is undone."""


class Ledger:
    def __init__(self, pool: asyncpg.Pool, grant: int = 4000) -> None:
        self.pool = pool
        self.grant = grant

    async def migrate(self) -> None:
        async with self.pool.acquire() as conn:
            await migrate(conn, SCHEMA, MIGRATIONS)

    # Wallets.

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

        return await _transaction(self.pool, work)

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

        return await _transaction(self.pool, work)

    async def seat(
        self,
        player_id: str,
        name: str,
        bot: bool,
        after: tuple[str, int] | None,
        table_id: str | None = None,
    ) -> int:
        """The balance a player sits down with; ``Pending`` while their last table's postings
        (up to ``after``) are not all applied."""
        if after is not None:
            # The table they left, not the one they sit at now: that one is recorded below.
            left, posting_no = after
            done = await self.pool.fetchval(
                "SELECT posting_no FROM ledger.table_progress WHERE table_id = $1", left
            )
            if (done or 0) < posting_no:
                raise Pending(f"{after[0]} is applied to {done or 0} of {posting_no}")
        if bot:
            balance = await self._stake(player_id, name)
        else:
            balance = await self.open_wallet(player_id, name, bot)
        if table_id and balance >= 0:  # a debt is refused a seat by every game: none recorded
            await self.pool.execute(
                "INSERT INTO ledger.seats (player_id, table_id, bot) VALUES ($1, $2, $3)"
                " ON CONFLICT DO NOTHING",
                player_id,
                table_id,
                bot,
            )
        return balance

    async def balance(self, player_id: str) -> int | None:
        value: int | None = await self.pool.fetchval(
            "SELECT credits - debits FROM ledger.accounts WHERE name = $1", wallet(player_id)
        )
        return value

    # Postings.

    async def apply(self, posting: Posting) -> Outcome:
        """Apply ``posting`` (and any postings of its table that were waiting for it)."""
        return await apply_in_order(posting, self._apply_one, self.dead_letter)

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
                return await _transaction(self.pool, work)
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
                done = await conn.fetchval(
                    "SELECT posting_no FROM ledger.table_progress WHERE table_id = $1",
                    posting.table_id,
                )
                following = await conn.fetchval(NEXT_WAITING, posting.table_id, (done or 0) + 1)
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
                    raise _NotPlain  # rolls the batch back

        try:
            await _transaction(self.pool, work)
        except (_NotPlain, Rejected, asyncpg.UniqueViolationError):
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

    async def _lock_accounts(self, conn: Conn, names: list[str]) -> dict[str, int]:
        """Lock the accounts ``names`` (sorted) in name order, opening missing ones at 0; their
        balances."""
        lock = (
            "SELECT name, credits - debits AS balance FROM ledger.accounts"
            " WHERE name = ANY($1::text[]) ORDER BY name FOR UPDATE"
        )
        rows = await conn.fetch(lock, names)
        if len(rows) < len(names):
            await conn.execute(
                "INSERT INTO ledger.accounts (name, kind)"
                " SELECT * FROM unnest($1::text[], $2::text[]) ON CONFLICT DO NOTHING",
                names,
                [kind_of(name) for name in names],
            )
            rows = await conn.fetch(lock, names)
        return {row["name"]: row["balance"] for row in rows}

    async def _write(self, conn: Conn, posting: Posting, fingerprint: str | None) -> str | None:
        """Write one posting inside the caller's transaction (which holds its table's progress
        row); the body of the table's next posting if it is waiting. Other bodies waiting under
        its number (or an earlier one) become conflicts."""
        names = accounts(posting)  # checks the legs (Rejected) before locking anything
        effect = settle(posting, await self._lock_accounts(conn, names))  # or Rejected
        table_id = posting.table_id or None
        following: str | None = await conn.fetchval(
            "WITH posting AS ("
            "  INSERT INTO ledger.postings (id, table_id, posting_no, hand_no, digest, game)"
            "  VALUES ($1, $2, $3, $4, $19, $20)),"
            " legs AS ("
            "  INSERT INTO ledger.transfers"
            "   (id, posting_id, debit, credit, amount, code, table_id, hand_no)"
            "  SELECT leg.id, $1, leg.debit, leg.credit, leg.amount, leg.code, $2, $4"
            "  FROM unnest($5::text[], $6::text[], $7::text[], $8::bigint[], $9::text[])"
            "   AS leg(id, debit, credit, amount, code)),"
            " moved AS ("
            "  UPDATE ledger.accounts a SET debits = a.debits + m.debits,"
            "   credits = a.credits + m.credits"
            "  FROM unnest($10::text[], $11::bigint[], $12::bigint[]) AS m(name, debits, credits)"
            "  WHERE a.name = m.name),"
            " progress AS ("
            "  UPDATE ledger.table_progress SET posting_no = $3 WHERE table_id = $2),"
            " taken AS ("
            "  DELETE FROM ledger.waiting WHERE table_id = $2 AND posting_no <= $3),"
            " conflicting AS ("
            "  INSERT INTO ledger.conflicts (table_id, posting_no, digest, posting_id, body)"
            "  SELECT w.table_id, w.posting_no, w.digest, w.body ->> 'id', w.body"
            "  FROM ledger.waiting w WHERE w.table_id = $2 AND w.posting_no <= $3"
            "  AND w.digest <> $19 AND w.digest NOT LIKE 'legacy:%' ON CONFLICT DO NOTHING),"
            " named AS ("
            "  INSERT INTO ledger.players (player_id, name, bot)"
            "  SELECT * FROM unnest($13::text[], $14::text[], $15::boolean[])"
            "  ON CONFLICT (player_id) DO UPDATE SET name = excluded.name),"
            " reconciled AS ("
            "  INSERT INTO ledger.reconciliations"
            "   (table_id, player_id, posting_no, table_says, ledger_says)"
            "  SELECT $2, s.player_id, $3, s.table_says, s.ledger_says"
            "  FROM unnest($16::text[], $17::bigint[], $18::bigint[])"
            "   AS s(player_id, table_says, ledger_says)"
            "  ON CONFLICT (table_id, player_id) DO UPDATE SET posting_no = excluded.posting_no,"
            "   table_says = excluded.table_says, ledger_says = excluded.ledger_says,"
            "   checked_at = now())"
            " SELECT body #>> '{}' FROM ledger.waiting WHERE table_id = $2 AND posting_no = $3 + 1"
            " ORDER BY arrived_at, digest LIMIT 1",
            posting.id,
            table_id,
            posting.posting_no if table_id else None,
            posting.hand_no,
            [f"{posting.id}:{i}" for i in range(len(posting.legs))],
            [leg.debit for leg in posting.legs],
            [leg.credit for leg in posting.legs],
            [leg.amount for leg in posting.legs],
            [leg.code for leg in posting.legs],
            effect.names,
            [effect.debits[name] for name in effect.names],
            [effect.credits[name] for name in effect.names],
            list(posting.names),
            list(posting.names.values()),
            [pid in posting.bots for pid in posting.names],
            [pid for pid, _, _ in effect.reconciled],
            [stack for _, stack, _ in effect.reconciled],
            [says for _, _, says in effect.reconciled],
            fingerprint,
            posting.game,
        )
        return following

    # Reading.

    async def history(
        self, player_id: str, limit: int = 50, before: str | None = None
    ) -> list[dict[str, Any]]:
        """A player's transfers, newest first, paginated by transfer id."""
        account = wallet(player_id)
        rows = await self.pool.fetch(
            "SELECT id, debit, credit, amount, code, table_id, hand_no, created_at"
            " FROM ledger.transfers WHERE (debit = $1 OR credit = $1)"
            " AND ($2::timestamptz IS NULL OR (created_at, id) < ($2, $4::text))"
            " ORDER BY created_at DESC, id DESC LIMIT $3",
            account,
            await self._created_at(before),
            limit,
            before,
        )
        return [
            {
                "id": row["id"],
                "amount": row["amount"] if row["credit"] == account else -row["amount"],
                "code": row["code"],
                "table_id": row["table_id"],
                "hand_no": row["hand_no"],
                "at": row["created_at"].isoformat(),
            }
            for row in rows
        ]

    async def _created_at(self, transfer_id: str | None) -> datetime | None:
        if transfer_id is None:
            return None
        at: datetime | None = await self.pool.fetchval(
            "SELECT created_at FROM ledger.transfers WHERE id = $1", transfer_id
        )
        return at

    async def leaderboard(
        self, since: datetime, limit: int = 20, game: str | None = None
    ) -> list[dict[str, Any]]:
        """Net winnings at the tables (grants left out) since ``since``; with ``game``, only
        at the tables of that game."""
        where = "table_id IS NOT NULL AND created_at >= $1"
        if game is not None:
            where += " AND posting_id IN (SELECT id FROM ledger.postings WHERE game = $3)"
        rows = await self.pool.fetch(
            "WITH moves AS ("
            f"  SELECT credit AS account, amount FROM ledger.transfers WHERE {where}"
            "   AND credit LIKE 'wallet:%'"
            "  UNION ALL"
            f"  SELECT debit, -amount FROM ledger.transfers WHERE {where}"
            "   AND debit LIKE 'wallet:%')"
            " SELECT substr(account, 8) AS player_id, sum(amount)::bigint AS net,"
            "  coalesce(p.name, substr(account, 8)) AS name, coalesce(p.bot, false) AS bot"
            " FROM moves LEFT JOIN ledger.players p ON p.player_id = substr(account, 8)"
            " GROUP BY account, p.name, p.bot ORDER BY net DESC, player_id LIMIT $2",
            since,
            limit,
            *(() if game is None else (game,)),
        )
        return [
            {"player_id": r["player_id"], "name": r["name"], "bot": r["bot"], "net": r["net"]}
            for r in rows
        ]

    async def reconciliation(self, table_id: str) -> dict[str, Any]:
        rows = await self.pool.fetch(
            "SELECT r.player_id, r.posting_no, r.table_says, r.ledger_says,"
            " a.credits - a.debits AS balance_now"
            " FROM ledger.reconciliations r JOIN ledger.accounts a"
            " ON a.name = 'wallet:' || r.player_id WHERE r.table_id = $1 ORDER BY r.player_id",
            table_id,
        )
        progress = await self.pool.fetchval(
            "SELECT posting_no FROM ledger.table_progress WHERE table_id = $1", table_id
        )
        return reconciliation_report(table_id, rows, progress or 0)

    async def problems(self, limit: int = 100) -> dict[str, list[dict[str, Any]]]:
        dead = await self.pool.fetch(
            "SELECT posting_id, table_id, posting_no, reason, times, last_at"
            " FROM ledger.dead_postings ORDER BY last_at DESC LIMIT $1",
            limit,
        )
        conflicts = await self.pool.fetch(
            "SELECT c.posting_id, c.table_id, c.posting_no, c.digest, p.digest AS applied,"
            " c.times, c.last_at FROM ledger.conflicts c LEFT JOIN ledger.postings p"
            " ON p.table_id = c.table_id AND p.posting_no = c.posting_no"
            " ORDER BY c.last_at DESC LIMIT $1",
            limit,
        )
        return problems_report(dead, conflicts, lambda at: at.isoformat())

    async def house(self) -> dict[str, int]:
        row = await self.pool.fetchrow(
            "SELECT (SELECT credits - debits FROM ledger.accounts WHERE name = $1) AS balance,"
            " (SELECT coalesce(sum(amount), 0) FROM ledger.transfers WHERE debit = $1"
            "  AND code = 'stake')::bigint AS staked,"
            " (SELECT coalesce(sum(amount), 0) FROM ledger.transfers WHERE credit = $1"
            "  AND code = $2)::bigint AS returned,"
            " (SELECT coalesce(sum(a.credits - a.debits), 0) FROM ledger.accounts a"
            "  JOIN ledger.players p ON a.name = 'wallet:' || p.player_id WHERE p.bot)::bigint"
            "  AS held",
            HOUSE,
            UNSTAKE,
        )
        assert row is not None
        return house_report(row["staked"], row["returned"], row["balance"] or 0, row["held"])

    async def check(self) -> Health:
        """The ledger's invariants, recomputed from scratch."""
        async with self.pool.acquire() as conn, conn.transaction(isolation="repeatable_read"):
            totals = await conn.fetchrow(
                "SELECT coalesce(sum(debits), 0)::bigint AS debits,"
                " coalesce(sum(credits), 0)::bigint AS credits"
                " FROM ledger.accounts"
            )
            drift = await conn.fetchval(
                "SELECT count(*) FROM ledger.accounts a LEFT JOIN ("
                "  SELECT name, sum(d) AS d, sum(c) AS c FROM ("
                "   SELECT debit AS name, amount AS d, 0 AS c FROM ledger.transfers"
                "   UNION ALL SELECT credit, 0, amount FROM ledger.transfers) t GROUP BY name"
                " ) s ON s.name = a.name"
                " WHERE a.debits <> coalesce(s.d, 0) OR a.credits <> coalesce(s.c, 0)"
            )
            # A pot closes at 0 when its hand settles: every settled hand's pot nets to zero.
            open_pots = await conn.fetch(
                "SELECT table_id, hand_no FROM ledger.transfers"
                " WHERE (debit LIKE 'pot:%' OR credit LIKE 'pot:%')"
                f" AND code NOT IN ({GAME_POT_CODES})"
                " GROUP BY table_id, hand_no"
                " HAVING bool_or(code NOT IN ('ante', 'carry_in'))"
                " AND sum(CASE WHEN credit LIKE 'pot:%' THEN amount ELSE -amount END) <> 0"
            )
            # A game-long pot closes at 0 when its game pays out: up to a table's last payout,
            # its stakes and payouts net to zero (after it, only the next game's stakes).
            open_pots += await conn.fetch(
                "SELECT t.table_id, 'game' AS hand_no FROM ledger.transfers t"
                " JOIN ledger.postings p ON p.id = t.posting_id"
                f" WHERE t.code IN ({GAME_POT_CODES}) AND p.posting_no <= ("
                "  SELECT max(p2.posting_no) FROM ledger.transfers t2"
                "  JOIN ledger.postings p2 ON p2.id = t2.posting_id"
                f"  WHERE t2.table_id = t.table_id AND t2.code IN ({PAYOUT_CODES}))"
                " GROUP BY t.table_id"
                " HAVING sum(CASE WHEN t.credit LIKE 'pot:%' THEN t.amount ELSE -t.amount END)"
                " <> 0"
            )
            mismatches = await conn.fetchval(
                "SELECT count(*) FROM ledger.reconciliations WHERE table_says <> ledger_says"
            )
            # Chips enter only as grants (from the bank) and bots' stakes (from the house), and
            # go back only as bots' stakes returned to the house.
            issued = await conn.fetchval(
                "SELECT count(*) FROM ledger.transfers WHERE (debit = $1 AND code <> 'grant')"
                " OR (debit = $2 AND code <> 'stake') OR credit = $1"
                " OR (credit = $2 AND code <> $3)",
                BANK,
                HOUSE,
                UNSTAKE,
            )
            dead = await conn.fetchval("SELECT count(*) FROM ledger.dead_postings")
            conflicts = await conn.fetchval("SELECT count(*) FROM ledger.conflicts")
            blocked = await conn.fetch(
                "SELECT DISTINCT d.table_id FROM ledger.dead_postings d"
                " LEFT JOIN ledger.table_progress p ON p.table_id = d.table_id"
                " WHERE d.table_id <> '' AND d.posting_no = coalesce(p.posting_no, 0) + 1"
                " ORDER BY d.table_id LIMIT 100"
            )
        assert totals is not None
        health = Health(
            ok=False,
            debits=totals["debits"],
            credits=totals["credits"],
            accounts_match_transfers=drift == 0,
            open_pots=[f"{r['table_id']}#{r['hand_no']}" for r in open_pots],
            mismatches=mismatches,
            issued_outside_grants=issued,
            dead_letters=dead,
            conflicts=conflicts,
            blocked_tables=[r["table_id"] for r in blocked],
        )
        ok = (
            health.debits == health.credits
            and health.accounts_match_transfers
            and not health.open_pots
            and not mismatches
            and not issued
        )
        return replace(health, ok=ok)
