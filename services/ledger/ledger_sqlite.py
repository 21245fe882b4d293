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

from pathlib import Path

from services.ledger.ledger_sqlite_db import MIGRATIONS, SCOPE
from services.ledger.ledger_sqlite_postings import SqlitePostingBooks
from services.ledger.ledger_sqlite_reports import SqliteReportBooks
from services.ledger.ledger_sqlite_wallets import SqliteWalletBooks
from shared.sqlite import Database

__all__ = ["MIGRATIONS", "SCOPE", "SqliteLedger"]


class SqliteLedger(SqliteWalletBooks, SqlitePostingBooks, SqliteReportBooks):
    """``LedgerStorage`` over an open ``Database`` (which a ``SqliteTableStore`` may share)."""

    @classmethod
    async def open(cls, path: str | Path, grant: int = 4000) -> SqliteLedger:
        """A ledger on its own connection to the file at ``path``; ``close()`` it when done."""
        return cls(await Database.open(path), grant)

    async def close(self) -> None:
        await self.db.close()

    async def migrate(self) -> None:
        await self.db.migrate(SCOPE, MIGRATIONS)
