"""The database of the gateway's table store, which the gateways' own state shares: the chat,
the token versions and the sign-up counts live in PostgreSQL or in the embedded SQLite file,
wherever the tables do."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import asyncpg

from shared.sqlite import Database

T = TypeVar("T")


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
