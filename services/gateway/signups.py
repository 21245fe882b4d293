"""How many players one client address may sign up: each new player can bring a starting
grant, so sign-ups are limited per address and period (docs/chips.md).

The count lives in the database every gateway process shares (PostgreSQL, or the embedded
SQLite file; the table store's migrations create its table), so adding gateways does not
multiply the limit. The address is the client's (``guesses.client_address``): the peer's,
or behind a proxy listed in ``SWICK_TRUSTED_PROXIES`` the one it names; an IPv6 client's /64.
"""

from __future__ import annotations

import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import asyncpg
from fastapi import HTTPException, Request

from services.gateway.guesses import client_address
from services.gateway.store_database import in_store_database
from shared.sqlite import Database, first, run


class Counter(Protocol):
    """Where sign-ups are counted."""

    async def count_and_add(self, address: str, since: float, now: float, limit: int) -> bool:
        """Forget sign-ups before ``since``; if ``address`` has fewer than ``limit`` since,
        record one at ``now`` and say ``True``; all as one step however many gateways ask."""
        ...


@dataclass(eq=False)
class PostgresSignups(Counter):
    pool: asyncpg.Pool

    async def count_and_add(self, address: str, since: float, now: float, limit: int) -> bool:
        async with self.pool.acquire() as conn, conn.transaction():
            # One address's sign-ups go one at a time, in every gateway process.
            await conn.execute(
                "SELECT pg_advisory_xact_lock($1)", zlib.crc32(f"signup:{address}".encode())
            )
            await conn.execute(
                "DELETE FROM tables.signups WHERE address = $1 AND at < $2", address, since
            )
            count: int = await conn.fetchval(
                "SELECT count(*) FROM tables.signups WHERE address = $1", address
            )
            if count >= limit:
                return False
            await conn.execute(
                "INSERT INTO tables.signups (address, at) VALUES ($1, $2)", address, now
            )
            return True


@dataclass(eq=False)
class SqliteSignups(Counter):
    db: Database

    async def count_and_add(self, address: str, since: float, now: float, limit: int) -> bool:
        async with self.db.write() as conn:
            await run(
                conn, "DELETE FROM tables_signups WHERE address = ? AND at < ?", address, since
            )
            row = await first(
                conn, "SELECT count(*) AS n FROM tables_signups WHERE address = ?", address
            )
            if row is not None and int(row["n"]) >= limit:
                return False
            await run(conn, "INSERT INTO tables_signups (address, at) VALUES (?, ?)", address, now)
            return True


@dataclass(eq=False)
class SignupLimit:
    """At most ``limit`` sign-ups per client address in any ``period`` seconds."""

    counter: Counter
    limit: int
    period: float
    clock: Callable[[], float] = time.time

    async def admit(self, address: str) -> bool:
        now = self.clock()
        return await self.counter.count_and_add(address, now - self.period, now, self.limit)


def counter_for(store: object) -> Counter:
    """The sign-up counter in the database of the gateway's table store."""

    def none() -> Counter:
        raise TypeError(f"no database to count sign-ups in: {type(store).__name__}")

    return in_store_database(store, PostgresSignups, SqliteSignups, none)


async def admit(request: Request) -> None:
    """Let a sign-up through, or answer 429 when its address used up its sign-ups."""
    gw = request.app.state.gateway
    limit: SignupLimit | None = getattr(request.app.state, "signups", None)
    if limit is None:
        settings = gw.settings
        period = settings.grant_period_hours * 3600
        limit = SignupLimit(counter_for(gw.store), settings.grants_per_address, period)
        request.app.state.signups = limit
    address = client_address(request.client) or "unknown"
    if not await limit.admit(address):
        hours = limit.period / 3600
        raise HTTPException(
            429,
            f"Too many new players from your address: at most {limit.limit} "
            f"every {hours:g} hours. Play on with the player you have.",
        )
