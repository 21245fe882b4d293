"""Shard leases and worker heartbeats in the embedded SQLite file."""

from __future__ import annotations

from services.table.store_sqlite_db import (
    FORGET_WORKERS,
    FREE,
    DatabaseStore,
)
from shared.sqlite import first, run


class SqliteLeaseStore(DatabaseStore):
    async def acquire(self, shard: int, owner: str, ttl: float) -> int | None:
        async with self.db.write() as conn:
            now = self.db.now()
            record = await first(
                conn,
                "UPDATE tables_leases SET owner = ?2, epoch = epoch + 1, expires_at = ?3 + ?4"
                " WHERE shard = ?1 AND (expires_at < ?3 OR owner = ?2) RETURNING epoch",
                shard,
                owner,
                now,
                ttl,
            )
        return None if record is None else int(record["epoch"])

    async def renew(self, owner: str, epochs: dict[int, int], ttl: float) -> set[int]:
        if not epochs:
            return set()
        kept: set[int] = set()
        async with self.db.write() as conn:
            expires = self.db.now() + ttl
            for shard, epoch in epochs.items():
                if await run(
                    conn,
                    "UPDATE tables_leases SET expires_at = ?"
                    " WHERE shard = ? AND epoch = ? AND owner = ?",
                    expires,
                    shard,
                    epoch,
                    owner,
                ):
                    kept.add(shard)
        return kept

    async def release(self, owner: str, shard: int) -> None:
        await self._write(
            "UPDATE tables_leases SET expires_at = ? WHERE shard = ? AND owner = ?",
            FREE,
            shard,
            owner,
        )

    async def heartbeat(self, worker_id: str, window: float) -> int:
        async with self.db.write() as conn:
            now = self.db.now()
            await run(
                conn,
                "INSERT INTO tables_workers (worker_id, seen_at) VALUES (?1, ?2)"
                " ON CONFLICT (worker_id) DO UPDATE SET seen_at = ?2",
                worker_id,
                now,
            )
            await run(conn, "DELETE FROM tables_workers WHERE seen_at < ?", now - FORGET_WORKERS)
            record = await first(
                conn, "SELECT count(*) AS n FROM tables_workers WHERE seen_at > ?", now - window
            )
        assert record is not None
        return int(record["n"])

    async def leave(self, worker_id: str) -> None:
        async with self.db.write() as conn:
            await run(
                conn, "UPDATE tables_leases SET expires_at = ? WHERE owner = ?", FREE, worker_id
            )
            await run(conn, "DELETE FROM tables_workers WHERE worker_id = ?", worker_id)
