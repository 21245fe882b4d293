"""The ledger's reports read from PostgreSQL: their queries in its dialect (``Reports``)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import asyncpg

from services.ledger.ledger_pool import Conn, PoolBooks
from services.ledger.reports import Reader, Reports, ReportSql
from services.ledger.rules import GAME_POT_CODES, PAYOUT_CODES
from shared.messages import CLOSE
from shared.rows import Row


def _leaderboard(where: str) -> str:
    """Net winnings of the moves ``where`` selects."""
    return (
        "WITH moves AS ("
        f"  SELECT credit AS account, amount FROM ledger.transfers WHERE {where}"
        "   AND credit LIKE 'wallet:%'"
        "  UNION ALL"
        f"  SELECT debit, -amount FROM ledger.transfers WHERE {where}"
        "   AND debit LIKE 'wallet:%')"
        " SELECT substr(account, 8) AS player_id, sum(amount)::bigint AS net,"
        "  coalesce(p.name, substr(account, 8)) AS name, coalesce(p.bot, false) AS bot"
        " FROM moves LEFT JOIN ledger.players p ON p.player_id = substr(account, 8)"
        " GROUP BY account, p.name, p.bot ORDER BY net DESC, player_id LIMIT $2"
    )


_AT_TABLES = "table_id IS NOT NULL AND created_at >= $1"

POSTGRES = ReportSql(
    history=(
        "SELECT id, debit, credit, amount, code, table_id, hand_no, created_at"
        " FROM ledger.transfers WHERE (debit = $1 OR credit = $1)"
        " AND ($2::timestamptz IS NULL OR (created_at, id) < ($2, $4::text))"
        " ORDER BY created_at DESC, id DESC LIMIT $3"
    ),
    created_at="SELECT created_at FROM ledger.transfers WHERE id = $1",
    leaderboard=_leaderboard(_AT_TABLES),
    game_leaderboard=_leaderboard(
        _AT_TABLES + " AND posting_id IN (SELECT id FROM ledger.postings WHERE game = $3)"
    ),
    reconciliation=(
        "SELECT r.player_id, r.posting_no, r.table_says, r.ledger_says"
        " FROM ledger.reconciliations r JOIN ledger.accounts a"
        " ON a.name = 'wallet:' || r.player_id WHERE r.table_id = $1 ORDER BY r.player_id"
    ),
    progress="SELECT posting_no FROM ledger.table_progress WHERE table_id = $1",
    dead=(
        "SELECT posting_id, table_id, posting_no, reason, times, last_at"
        " FROM ledger.dead_postings ORDER BY last_at DESC LIMIT $1"
    ),
    conflicts=(
        "SELECT c.posting_id, c.table_id, c.posting_no, c.digest, p.digest AS applied,"
        " c.times, c.last_at FROM ledger.conflicts c LEFT JOIN ledger.postings p"
        " ON p.table_id = c.table_id AND p.posting_no = c.posting_no"
        " ORDER BY c.last_at DESC LIMIT $1"
    ),
    house=(
        "SELECT (SELECT credits - debits FROM ledger.accounts WHERE name = $1) AS balance,"
        " (SELECT coalesce(sum(amount), 0) FROM ledger.transfers WHERE debit = $1"
        "  AND code = 'stake')::bigint AS staked,"
        " (SELECT coalesce(sum(amount), 0) FROM ledger.transfers WHERE credit = $1"
        "  AND code = $2)::bigint AS returned,"
        " (SELECT coalesce(sum(CASE WHEN credit = $1 THEN amount ELSE -amount END), 0)"
        f"  FROM ledger.transfers WHERE code = '{CLOSE}' AND $1 IN (debit, credit))::bigint"
        "  AS closed,"
        " (SELECT coalesce(sum(a.credits - a.debits), 0) FROM ledger.accounts a"
        "  JOIN ledger.players p ON a.name = 'wallet:' || p.player_id WHERE p.bot)::bigint"
        "  AS held"
    ),
    totals=(
        "SELECT coalesce(sum(debits), 0)::bigint AS debits,"
        " coalesce(sum(credits), 0)::bigint AS credits"
        " FROM ledger.accounts"
    ),
    drift=(
        "SELECT count(*) FROM ledger.accounts a LEFT JOIN ("
        "  SELECT name, sum(d) AS d, sum(c) AS c FROM ("
        "   SELECT debit AS name, amount AS d, 0 AS c FROM ledger.transfers"
        "   UNION ALL SELECT credit, 0, amount FROM ledger.transfers) t GROUP BY name"
        " ) s ON s.name = a.name"
        " WHERE a.debits <> coalesce(s.d, 0) OR a.credits <> coalesce(s.c, 0)"
    ),
    # A pot closes at 0 when its hand settles: every settled hand's pot nets to zero.
    open_pots=(
        "SELECT table_id, hand_no FROM ledger.transfers"
        " WHERE (debit LIKE 'pot:%' OR credit LIKE 'pot:%')"
        f" AND code NOT IN ({GAME_POT_CODES})"
        " GROUP BY table_id, hand_no"
        " HAVING bool_or(code NOT IN ('ante', 'carry_in'))"
        " AND sum(CASE WHEN credit LIKE 'pot:%' THEN amount ELSE -amount END) <> 0"
    ),
    # A game-long pot closes at 0 when its game pays out: up to a table's last payout, its
    # stakes and payouts net to zero (after it, only the next game's stakes).
    open_game_pots=(
        "SELECT t.table_id, 'game' AS hand_no FROM ledger.transfers t"
        " JOIN ledger.postings p ON p.id = t.posting_id"
        f" WHERE t.code IN ({GAME_POT_CODES}) AND p.posting_no <= ("
        "  SELECT max(p2.posting_no) FROM ledger.transfers t2"
        "  JOIN ledger.postings p2 ON p2.id = t2.posting_id"
        f"  WHERE t2.table_id = t.table_id AND t2.code IN ({PAYOUT_CODES}))"
        " GROUP BY t.table_id"
        " HAVING sum(CASE WHEN t.credit LIKE 'pot:%' THEN t.amount ELSE -t.amount END)"
        " <> 0"
    ),
    mismatches="SELECT count(*) FROM ledger.reconciliations WHERE table_says <> ledger_says",
    # Chips enter only as grants (from the bank) and bots' stakes (from the house), and go back
    # only as bots' stakes returned to the house.
    issued=(
        "SELECT count(*) FROM ledger.transfers WHERE (debit = $1 AND code <> 'grant')"
        f" OR (debit = $2 AND code NOT IN ('stake', '{CLOSE}')) OR credit = $1"
        f" OR (credit = $2 AND code NOT IN ($3, '{CLOSE}'))"
    ),
    dead_count="SELECT count(*) FROM ledger.dead_postings",
    conflict_count="SELECT count(*) FROM ledger.conflicts",
    blocked=(
        "SELECT DISTINCT d.table_id FROM ledger.dead_postings d"
        " LEFT JOIN ledger.table_progress p ON p.table_id = d.table_id"
        " WHERE d.table_id <> '' AND d.posting_no = coalesce(p.posting_no, 0) + 1"
        " ORDER BY d.table_id LIMIT 100"
    ),
)


@dataclass
class PoolReader:
    """Queries on the pool (each on a connection of its own) or on one connection."""

    on: asyncpg.Pool | Conn

    async def rows(self, sql: str, *args: Any) -> Sequence[Row]:
        rows: Sequence[Row] = await self.on.fetch(sql, *args)
        return rows

    async def row(self, sql: str, *args: Any) -> Row | None:
        row: Row | None = await self.on.fetchrow(sql, *args)
        return row

    async def value(self, sql: str, *args: Any) -> Any:
        return await self.on.fetchval(sql, *args)


class ReportBooks(PoolBooks, Reports):
    """The ledger's reports, read from PostgreSQL."""

    sql = POSTGRES

    @asynccontextmanager
    async def _reading(self, snapshot: bool = False) -> AsyncIterator[Reader]:
        if not snapshot:
            yield PoolReader(self.pool)
            return
        async with self.pool.acquire() as conn, conn.transaction(isolation="repeatable_read"):
            yield PoolReader(conn)

    def _stored_time(self, at: datetime) -> Any:
        return at

    def _shown_time(self, stored: Any) -> str:
        return str(stored.isoformat())
