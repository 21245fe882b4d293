"""The ledger in an embedded SQLite file (embedded mode): ``LedgerStorage``.

The same books and guarantees as the PostgreSQL ``Ledger``, with the same rules
(``services.ledger.rules``), on a ``shared.sqlite.Database``: a posting is applied in one
``BEGIN IMMEDIATE`` transaction (SQLite's single writer, so the balances it checks cannot move
before it commits) that reads its table's progress, its accounts' balances, and writes its
transfers, the accounts' new totals and the table's progress; or rolls back whole. Postings
are applied exactly once (their id) and, per table, in order (their number): one that arrives
early waits in ``ledger_waiting`` (under its body's digest) until the posting before it is
applied. Postings are checked as ``rules`` says: dead letters and conflicts as in ``Ledger``.

Its tables carry the prefix ``ledger_``, so the ledger can share the table service's file
(give both stores one ``Database``), or have a file of its own.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiosqlite

from services.ledger.rules import (
    BANK,
    GAME_POT_CODES,
    PAYOUT_CODES,
    accounts,
    apply_in_order,
    check_seated,
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
from shared.sqlite import Database, first, run, run_many

log = logging.getLogger("swick.ledger")

SCOPE = "ledger"
MIGRATIONS = Path(__file__).parent / "migrations_sqlite"


class SqliteLedger:
    """``LedgerStorage`` over an open ``Database`` (which a ``SqliteTableStore`` may share)."""

    def __init__(self, db: Database, grant: int = 4000) -> None:
        self.db = db
        self.grant = grant

    @classmethod
    async def open(cls, path: str | Path, grant: int = 4000) -> SqliteLedger:
        """A ledger on its own connection to the file at ``path``; ``close()`` it when done."""
        return cls(await Database.open(path), grant)

    async def close(self) -> None:
        await self.db.close()

    async def migrate(self) -> None:
        await self.db.migrate(SCOPE, MIGRATIONS)

    # Wallets.

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

    async def seat(
        self,
        player_id: str,
        name: str,
        bot: bool,
        after: tuple[str, int] | None,
        table_id: str | None = None,
    ) -> int:
        if after is not None:
            async with self.db.read() as conn:
                done = await self._progress(conn, after[0])
            if done < after[1]:
                raise Pending(f"{after[0]} is applied to {done} of {after[1]}")
        if bot:
            balance = await self._stake(player_id, name)
        else:
            balance = await self.open_wallet(player_id, name, bot)
        if table_id and balance >= 0:  # a debt is refused a seat by every game: none recorded
            async with self.db.write() as conn:
                await run(
                    conn,
                    "INSERT INTO ledger_seats (player_id, table_id, bot) VALUES (?, ?, ?)"
                    " ON CONFLICT DO NOTHING",
                    player_id,
                    table_id,
                    bot,
                )
        return balance

    async def balance(self, player_id: str) -> int | None:
        async with self.db.read() as conn:
            return await self._balance(conn, player_id)

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

    # Postings.

    async def apply(self, posting: Posting) -> Outcome:
        return await apply_in_order(posting, self._apply_one, self.dead_letter)

    async def apply_batch(self, postings: Sequence[Posting]) -> bool:
        """Declines: one process holds the file, and its postings come a hand at a time."""
        return False

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

    # Reading.

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
        return [
            {
                "id": row["id"],
                "amount": row["amount"] if row["credit"] == account else -row["amount"],
                "code": row["code"],
                "table_id": row["table_id"],
                "hand_no": row["hand_no"],
                "at": datetime.fromtimestamp(row["created_at"], UTC).isoformat(),
            }
            for row in rows
        ]

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
        return [
            {
                "player_id": r["player_id"],
                "name": r["name"],
                "bot": bool(r["bot"]),
                "net": int(r["net"]),
            }
            for r in rows
        ]

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
        return problems_report(
            dead, conflicts, lambda at: datetime.fromtimestamp(at, UTC).isoformat()
        )

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
        debits, credits = int(totals["debits"]), int(totals["credits"])
        pots = [f"{r['table_id']}#{r['hand_no']}" for r in open_pots]
        ok = (
            debits == credits
            and drift["n"] == 0
            and not pots
            and not mismatches["n"]
            and not issued["n"]
        )
        return Health(
            ok=ok,
            debits=debits,
            credits=credits,
            accounts_match_transfers=drift["n"] == 0,
            open_pots=pots,
            mismatches=int(mismatches["n"]),
            issued_outside_grants=int(issued["n"]),
            dead_letters=int(dead["n"]),
            conflicts=int(conflicts["n"]),
            blocked_tables=[str(r["table_id"]) for r in blocked],
        )
