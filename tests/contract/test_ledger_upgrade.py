"""Books written before the ledger checked postings (schema 001) keep working after the
upgrade: players who played at a table count as seated there, a posting left waiting drains
(or is set aside) in its turn, and old rejections become dead letters."""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from services.ledger import ledger as pg_ledger
from services.ledger import ledger_sqlite
from services.ledger.ledger import Ledger
from services.ledger.ledger_sqlite import SqliteLedger
from services.ledger.storage import LedgerStorage
from services.load.platform import fresh_database
from services.table.store import connect_pool
from shared.messages import Posting
from shared.migrations import migrate
from shared.settings import Settings
from shared.sqlite import Database
from tests.contract.conftest import BACKENDS, leg, posting

# Ann got her grant and anted 10 at table t (posting 1); posting 3 of t waits for 2; a posting
# of table x was rejected. Each row as SQL for either backend (``DIALECTS`` fills it in), with
# its arguments.
GRANT = 4000
WAITING = posting("t", 3, [leg("pot:t", "wallet:ann", 5, "trick_payout")])
REJECTED = posting("x", 1, [leg("wallet:ann", "pot:x", 10**6, "ante")])
ROWS: list[tuple[str, tuple[str, ...]]] = [
    (
        "INSERT INTO {p}postings (id, table_id, posting_no, hand_no{applied_at})"
        " VALUES ('grant:ann', NULL, NULL, 0{now}), ('t:1', 't', 1, 1{now})",
        (),
    ),
    ("UPDATE {p}accounts SET debits = 4000 WHERE name = 'bank'", ()),
    (
        "INSERT INTO {p}accounts (name, kind, debits, credits)"
        " VALUES ('wallet:ann', 'wallet', 10, 4000), ('pot:t', 'pot', 0, 10)",
        (),
    ),
    (
        "INSERT INTO {p}transfers (id, posting_id, debit, credit, amount, code, table_id,"
        " hand_no{created_at}) VALUES ('grant:ann:0', 'grant:ann', 'bank', 'wallet:ann', 4000,"
        " 'grant', NULL, 0{now}), ('t:1:0', 't:1', 'wallet:ann', 'pot:t', 10, 'ante', 't', 1{now})",
        (),
    ),
    ("INSERT INTO {p}table_progress (table_id, posting_no) VALUES ('t', 1)", ()),
    (
        "INSERT INTO {p}waiting (table_id, posting_no, body) VALUES ('t', 3, {json})",
        (WAITING.model_dump_json(),),
    ),
    (
        "INSERT INTO {p}rejected (posting_id, body, reason{at})"
        " VALUES ('x:1', {json}, 'too much'{now})",
        (REJECTED.model_dump_json(),),
    ),
]
# Schema 001's differences: SQLite's names have a prefix, not a schema; its rows say when
# (here at 1); its JSON is text.
DIALECTS = {
    "postgres": {
        "p": "ledger.",
        "applied_at": "",
        "created_at": "",
        "at": "",
        "now": "",
        "json": "$1::text::jsonb",
    },
    "sqlite": {
        "p": "ledger_",
        "applied_at": ", applied_at",
        "created_at": ", created_at",
        "at": ", at",
        "now": ", 1",
        "json": "?",
    },
}


@pytest.fixture(params=BACKENDS)
async def old_books(
    request: pytest.FixtureRequest, settings: Settings, tmp_path: Path
) -> AsyncIterator[LedgerStorage]:
    """Books at schema 001 with the rows above, then upgraded."""
    first = tmp_path / "first"
    first.mkdir()
    rows = [(sql.format(**DIALECTS[request.param]), args) for sql, args in ROWS]
    if request.param == "postgres":
        shutil.copy(pg_ledger.MIGRATIONS / "001_ledger.sql", first)
        async with fresh_database(settings.database_url, "upgrade") as dsn:
            pool = await connect_pool(dsn, size=2)
            try:
                async with pool.acquire() as conn:
                    await migrate(conn, "ledger", first)
                    for sql, args in rows:
                        await conn.execute(sql, *args)
                books: LedgerStorage = Ledger(pool, GRANT)
                await books.migrate()
                yield books
            finally:
                await pool.close()
        return
    shutil.copy(ledger_sqlite.MIGRATIONS / "001_ledger.sql", first)
    db = await Database.open(tmp_path / "old.db")
    try:
        await db.migrate("ledger", first)
        async with db.write() as sqlite:
            for sql, args in rows:
                await sqlite.execute(sql, args)
        sqlite_books: LedgerStorage = SqliteLedger(db, GRANT)
        await sqlite_books.migrate()
        yield sqlite_books
    finally:
        await db.close()


async def test_old_books_keep_working(old_books: LedgerStorage) -> None:
    health = await old_books.check()
    assert (health.ok, health.dead_letters, health.blocked_tables) == (True, 1, ["x"])
    [dead] = (await old_books.problems())["dead_letters"]
    assert (dead["posting_id"], dead["table_id"], dead["posting_no"]) == ("x:1", "x", 1)
    # Ann played at t: she is seated there, and posting 2 applies, then the one waiting.
    second = posting("t", 2, [leg("pot:t", "wallet:ann", 6, "trick_payout")])
    assert await old_books.apply(second) == "applied"
    assert await old_books.balance("ann") == GRANT - 10 + 6
    assert (await old_books.reconciliation("t"))["postings_applied"] == 2
    assert (await old_books.check()).blocked_tables == ["t", "x"]  # 3 asks more than the pot
    assert await old_books.apply(Posting.model_validate_json(WAITING.model_dump_json())) == (
        "rejected"
    )
    # Set aside once, and no longer waiting: a valid posting 3 applies.
    assert await old_books.apply(posting("t", 3, [leg("wallet:ann", "pot:t", 6, "ante")])) == (
        "applied"
    )
    health = await old_books.check()
    assert (health.dead_letters, health.blocked_tables) == (2, ["x"])
    assert health.debits == health.credits and health.accounts_match_transfers
    assert await old_books.balance("ann") == GRANT - 10
