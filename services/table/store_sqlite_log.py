"""The tables' event logs in the embedded SQLite file: loading a table, appending under the
shard lease, the outbox."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from typing import Any

import aiosqlite

from services.table.storage import (
    Append,
    DuplicateAction,
    Fenced,
    Queued,
    SeatConflict,
    Stored,
    Write,
)
from services.table.store_sqlite_db import (
    DatabaseStore,
    row_of,
)
from shared.sqlite import first, run, run_many


class SqliteEventLog(DatabaseStore):
    async def load(self, table_id: str, back: int = 1) -> Stored | None:
        async with self.db.read() as conn:
            record = await first(conn, "SELECT * FROM tables_tables WHERE table_id = ?", table_id)
            if record is None:
                return None
            snap = await first(
                conn,
                "SELECT seq, state FROM tables_snapshots WHERE table_id = ?"
                " ORDER BY seq DESC LIMIT 1 OFFSET ?",
                table_id,
                max(0, back - 1),
            )
            after = -1 if snap is None else snap["seq"]
            rows = await conn.execute_fetchall(
                "SELECT seq, events FROM tables_events WHERE table_id = ? AND seq > ? ORDER BY seq",
                (table_id, after),
            )
        return Stored(
            row_of(record),
            None if snap is None else json.loads(snap["state"]),
            [(row["seq"], json.loads(row["events"])) for row in rows],
        )

    async def events(self, table_id: str) -> list[Any]:
        rows = await self._read(
            "SELECT events FROM tables_events WHERE table_id = ? ORDER BY seq", table_id
        )
        return [event for row in rows for event in json.loads(row["events"])]

    async def append(
        self, table_id: str, shard: int, owner: str, epoch: int, write: Write
    ) -> Queued | None:
        return (await self.append_batch(owner, [Append(table_id, shard, epoch, write)]))[0]

    async def append_batch(self, owner: str, appends: Sequence[Append]) -> list[Queued | None]:
        async with self.db.write() as conn:
            now = self.db.now()
            return [
                await self._append(conn, now, owner, a.table_id, a.shard, a.epoch, a.write)
                for a in appends
            ]

    async def _append(
        self,
        conn: aiosqlite.Connection,
        now: float,
        owner: str,
        table_id: str,
        shard: int,
        epoch: int,
        write: Write,
    ) -> Queued | None:
        lease = await first(conn, "SELECT owner, epoch FROM tables_leases WHERE shard = ?", shard)
        if lease is None or lease["owner"] != owner or lease["epoch"] != epoch:
            raise Fenced(f"shard {shard} is no longer ours")
        # The seq first (as PostgreSQL checks the primary key before the action id).
        if await first(
            conn,
            "SELECT 1 FROM tables_events WHERE table_id = ? AND seq = ?",
            table_id,
            write.seq,
        ):
            raise Fenced(f"{table_id} seq {write.seq} was written by another worker")
        try:
            await run(
                conn,
                "INSERT INTO tables_events (table_id, seq, action_id, events, written_at)"
                " VALUES (?, ?, ?, ?, ?)",
                table_id,
                write.seq,
                write.action_id,
                json.dumps(write.events),
                now,
            )
        except sqlite3.IntegrityError as error:
            if error.sqlite_errorcode == sqlite3.SQLITE_CONSTRAINT_UNIQUE:
                raise DuplicateAction(write.action_id) from None
            raise
        await run(
            conn,
            "UPDATE tables_tables SET seq = ?, phase = ?, seats = ?, deadline = ?,"
            " updated_at = ? WHERE table_id = ?",
            write.seq,
            write.phase,
            json.dumps(write.seats),
            write.deadline,
            now,
            table_id,
        )
        if write.snapshot is not None:
            await run(
                conn,
                "INSERT INTO tables_snapshots (table_id, seq, state) VALUES (?, ?, ?)",
                table_id,
                write.seq,
                json.dumps(write.snapshot),
            )
        if write.seat_releases:
            await run_many(
                conn,
                "DELETE FROM tables_seatings WHERE table_id = ? AND player_id = ?",
                [(table_id, player_id) for player_id in write.seat_releases],
            )
        for player_id, seat in write.seat_claims:
            try:
                await run(
                    conn,
                    "INSERT INTO tables_seatings (player_id, table_id, seat) VALUES (?, ?, ?)",
                    player_id,
                    table_id,
                    seat,
                )
            except sqlite3.IntegrityError as error:
                if error.sqlite_errorcode == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
                    raise SeatConflict(player_id) from None
                raise
        queued: tuple[int, Any] | None = None
        if write.posting is not None:
            counted = await first(
                conn,
                "UPDATE tables_tables SET postings = postings + 1 WHERE table_id = ?"
                " RETURNING postings",
                table_id,
            )
            assert counted is not None
            body = write.posting(int(counted["postings"]))
            outbox = await first(
                conn,
                "INSERT INTO tables_outbox (table_id, shard, body, created_at)"
                " VALUES (?, ?, ?, ?) RETURNING id",
                table_id,
                shard,
                json.dumps(body),
                now,
            )
            assert outbox is not None
            queued = int(outbox["id"]), body
        if write.seat_releases:
            # After this command's posting is numbered: a player leaving in the command
            # that settled their last hand must wait for that posting to be applied.
            await run_many(
                conn,
                "INSERT INTO tables_departures (player_id, table_id, posting_no)"
                " SELECT ?, table_id, postings FROM tables_tables WHERE table_id = ?"
                " ON CONFLICT (player_id) DO UPDATE"
                " SET table_id = excluded.table_id, posting_no = excluded.posting_no",
                [(player_id, table_id) for player_id in write.seat_releases],
            )
        return queued

    async def outbox(self, shards: Iterable[int], older_than: float) -> list[tuple[int, Any]]:
        async with self.db.read() as conn:
            records = await conn.execute_fetchall(
                "SELECT id, body FROM tables_outbox"
                " WHERE shard IN (SELECT value FROM json_each(?)) AND created_at < ?"
                " ORDER BY id LIMIT 500",
                (json.dumps(list(shards)), self.db.now() - older_than),
            )
        return [(record["id"], json.loads(record["body"])) for record in records]

    async def sent(self, ids: Sequence[int]) -> None:
        if ids:
            await self._write(
                "DELETE FROM tables_outbox WHERE id IN (SELECT value FROM json_each(?))",
                json.dumps(list(ids)),
            )
