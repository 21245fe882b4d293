"""The tables' rows in PostgreSQL: creating and finding tables, the lobby, seatings, the
overview."""

from __future__ import annotations

from typing import Any

from services.table.overview import overview_report
from services.table.storage import (
    TableRow,
    TooManyTables,
)
from services.table.store_pool import (
    PoolStore,
    host_lock,
    once_more,
    row_of,
)


class TableDirectory(PoolStore):
    async def create(self, row: TableRow, host_limit: int | None = None) -> bool:
        """Insert a new table; ``False`` if its id or invite code exists already."""
        async with self.pool.acquire() as conn, conn.transaction():
            if host_limit is not None:
                # One host's creations queue here, so each counts the ones before it.
                await conn.execute("SELECT pg_advisory_xact_lock($1)", host_lock(row.host_id))
                if await conn.fetchval(
                    "SELECT 1 FROM tables.tables WHERE table_id = $1", row.table_id
                ):
                    return False
                hosted = await conn.fetchval(
                    "SELECT count(*) FROM tables.tables WHERE host_id = $1 AND phase <> 'closed'",
                    row.host_id,
                )
                if hosted >= host_limit:
                    raise TooManyTables(row.host_id)
            status = await conn.execute(
                "INSERT INTO tables.tables (table_id, game, shard, config, private, invite_code,"
                " seq, phase, seats, deadline, host_id)"
                " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT DO NOTHING",
                row.table_id,
                row.game,
                row.shard,
                row.config,
                row.private,
                row.invite_code,
                row.seq,
                row.phase,
                row.seats,
                row.deadline,
                row.host_id,
            )
        return bool(status.endswith(" 1"))

    async def table(self, table_id: str) -> TableRow | None:
        record = await self._read_row("SELECT * FROM tables.tables WHERE table_id = $1", table_id)
        return None if record is None else row_of(record)

    async def by_invite(self, code: str) -> TableRow | None:
        record = await self._read_row("SELECT * FROM tables.tables WHERE invite_code = $1", code)
        return None if record is None else row_of(record)

    async def lobby(self, limit: int = 200) -> list[TableRow]:
        records = await self._read(
            "SELECT * FROM tables.tables WHERE NOT private AND phase NOT IN ('closed', 'ended')"
            " ORDER BY updated_at DESC LIMIT $1",
            limit,
        )
        return [row_of(record) for record in records]

    async def live_tables(self, shard: int) -> list[str]:
        """Tables of ``shard`` that may have a deadline, a bot to wake or a close to come."""
        records = await self._read(
            "SELECT table_id FROM tables.tables WHERE shard = $1 AND phase <> 'closed'", shard
        )
        return [record["table_id"] for record in records]

    async def overview(self) -> dict[str, Any]:
        """For operators: live tables, shard ownership and workers."""
        return await once_more(self.pool, self._overview)

    async def _overview(self) -> dict[str, Any]:
        async with self.pool.acquire() as conn:
            tables = await conn.fetch(
                "SELECT table_id, phase, seq, seats, private, shard, updated_at FROM tables.tables"
                " WHERE phase NOT IN ('lobby', 'ended', 'closed')"
                " ORDER BY updated_at DESC LIMIT 200"
            )
            leases = await conn.fetch(
                "SELECT shard, owner, epoch, expires_at > now() AS live FROM tables.leases"
                " ORDER BY shard"
            )
            workers = await conn.fetch(
                "SELECT worker_id, extract(epoch FROM now() - seen_at)::float AS age"
                " FROM tables.workers ORDER BY worker_id"
            )
        return overview_report(tables, leases, workers, list, lambda at: at.isoformat())

    async def departure(self, player_id: str) -> tuple[str, int] | None:
        """The table a player last left, and the number of its posting that settled them."""
        record = await self._read_row(
            "SELECT table_id, posting_no FROM tables.departures WHERE player_id = $1", player_id
        )
        return None if record is None else (record["table_id"], record["posting_no"])

    async def seat_of(self, player_id: str) -> tuple[str, int] | None:
        record = await self._read_row(
            "SELECT table_id, seat FROM tables.seatings WHERE player_id = $1", player_id
        )
        return None if record is None else (record["table_id"], record["seat"])
