"""The tables' event logs in PostgreSQL: loading a table, appending under the shard lease,
the outbox."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import asyncpg

from services.table.storage import (
    Append,
    DuplicateAction,
    Fenced,
    Queued,
    SeatConflict,
    Stored,
    Write,
)
from services.table.store_pool import (
    FENCED,
    PoolStore,
    once_more,
    row_of,
)


class EventLog(PoolStore):
    async def load(self, table_id: str, back: int = 1) -> Stored | None:
        return await once_more(self.pool, lambda: self._load(table_id, back))

    async def _load(self, table_id: str, back: int) -> Stored | None:
        async with self.pool.acquire() as conn, conn.transaction(isolation="repeatable_read"):
            record = await conn.fetchrow(
                "SELECT * FROM tables.tables WHERE table_id = $1", table_id
            )
            if record is None:
                return None
            snap = await conn.fetchrow(
                "SELECT seq, state FROM tables.snapshots WHERE table_id = $1"
                " ORDER BY seq DESC LIMIT 1 OFFSET $2",
                table_id,
                max(0, back - 1),
            )
            after = -1 if snap is None else snap["seq"]
            rows = await conn.fetch(
                "SELECT seq, events FROM tables.events WHERE table_id = $1 AND seq > $2"
                " ORDER BY seq",
                table_id,
                after,
            )
        return Stored(
            row_of(record),
            None if snap is None else snap["state"],
            [(row["seq"], row["events"]) for row in rows],
        )

    async def events(self, table_id: str) -> list[Any]:
        """Every event of a table, in order."""
        rows = await self._read(
            "SELECT events FROM tables.events WHERE table_id = $1 ORDER BY seq", table_id
        )
        return [event for row in rows for event in row["events"]]

    async def append(
        self, table_id: str, shard: int, owner: str, epoch: int, write: Write
    ) -> Queued | None:
        return (await self.append_batch(owner, [Append(table_id, shard, epoch, write)]))[0]

    async def append_batch(self, owner: str, appends: Sequence[Append]) -> list[Queued | None]:
        """One round trip and one commit for the lot: the calls are pipelined, and asyncpg
        runs them in one implicit transaction (any failure rolls all of them back).

        Each call locks its shard's lease: they run by shard (a table's own order kept), as
        ``renew`` locks leases, so that neither waits for the other in a circle."""
        order = sorted(range(len(appends)), key=lambda i: appends[i].shard)
        arguments = [
            (
                a.table_id,
                a.shard,
                owner,
                a.epoch,
                a.write.seq,
                a.write.action_id,
                a.write.events,
                a.write.phase,
                a.write.seats,
                a.write.deadline,
                a.write.snapshot,
                None if a.write.posting is None else a.write.posting(0),  # numbered in SQL
                [player_id for player_id, _ in a.write.seat_claims],
                [seat for _, seat in a.write.seat_claims],
                list(a.write.seat_releases),
            )
            for a in (appends[i] for i in order)
        ]
        async with self._fresh_on_loss():
            try:
                rows = await self.pool.fetchmany(
                    "SELECT outbox_id, body FROM tables.append("
                    "$1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)",
                    arguments,
                )
            except asyncpg.UniqueViolationError as error:
                constraint = str(error.constraint_name)
                if "action_id" in constraint:
                    raise DuplicateAction(str(error.detail)) from None
                if constraint.startswith("seatings"):
                    raise SeatConflict(str(error.detail)) from None
                raise Fenced(f"a seq was written by another worker: {error.detail}") from None
            except asyncpg.PostgresError as error:
                if error.sqlstate == FENCED:
                    raise Fenced("a shard is no longer ours") from None
                raise
            queued: list[Queued | None] = [None] * len(appends)
            for i, row in zip(order, rows, strict=True):
                if row["outbox_id"] is not None:
                    queued[i] = (row["outbox_id"], row["body"])
            return queued

    async def outbox(self, shards: Iterable[int], older_than: float) -> list[tuple[int, Any]]:
        records = await self._read(
            "SELECT id, body FROM tables.outbox WHERE shard = ANY($1::int[])"
            " AND created_at < now() - make_interval(secs => $2) ORDER BY id LIMIT 500",
            list(shards),
            older_than,
        )
        return [(record["id"], record["body"]) for record in records]

    async def sent(self, ids: Sequence[int]) -> None:
        async with self._fresh_on_loss():
            if ids:
                await self.pool.execute(
                    "DELETE FROM tables.outbox WHERE id = ANY($1::bigint[])", list(ids)
                )
