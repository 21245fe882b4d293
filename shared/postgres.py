"""PostgreSQL connection pools, the same for every service.

Each service opens its own pool with ``connect_pool`` (its own ``application_name``), so no
service reaches into another's package to talk to the database.
"""

from __future__ import annotations

import json

import asyncpg

DEFAULT_DSN = "postgresql://postgres@127.0.0.1:5432/postgres"


async def _init_connection(conn: asyncpg.Connection) -> None:
    await conn.set_type_codec("jsonb", encoder=json.dumps, decoder=json.loads, schema="pg_catalog")


async def connect_pool(
    dsn: str = DEFAULT_DSN, *, size: int = 10, application: str = "swick"
) -> asyncpg.Pool:
    """A pool whose connections say which service holds them (``application_name``: an
    operator sees it in ``pg_stat_activity``), with JSONB values decoded to Python values."""
    pool = await asyncpg.create_pool(
        dsn,
        min_size=1,
        max_size=size,
        init=_init_connection,
        reset=_keep_session,
        server_settings={"application_name": application},
    )
    assert pool is not None
    return pool


async def _keep_session(conn: asyncpg.Connection) -> None:
    """Nothing to reset between uses: the services keep no session state (no LISTEN, no
    session settings, no advisory locks held past a call), so skip the reset query that would
    otherwise cost a round trip every time a connection goes back to the pool."""
