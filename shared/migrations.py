"""Plain numbered SQL migrations, one folder per service schema.

Each ``NNN_name.sql`` file runs once, in order, in its own transaction, and is recorded in
``<schema>.migrations``. A session advisory lock keeps two processes from migrating at once.
"""

from __future__ import annotations

import zlib
from pathlib import Path

import asyncpg
from asyncpg.pool import PoolConnectionProxy


async def migrate(
    conn: asyncpg.Connection | PoolConnectionProxy, schema: str, folder: Path
) -> list[str]:
    """Apply the pending migrations of ``folder``; returns the names applied."""
    lock = zlib.crc32(f"migrate:{schema}".encode())
    await conn.execute("SELECT pg_advisory_lock($1)", lock)
    try:
        await conn.execute(f'CREATE SCHEMA IF NOT EXISTS "{schema}"')
        await conn.execute(
            f'CREATE TABLE IF NOT EXISTS "{schema}".migrations ('
            " name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())"
        )
        done = {row["name"] for row in await conn.fetch(f'SELECT name FROM "{schema}".migrations')}
        applied = []
        # A few small files read once at start-up: not worth a thread.
        for path in sorted(folder.glob("*.sql")):  # noqa: ASYNC240
            if path.name in done:
                continue
            async with conn.transaction():
                await conn.execute(f'SET LOCAL search_path TO "{schema}"')
                await conn.execute(path.read_text())
                await conn.execute(
                    f'INSERT INTO "{schema}".migrations (name) VALUES ($1)', path.name
                )
            applied.append(path.name)
        return applied
    finally:
        await conn.execute("SELECT pg_advisory_unlock($1)", lock)
