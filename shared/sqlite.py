"""One embedded SQLite database file, shared by the services of one process (embedded mode).

A ``Database`` is one ``aiosqlite`` connection guarded by an ``asyncio.Lock``: every read and
every transaction of the process takes the lock, so the stores built on it (the table store,
the ledger) never see each other's half-done work on the shared connection. A write
transaction starts with ``BEGIN IMMEDIATE``, which takes SQLite's write lock at once: there is
a single writer, and a check read inside the transaction (a lease's epoch, a balance) still
holds when the transaction commits. The file is in WAL mode with a busy timeout, so another
process reading the file (an operator's ``sqlite3`` shell) neither blocks nor is refused.

Migrations are plain numbered ``NNN_name.sql`` files, one folder per service (the tables of
each service carry its prefix, ``tables_`` or ``ledger_``), applied in order, each in its own
transaction, and recorded in ``migrations`` with their scope.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

BUSY_TIMEOUT_MS = 5000
IN_LIST = 500  # values bound in one IN list: well inside SQLite's bound on parameters

T = TypeVar("T")


class Database:
    """An open database file; ``Database.open(path)`` to make one, ``close()`` when done."""

    def __init__(
        self, conn: aiosqlite.Connection, path: str, clock: Callable[[], float] = time.time
    ) -> None:
        self.conn = conn
        self.path = path
        self.clock = clock
        self.lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path, clock: Callable[[], float] = time.time) -> Database:
        """Open (or create) the database file at ``path`` (``":memory:"`` for a throwaway)."""
        # Autocommit mode: transactions are begun and ended explicitly here.
        conn = await aiosqlite.connect(str(path), isolation_level=None)
        try:
            conn.row_factory = aiosqlite.Row
            await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            await conn.execute("PRAGMA journal_mode = WAL")
            # In WAL mode a commit survives a crash of the process; only a power cut may lose
            # the last transactions (and leaves the file consistent): enough for embedded mode.
            await conn.execute("PRAGMA synchronous = NORMAL")
            await conn.execute("PRAGMA foreign_keys = ON")
        except BaseException:
            await conn.close()
            raise
        return cls(conn, str(path), clock)

    async def close(self) -> None:
        async with self.lock:
            await self.conn.close()

    def now(self) -> float:
        """The time to record, in seconds since the epoch."""
        return self.clock()

    @asynccontextmanager
    async def read(self) -> AsyncIterator[aiosqlite.Connection]:
        """The connection, for reads that see one consistent state of the file."""
        async with self._transaction("BEGIN") as conn:
            yield conn

    @asynccontextmanager
    async def write(self) -> AsyncIterator[aiosqlite.Connection]:
        """The connection inside a write transaction (SQLite's write lock taken at its start):
        committed at the end of the block, rolled back whole if the block raises."""
        async with self._transaction("BEGIN IMMEDIATE") as conn:
            yield conn

    @asynccontextmanager
    async def _transaction(self, begin: str) -> AsyncIterator[aiosqlite.Connection]:
        async with self.lock:
            try:
                await self.conn.execute(begin)
                yield self.conn
                await self.conn.execute("COMMIT")
            except BaseException:
                # Also when cancelled: the connection runs its calls in order, so this rollback
                # comes after whatever was sent before and before the next holder of the lock.
                await asyncio.shield(self._rollback())
                raise

    async def _rollback(self) -> None:
        with contextlib.suppress(sqlite3.OperationalError):  # no transaction was open
            await self.conn.execute("ROLLBACK")

    async def migrate(self, scope: str, folder: Path) -> list[str]:
        """Apply the pending migrations of ``folder`` for ``scope``; returns the names applied."""
        async with self.write() as conn:
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS migrations (scope TEXT NOT NULL, name TEXT NOT NULL,"
                " applied_at REAL NOT NULL, PRIMARY KEY (scope, name))"
            )
        applied = []
        # A few small files read once at start-up: not worth a thread.
        for path in sorted(folder.glob("*.sql")):  # noqa: ASYNC240
            async with self.write() as conn:
                done = await conn.execute_fetchall(
                    "SELECT 1 FROM migrations WHERE scope = ? AND name = ?", (scope, path.name)
                )
                if done:
                    continue
                for statement in statements(path.read_text()):
                    await conn.execute(statement)
                await conn.execute(
                    "INSERT INTO migrations (scope, name, applied_at) VALUES (?, ?, ?)",
                    (scope, path.name, self.now()),
                )
            applied.append(path.name)
        return applied


def statements(script: str) -> list[str]:
    """The SQL statements of ``script``, one by one (a transaction cannot run a whole script):
    cut at each semicolon that ends a statement (not one in a string or a comment)."""
    found = []
    start = 0
    for end, char in enumerate(script):
        if char == ";" and sqlite3.complete_statement(script[start : end + 1]):
            found.append(script[start : end + 1].strip())
            start = end + 1
    rest = [line.strip() for line in script[start:].splitlines()]
    if any(line and not line.startswith("--") for line in rest):
        raise ValueError(f"incomplete SQL statement at the end: {script[start:].strip()[:80]}")
    return found


def iso_time(seconds: float) -> str:
    """A stored time (seconds since the epoch, as the stores keep them) in ISO 8601, as the
    PostgreSQL stores show theirs."""
    return datetime.fromtimestamp(seconds, UTC).isoformat()


async def first(conn: aiosqlite.Connection, sql: str, *args: Any) -> aiosqlite.Row | None:
    """The first row of a query (which runs to its end), or ``None``."""
    rows = list(await conn.execute_fetchall(sql, args))
    return rows[0] if rows else None


async def run(conn: aiosqlite.Connection, sql: str, *args: Any) -> int:
    """Run one statement; the number of rows it changed."""
    async with conn.execute(sql, args) as cursor:
        return cursor.rowcount


async def run_many(conn: aiosqlite.Connection, sql: str, args: Iterable[Sequence[Any]]) -> None:
    """Run one statement for each of ``args``."""
    async with conn.executemany(sql, args):
        pass


def in_lists(values: Sequence[T]) -> Iterator[tuple[str, list[T]]]:
    """``values`` in slices of at most ``IN_LIST``, each with its marks (``?,?,?``) for an
    ``IN (...)``: a statement binds only so many parameters."""
    for start in range(0, len(values), IN_LIST):
        chunk = list(values[start : start + IN_LIST])
        yield ",".join("?" * len(chunk)), chunk


async def rows_in(
    conn: aiosqlite.Connection, sql: str, values: Sequence[Any]
) -> list[aiosqlite.Row]:
    """The rows of a query on ``values`` of any number, slice by slice: ``sql`` binds nothing
    but its ``IN ({marks})``."""
    rows: list[aiosqlite.Row] = []
    for marks, chunk in in_lists(values):
        rows += await conn.execute_fetchall(sql.format(marks=marks), chunk)
    return rows
