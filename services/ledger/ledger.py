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

from services.ledger.ledger_pool import (
    MIGRATIONS,
    RETRIES,
    SCHEMA,
)
from services.ledger.ledger_postings import PostingBooks
from services.ledger.ledger_reports import ReportBooks
from services.ledger.ledger_wallets import WalletBooks
from services.ledger.rules import (
    BANK,
    KINDS,
    kind_of,
    wallet,
)
from services.ledger.storage import Health, Outcome, Pending, Rejected
from shared.migrations import migrate

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


class Ledger(WalletBooks, PostingBooks, ReportBooks):
    """``LedgerStorage`` in PostgreSQL: wallets, postings and reports, each a module of its own."""

    async def migrate(self) -> None:
        async with self.pool.acquire() as conn:
            await migrate(conn, SCHEMA, MIGRATIONS)
