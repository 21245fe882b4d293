"""What every part of the PostgreSQL ledger shares: the pool, transactions retried on
deadlocks and lost connections, and writing one posting's transfers."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from services.ledger.rules import (
    accounts,
    kind_of,
    settle,
)
from shared.messages import Posting
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


async def transaction(pool: asyncpg.Pool, work: Callable[[Conn], Awaitable[T]]) -> T:
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


class NotPlain(Exception):
    """A posting of a batch is not simply applied: the batch is undone."""


@dataclass(eq=False)
class PoolBooks:
    """The pool and the grant every part of the ledger works with, and the posting writer."""

    pool: asyncpg.Pool
    grant: int = 4000

    async def _applied(self, table_id: str, conn: Conn | None = None) -> int:
        """How many of the table's postings are applied (read on ``conn``, if given)."""
        done: int | None = await (conn or self.pool).fetchval(
            "SELECT posting_no FROM ledger.table_progress WHERE table_id = $1", table_id
        )
        return done or 0

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
