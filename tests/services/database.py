"""Reading (and, for a test's own setup, writing) the run's database behind the services' backs,
each query on a connection of its own."""

from __future__ import annotations

import json
from typing import Any

import asyncpg

from shared.settings import Settings


async def fetch(settings: Settings, sql: str, *args: Any) -> list[asyncpg.Record]:
    """The rows ``sql`` answers (none for a statement that changes rows)."""
    conn = await asyncpg.connect(settings.database_url)
    try:
        rows: list[asyncpg.Record] = await conn.fetch(sql, *args)
        return rows
    finally:
        await conn.close()


async def fetchval(settings: Settings, sql: str, *args: Any) -> Any:
    """The first column of the first row ``sql`` answers."""
    rows = await fetch(settings, sql, *args)
    return rows[0][0] if rows else None


async def log_length(settings: Settings, table: str) -> int:
    """How many commands ``table``'s event log holds."""
    return int(
        await fetchval(settings, "SELECT count(*) FROM tables.events WHERE table_id = $1", table)
    )


async def logged_events(settings: Settings, table: str, after: int = 0) -> list[dict[str, Any]]:
    """The events ``table``'s log holds after ``after``, in order."""
    rows = await fetch(
        settings,
        "SELECT events::text FROM tables.events WHERE table_id = $1 AND seq > $2 ORDER BY seq",
        table,
        after,
    )
    return [event for row in rows for event in json.loads(row["events"])]


async def timeouts(settings: Settings, table: str) -> list[dict[str, Any]]:
    """The decisions ``table``'s timer made for a seat that did not answer in time."""
    return [e for e in await logged_events(settings, table) if e["kind"] == "timed_out"]
