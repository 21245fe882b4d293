"""The database of the gateway's table store, which the gateways' own state shares: the chat,
the token versions and the sign-up counts live in PostgreSQL or in the embedded SQLite file,
wherever the tables do (in memory without either)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import asyncpg

from shared.migrations import migrate
from shared.sqlite import Database

T = TypeVar("T")

SCHEMA = "gateway"
MIGRATIONS = Path(__file__).parent / "migrations"
MIGRATIONS_SQLITE = Path(__file__).parent / "migrations_sqlite"


@dataclass(eq=False)
class InPostgres:
    """Gateway state in PostgreSQL, in the gateway's own schema."""

    pool: asyncpg.Pool

    async def migrate(self) -> None:
        async with self.pool.acquire() as conn:
            await migrate(conn, SCHEMA, MIGRATIONS)


@dataclass(eq=False)
class InSqlite:
    """Gateway state in the embedded SQLite file, in ``gateway_`` tables."""

    db: Database

    async def migrate(self) -> None:
        await self.db.migrate(SCHEMA, MIGRATIONS_SQLITE)


class InMemory:
    """Gateway state in one process's memory (a gateway without a database of its own: some
    tests): nothing to migrate."""

    async def migrate(self) -> None:
        return None


def in_store_database(
    store: object,
    postgres: Callable[[asyncpg.Pool], T],
    sqlite: Callable[[Database], T],
    neither: Callable[[], T],
) -> T:
    """``postgres`` or ``sqlite`` made on the database of ``store`` (a table store), by its
    kind; ``neither`` for a store without one."""
    pool = getattr(store, "pool", None)
    if isinstance(pool, asyncpg.Pool):
        return postgres(pool)
    db = getattr(store, "db", None)
    if isinstance(db, Database):
        return sqlite(db)
    return neither()
