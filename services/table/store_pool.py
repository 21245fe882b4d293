"""What every part of the PostgreSQL table store shares: the pool, reads asked once more after
a lost connection, the rows' shapes."""

from __future__ import annotations

import logging
import zlib
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import asyncpg

from services.table.storage import (
    BotAccount,
    TableRow,
)
from shared.startup import described
from shared.supervise import retryable

log = logging.getLogger("swick.table")

T = TypeVar("T")

SCHEMA = "tables"
MIGRATIONS = Path(__file__).parent / "migrations"
FENCED = "SWFEN"  # the SQLSTATE tables.append() raises when the lease moved on


def host_lock(host_id: str) -> int:
    """The advisory lock that orders one host's table creations."""
    return zlib.crc32(f"host:{host_id}".encode())


def row_of(record: asyncpg.Record) -> TableRow:
    return TableRow(
        table_id=record["table_id"],
        game=record["game"],
        shard=record["shard"],
        config=record["config"],
        private=record["private"],
        invite_code=record["invite_code"],
        seq=record["seq"],
        phase=record["phase"],
        seats=record["seats"],
        deadline=record["deadline"],
        host_id=record["host_id"],
    )


async def once_more(pool: asyncpg.Pool, read: Callable[[], Awaitable[T]]) -> T:
    """``read()``, asked once more if its connection was lost under it (a database restarting
    or failing over: its other connections are likely gone too, so the pool replaces them
    all). For reads only: a write cut short may have committed."""
    try:
        return await read()
    except Exception as error:
        if not retryable(error):
            raise
        log.warning("reading again on fresh connections: %s", described(error))
        await pool.expire_connections()
        return await read()


def bot_of(record: asyncpg.Record) -> BotAccount:
    return BotAccount(record["name"], record["owner"], record["created_at"].isoformat())


@dataclass(eq=False)
class PoolStore:
    """The pool every part of the store works on, and its reads and writes' loss handling."""

    pool: asyncpg.Pool

    @asynccontextmanager
    async def _fresh_on_loss(self) -> AsyncIterator[None]:
        """After a write's connection was lost (the database restarting or failing over: its
        other connections are likely gone too), the pool replaces them all."""
        try:
            yield
        except Exception as error:
            if retryable(error):
                await self.pool.expire_connections()
            raise

    async def _read(self, query: str, *args: Any) -> list[asyncpg.Record]:
        return await once_more(self.pool, lambda: self.pool.fetch(query, *args))

    async def _read_row(self, query: str, *args: Any) -> asyncpg.Record | None:
        return await once_more(self.pool, lambda: self.pool.fetchrow(query, *args))
