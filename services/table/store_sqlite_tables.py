"""The tables' rows in the embedded SQLite file: creating and finding tables, the lobby,
seatings, the overview."""

from __future__ import annotations

import json
from typing import Any

from services.table.overview import overview_report
from services.table.storage import (
    TableRow,
    TooManyTables,
)
from services.table.store_sqlite_db import (
    DatabaseStore,
    row_of,
)
from shared.sqlite import first, iso_time, run


class SqliteTableDirectory(DatabaseStore):
    async def create(self, row: TableRow, host_limit: int | None = None) -> bool:
        async with self.db.write() as conn:  # the single writer: creations count in turn
            now = self.db.now()
            if host_limit is not None:
                if await first(
                    conn, "SELECT 1 FROM tables_tables WHERE table_id = ?", row.table_id
                ):
                    return False
                hosted = await first(
                    conn,
                    "SELECT count(*) AS n FROM tables_tables"
                    " WHERE host_id = ? AND phase <> 'closed'",
                    row.host_id,
                )
                if hosted is not None and hosted["n"] >= host_limit:
                    raise TooManyTables(row.host_id)
            created = await run(
                conn,
                "INSERT INTO tables_tables (table_id, game, shard, config, private, invite_code,"
                " created_at, seq, phase, seats, deadline, updated_at, host_id)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                row.table_id,
                row.game,
                row.shard,
                json.dumps(row.config),
                row.private,
                row.invite_code,
                now,
                row.seq,
                row.phase,
                json.dumps(row.seats),
                row.deadline,
                now,
                row.host_id,
            )
        return created == 1

    async def table(self, table_id: str) -> TableRow | None:
        record = await self._read_row("SELECT * FROM tables_tables WHERE table_id = ?", table_id)
        return None if record is None else row_of(record)

    async def by_invite(self, code: str) -> TableRow | None:
        record = await self._read_row("SELECT * FROM tables_tables WHERE invite_code = ?", code)
        return None if record is None else row_of(record)

    async def lobby(self, limit: int = 200) -> list[TableRow]:
        records = await self._read(
            "SELECT * FROM tables_tables WHERE NOT private AND phase NOT IN ('closed', 'ended')"
            " ORDER BY updated_at DESC LIMIT ?",
            limit,
        )
        return [row_of(record) for record in records]

    async def live_tables(self, shard: int) -> list[str]:
        records = await self._read(
            "SELECT table_id FROM tables_tables WHERE shard = ? AND phase <> 'closed'", shard
        )
        return [record["table_id"] for record in records]

    async def overview(self) -> dict[str, Any]:
        async with self.db.read() as conn:
            now = self.db.now()
            tables = await conn.execute_fetchall(
                "SELECT table_id, phase, seq, seats, private, shard, updated_at"
                " FROM tables_tables WHERE phase NOT IN ('lobby', 'ended', 'closed')"
                " ORDER BY updated_at DESC LIMIT 200"
            )
            leases = await conn.execute_fetchall(
                "SELECT shard, owner, epoch, expires_at > ? AS live FROM tables_leases"
                " ORDER BY shard",
                (now,),
            )
            workers = await conn.execute_fetchall(
                "SELECT worker_id, ? - seen_at AS age FROM tables_workers ORDER BY worker_id",
                (now,),
            )
        return overview_report(tables, leases, workers, json.loads, iso_time)

    async def departure(self, player_id: str) -> tuple[str, int] | None:
        record = await self._read_row(
            "SELECT table_id, posting_no FROM tables_departures WHERE player_id = ?", player_id
        )
        return None if record is None else (record["table_id"], record["posting_no"])

    async def seat_of(self, player_id: str) -> tuple[str, int] | None:
        record = await self._read_row(
            "SELECT table_id, seat FROM tables_seatings WHERE player_id = ?", player_id
        )
        return None if record is None else (record["table_id"], record["seat"])
