"""A table's books in the ledger, read over the ledger's HTTP API while the services run."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import asyncpg
import httpx

from shared.settings import Settings


def ledger_client(settings: Settings) -> httpx.AsyncClient:
    """The ledger's HTTP API, with the credentials that may read it."""
    return httpx.AsyncClient(base_url=settings.ledger_url, headers=settings.ledger_auth())


async def postings_written(settings: Settings, table: str) -> int:
    """How many postings ``table`` has written for the ledger."""
    async with asyncpg.create_pool(settings.database_url, min_size=1, max_size=1) as db:
        return int(
            await db.fetchval("SELECT postings FROM tables.tables WHERE table_id = $1", table)
        )


async def caught_up(
    settings: Settings, table: str, within: float = 30.0
) -> tuple[int, dict[str, Any]]:
    """The postings ``table`` wrote and the ledger's reconciliation of it, once the ledger has
    applied them all (or the last one read, after ``within`` s)."""
    postings = await postings_written(settings, table)
    deadline = time.monotonic() + within
    async with ledger_client(settings) as ledger:
        while True:
            report: dict[str, Any] = (await ledger.get(f"/tables/{table}/reconciliation")).json()
            if report["postings_applied"] >= postings or time.monotonic() > deadline:
                return postings, report
            await asyncio.sleep(0.2)
