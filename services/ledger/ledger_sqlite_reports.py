"""What the SQLite ledger reports: a wallet's history, the chips boards, reconciliations,
problems, the house and the invariants."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from services.ledger.ledger_sqlite_db import DatabaseBooks
from services.ledger.rules import (
    BANK,
    GAME_POT_CODES,
    PAYOUT_CODES,
    health_report,
    history_report,
    house_report,
    leaderboard_report,
    problems_report,
    reconciliation_report,
    wallet,
)
from services.ledger.storage import Health
from shared.messages import HOUSE, UNSTAKE
from shared.sqlite import first, iso_time


class SqliteReportBooks(DatabaseBooks):
    """The ledger's reports, read from the SQLite file."""

    async def history(
        self, player_id: str, limit: int = 50, before: str | None = None
    ) -> list[dict[str, Any]]:
        account = wallet(player_id)
        async with self.db.read() as conn:
            cursor = None
            if before is not None:
                cursor = await first(
                    conn, "SELECT created_at FROM ledger_transfers WHERE id = ?", before
                )
            rows = await conn.execute_fetchall(
                "SELECT id, debit, credit, amount, code, table_id, hand_no, created_at"
                " FROM ledger_transfers WHERE (debit = ?1 OR credit = ?1)"
                " AND (?2 IS NULL OR (created_at, id) < (?2, ?4))"
                " ORDER BY created_at DESC, id DESC LIMIT ?3",
                (account, None if cursor is None else cursor["created_at"], limit, before),
            )
        return history_report(rows, account, iso_time)

    async def leaderboard(
        self, since: datetime, limit: int = 20, game: str | None = None
    ) -> list[dict[str, Any]]:
        where = "table_id IS NOT NULL AND created_at >= ?1"
        if game is not None:
            where += " AND posting_id IN (SELECT id FROM ledger_postings WHERE game = ?3)"
        async with self.db.read() as conn:
            rows = await conn.execute_fetchall(
                "WITH moves AS ("
                f"  SELECT credit AS account, amount FROM ledger_transfers WHERE {where}"
                "   AND substr(credit, 1, 7) = 'wallet:'"
                "  UNION ALL"
                f"  SELECT debit, -amount FROM ledger_transfers WHERE {where}"
                "   AND substr(debit, 1, 7) = 'wallet:')"
                " SELECT substr(account, 8) AS player_id, sum(amount) AS net,"
                "  coalesce(p.name, substr(account, 8)) AS name, coalesce(p.bot, 0) AS bot"
                " FROM moves LEFT JOIN ledger_players p ON p.player_id = substr(account, 8)"
                " GROUP BY account, p.name, p.bot ORDER BY net DESC, player_id LIMIT ?2",
                # naive: local time, as asyncpg takes it
                (since.timestamp(), limit, *(() if game is None else (game,))),
            )
        return leaderboard_report(rows)

    async def reconciliation(self, table_id: str) -> dict[str, Any]:
        async with self.db.read() as conn:
            rows = await conn.execute_fetchall(
                "SELECT r.player_id, r.posting_no, r.table_says, r.ledger_says"
                " FROM ledger_reconciliations r JOIN ledger_accounts a"
                " ON a.name = 'wallet:' || r.player_id WHERE r.table_id = ?"
                " ORDER BY r.player_id",
                (table_id,),
            )
            progress = await self._progress(conn, table_id)
        return reconciliation_report(table_id, rows, progress)

    async def problems(self, limit: int = 100) -> dict[str, list[dict[str, Any]]]:
        async with self.db.read() as conn:
            dead = await conn.execute_fetchall(
                "SELECT posting_id, table_id, posting_no, reason, times, last_at"
                " FROM ledger_dead_postings ORDER BY last_at DESC LIMIT ?",
                (limit,),
            )
            conflicts = await conn.execute_fetchall(
                "SELECT c.posting_id, c.table_id, c.posting_no, c.digest, p.digest AS applied,"
                " c.times, c.last_at FROM ledger_conflicts c LEFT JOIN ledger_postings p"
                " ON p.table_id = c.table_id AND p.posting_no = c.posting_no"
                " ORDER BY c.last_at DESC LIMIT ?",
                (limit,),
            )
        return problems_report(dead, conflicts, iso_time)

    async def house(self) -> dict[str, int]:
        async with self.db.read() as conn:
            row = await first(
                conn,
                "SELECT (SELECT credits - debits FROM ledger_accounts WHERE name = ?1) AS balance,"
                " (SELECT coalesce(sum(amount), 0) FROM ledger_transfers WHERE debit = ?1"
                "  AND code = 'stake') AS staked,"
                " (SELECT coalesce(sum(amount), 0) FROM ledger_transfers WHERE credit = ?1"
                "  AND code = ?2) AS returned,"
                " (SELECT coalesce(sum(a.credits - a.debits), 0) FROM ledger_accounts a"
                "  JOIN ledger_players p ON a.name = 'wallet:' || p.player_id WHERE p.bot)"
                "  AS held",
                HOUSE,
                UNSTAKE,
            )
        assert row is not None
        return house_report(row["staked"], row["returned"], row["balance"] or 0, row["held"])

    async def check(self) -> Health:
        async with self.db.read() as conn:
            totals = await first(
                conn,
                "SELECT coalesce(sum(debits), 0) AS debits, coalesce(sum(credits), 0) AS credits"
                " FROM ledger_accounts",
            )
            drift = await first(
                conn,
                "SELECT count(*) AS n FROM ledger_accounts a LEFT JOIN ("
                "  SELECT name, sum(d) AS d, sum(c) AS c FROM ("
                "   SELECT debit AS name, amount AS d, 0 AS c FROM ledger_transfers"
                "   UNION ALL SELECT credit, 0, amount FROM ledger_transfers) t GROUP BY name"
                " ) s ON s.name = a.name"
                " WHERE a.debits <> coalesce(s.d, 0) OR a.credits <> coalesce(s.c, 0)",
            )
            # A pot closes at 0 when its hand settles: every settled hand's pot nets to zero.
            open_pots = list(
                await conn.execute_fetchall(
                    "SELECT table_id, hand_no FROM ledger_transfers"
                    " WHERE (substr(debit, 1, 4) = 'pot:' OR substr(credit, 1, 4) = 'pot:')"
                    f" AND code NOT IN ({GAME_POT_CODES})"
                    " GROUP BY table_id, hand_no"
                    " HAVING max(code NOT IN ('ante', 'carry_in'))"
                    " AND sum(CASE WHEN substr(credit, 1, 4) = 'pot:' THEN amount ELSE -amount END)"
                    " <> 0"
                )
            )
            # A game-long pot closes at 0 when its game pays out (see ledger.py).
            open_pots += await conn.execute_fetchall(
                "SELECT t.table_id, 'game' AS hand_no FROM ledger_transfers t"
                " JOIN ledger_postings p ON p.id = t.posting_id"
                f" WHERE t.code IN ({GAME_POT_CODES}) AND p.posting_no <= ("
                "  SELECT max(p2.posting_no) FROM ledger_transfers t2"
                "  JOIN ledger_postings p2 ON p2.id = t2.posting_id"
                f"  WHERE t2.table_id = t.table_id AND t2.code IN ({PAYOUT_CODES}))"
                " GROUP BY t.table_id"
                " HAVING sum(CASE WHEN substr(t.credit, 1, 4) = 'pot:' THEN t.amount"
                " ELSE -t.amount END) <> 0"
            )
            mismatches = await first(
                conn,
                "SELECT count(*) AS n FROM ledger_reconciliations WHERE table_says <> ledger_says",
            )
            issued = await first(
                conn,
                "SELECT count(*) AS n FROM ledger_transfers WHERE (debit = ?1 AND code <> 'grant')"
                " OR (debit = ?2 AND code <> 'stake') OR credit = ?1"
                " OR (credit = ?2 AND code <> ?3)",
                BANK,
                HOUSE,
                UNSTAKE,
            )
            dead = await first(conn, "SELECT count(*) AS n FROM ledger_dead_postings")
            conflicts = await first(conn, "SELECT count(*) AS n FROM ledger_conflicts")
            blocked = await conn.execute_fetchall(
                "SELECT DISTINCT d.table_id FROM ledger_dead_postings d"
                " LEFT JOIN ledger_table_progress p ON p.table_id = d.table_id"
                " WHERE d.table_id <> '' AND d.posting_no = coalesce(p.posting_no, 0) + 1"
                " ORDER BY d.table_id LIMIT 100"
            )
        assert totals is not None and drift is not None and mismatches is not None
        assert issued is not None and dead is not None and conflicts is not None
        return health_report(
            debits=totals["debits"],
            credits=totals["credits"],
            drifted=drift["n"],
            open_pots=open_pots,
            mismatches=mismatches["n"],
            issued=issued["n"],
            dead=dead["n"],
            conflicts=conflicts["n"],
            blocked=blocked,
        )
