"""What the PostgreSQL ledger reports: a wallet's history, the chips boards, reconciliations,
problems, the house and the invariants."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from services.ledger.ledger_pool import PoolBooks
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


class ReportBooks(PoolBooks):
    """The ledger's reports, read from PostgreSQL."""

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
        return history_report(rows, account, lambda at: at.isoformat())

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
        return leaderboard_report(rows)

    async def reconciliation(self, table_id: str) -> dict[str, Any]:
        rows = await self.pool.fetch(
            "SELECT r.player_id, r.posting_no, r.table_says, r.ledger_says,"
            " a.credits - a.debits AS balance_now"
            " FROM ledger.reconciliations r JOIN ledger.accounts a"
            " ON a.name = 'wallet:' || r.player_id WHERE r.table_id = $1 ORDER BY r.player_id",
            table_id,
        )
        return reconciliation_report(table_id, rows, await self._applied(table_id))

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
        return health_report(
            debits=totals["debits"],
            credits=totals["credits"],
            drifted=drift,
            open_pots=open_pots,
            mismatches=mismatches,
            issued=issued,
            dead=dead,
            conflicts=conflicts,
            blocked=blocked,
        )
