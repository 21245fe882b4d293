"""The ledger's reports read from the SQLite file: their queries in its dialect (``Reports``)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import aiosqlite

from services.ledger.ledger_sqlite_db import DatabaseBooks
from services.ledger.reports import Reader, Reports, ReportSql
from services.ledger.rules import GAME_POT_CODES, PAYOUT_CODES
from shared.messages import CLOSE
from shared.rows import Row
from shared.sqlite import first, iso_time


def _leaderboard(where: str) -> str:
    """Net winnings of the moves ``where`` selects."""
    return (
        "WITH moves AS ("
        f"  SELECT credit AS account, amount FROM ledger_transfers WHERE {where}"
        "   AND substr(credit, 1, 7) = 'wallet:'"
        "  UNION ALL"
        f"  SELECT debit, -amount FROM ledger_transfers WHERE {where}"
        "   AND substr(debit, 1, 7) = 'wallet:')"
        " SELECT substr(account, 8) AS player_id, sum(amount) AS net,"
        "  coalesce(p.name, substr(account, 8)) AS name, coalesce(p.bot, 0) AS bot"
        " FROM moves LEFT JOIN ledger_players p ON p.player_id = substr(account, 8)"
        " GROUP BY account, p.name, p.bot ORDER BY net DESC, player_id LIMIT ?2"
    )


_AT_TABLES = "table_id IS NOT NULL AND created_at >= ?1"

SQLITE = ReportSql(
    history=(
        "SELECT id, debit, credit, amount, code, table_id, hand_no, created_at"
        " FROM ledger_transfers WHERE (debit = ?1 OR credit = ?1)"
        " AND (?2 IS NULL OR (created_at, id) < (?2, ?4))"
        " ORDER BY created_at DESC, id DESC LIMIT ?3"
    ),
    created_at="SELECT created_at FROM ledger_transfers WHERE id = ?",
    leaderboard=_leaderboard(_AT_TABLES),
    game_leaderboard=_leaderboard(
        _AT_TABLES + " AND posting_id IN (SELECT id FROM ledger_postings WHERE game = ?3)"
    ),
    reconciliation=(
        "SELECT r.player_id, r.posting_no, r.table_says, r.ledger_says"
        " FROM ledger_reconciliations r JOIN ledger_accounts a"
        " ON a.name = 'wallet:' || r.player_id WHERE r.table_id = ?"
        " ORDER BY r.player_id"
    ),
    progress="SELECT posting_no FROM ledger_table_progress WHERE table_id = ?",
    dead=(
        "SELECT posting_id, table_id, posting_no, reason, times, last_at"
        " FROM ledger_dead_postings ORDER BY last_at DESC LIMIT ?"
    ),
    conflicts=(
        "SELECT c.posting_id, c.table_id, c.posting_no, c.digest, p.digest AS applied,"
        " c.times, c.last_at FROM ledger_conflicts c LEFT JOIN ledger_postings p"
        " ON p.table_id = c.table_id AND p.posting_no = c.posting_no"
        " ORDER BY c.last_at DESC LIMIT ?"
    ),
    house=(
        "SELECT (SELECT credits - debits FROM ledger_accounts WHERE name = ?1) AS balance,"
        " (SELECT coalesce(sum(amount), 0) FROM ledger_transfers WHERE debit = ?1"
        "  AND code = 'stake') AS staked,"
        " (SELECT coalesce(sum(amount), 0) FROM ledger_transfers WHERE credit = ?1"
        "  AND code = ?2) AS returned,"
        " (SELECT coalesce(sum(CASE WHEN credit = ?1 THEN amount ELSE -amount END), 0)"
        f"  FROM ledger_transfers WHERE code = '{CLOSE}' AND ?1 IN (debit, credit)) AS closed,"
        " (SELECT coalesce(sum(a.credits - a.debits), 0) FROM ledger_accounts a"
        "  JOIN ledger_players p ON a.name = 'wallet:' || p.player_id WHERE p.bot)"
        "  AS held"
    ),
    totals=(
        "SELECT coalesce(sum(debits), 0) AS debits, coalesce(sum(credits), 0) AS credits"
        " FROM ledger_accounts"
    ),
    drift=(
        "SELECT count(*) FROM ledger_accounts a LEFT JOIN ("
        "  SELECT name, sum(d) AS d, sum(c) AS c FROM ("
        "   SELECT debit AS name, amount AS d, 0 AS c FROM ledger_transfers"
        "   UNION ALL SELECT credit, 0, amount FROM ledger_transfers) t GROUP BY name"
        " ) s ON s.name = a.name"
        " WHERE a.debits <> coalesce(s.d, 0) OR a.credits <> coalesce(s.c, 0)"
    ),
    # A pot closes at 0 when its hand settles: every settled hand's pot nets to zero.
    open_pots=(
        "SELECT table_id, hand_no FROM ledger_transfers"
        " WHERE (substr(debit, 1, 4) = 'pot:' OR substr(credit, 1, 4) = 'pot:')"
        f" AND code NOT IN ({GAME_POT_CODES})"
        " GROUP BY table_id, hand_no"
        " HAVING max(code NOT IN ('ante', 'carry_in'))"
        " AND sum(CASE WHEN substr(credit, 1, 4) = 'pot:' THEN amount ELSE -amount END)"
        " <> 0"
    ),
    # A game-long pot closes at 0 when its game pays out (see ledger_reports.py).
    open_game_pots=(
        "SELECT t.table_id, 'game' AS hand_no FROM ledger_transfers t"
        " JOIN ledger_postings p ON p.id = t.posting_id"
        f" WHERE t.code IN ({GAME_POT_CODES}) AND p.posting_no <= ("
        "  SELECT max(p2.posting_no) FROM ledger_transfers t2"
        "  JOIN ledger_postings p2 ON p2.id = t2.posting_id"
        f"  WHERE t2.table_id = t.table_id AND t2.code IN ({PAYOUT_CODES}))"
        " GROUP BY t.table_id"
        " HAVING sum(CASE WHEN substr(t.credit, 1, 4) = 'pot:' THEN t.amount"
        " ELSE -t.amount END) <> 0"
    ),
    mismatches="SELECT count(*) FROM ledger_reconciliations WHERE table_says <> ledger_says",
    issued=(
        "SELECT count(*) FROM ledger_transfers WHERE (debit = ?1 AND code <> 'grant')"
        f" OR (debit = ?2 AND code NOT IN ('stake', '{CLOSE}')) OR credit = ?1"
        f" OR (credit = ?2 AND code NOT IN (?3, '{CLOSE}'))"
    ),
    dead_count="SELECT count(*) FROM ledger_dead_postings",
    conflict_count="SELECT count(*) FROM ledger_conflicts",
    blocked=(
        "SELECT DISTINCT d.table_id FROM ledger_dead_postings d"
        " LEFT JOIN ledger_table_progress p ON p.table_id = d.table_id"
        " WHERE d.table_id <> '' AND d.posting_no = coalesce(p.posting_no, 0) + 1"
        " ORDER BY d.table_id LIMIT 100"
    ),
)


@dataclass
class ConnectionReader:
    """Queries on one connection, inside its read transaction."""

    conn: aiosqlite.Connection

    async def rows(self, sql: str, *args: Any) -> Sequence[Row]:
        return list(await self.conn.execute_fetchall(sql, args))

    async def row(self, sql: str, *args: Any) -> Row | None:
        return await first(self.conn, sql, *args)

    async def value(self, sql: str, *args: Any) -> Any:
        found = await first(self.conn, sql, *args)
        return None if found is None else found[0]


class SqliteReportBooks(DatabaseBooks, Reports):
    """The ledger's reports, read from the SQLite file."""

    sql = SQLITE

    @asynccontextmanager
    async def _reading(self, snapshot: bool = False) -> AsyncIterator[Reader]:
        async with self.db.read() as conn:  # always one consistent state of the file
            yield ConnectionReader(conn)

    def _stored_time(self, at: datetime) -> Any:
        return at.timestamp()  # naive: local time, as asyncpg takes it

    def _shown_time(self, stored: Any) -> str:
        return iso_time(stored)
