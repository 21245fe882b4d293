"""What every part of the SQLite table store shares: the database and the rows' shapes."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiosqlite

from services.table.storage import (
    BotAccount,
    TableRow,
)
from shared.sqlite import Database, first, iso_time, run

SCOPE = "tables"
MIGRATIONS = Path(__file__).parent / "migrations_sqlite"
FREE = 0.0  # a lease's expiry when released: long past
FORGET_WORKERS = 3600.0  # workers not seen for this long are deleted


def row_of(record: aiosqlite.Row) -> TableRow:
    return TableRow(
        table_id=record["table_id"],
        game=record["game"],
        shard=record["shard"],
        config=json.loads(record["config"]),
        private=bool(record["private"]),
        invite_code=record["invite_code"],
        seq=record["seq"],
        phase=record["phase"],
        seats=json.loads(record["seats"]),
        deadline=record["deadline"],
        host_id=record["host_id"],
    )


def bot_of(record: aiosqlite.Row) -> BotAccount:
    return BotAccount(record["name"], record["owner"], iso_time(record["created_at"]))


@dataclass(eq=False)
class DatabaseStore:
    """The open database every part of the store works on, and its one-statement reads and
    writes (each in a transaction of its own)."""

    db: Database

    async def _read(self, query: str, *args: Any) -> list[aiosqlite.Row]:
        async with self.db.read() as conn:
            return list(await conn.execute_fetchall(query, args))

    async def _read_row(self, query: str, *args: Any) -> aiosqlite.Row | None:
        async with self.db.read() as conn:
            return await first(conn, query, *args)

    async def _write(self, query: str, *args: Any) -> int:
        """The number of rows the statement changed."""
        async with self.db.write() as conn:
            return await run(conn, query, *args)
