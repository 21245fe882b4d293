"""Shard leases and worker heartbeats in PostgreSQL: who owns which shard, for how long."""

from __future__ import annotations

from services.table.store_pool import PoolStore


class LeaseStore(PoolStore):
    async def acquire(self, shard: int, owner: str, ttl: float) -> int | None:
        """Take ``shard`` if its lease expired (or is ours); the new epoch, or ``None``."""
        async with self._fresh_on_loss():
            epoch: int | None = await self.pool.fetchval(
                "UPDATE tables.leases SET owner = $2, epoch = epoch + 1,"
                " expires_at = now() + make_interval(secs => $3)"
                " WHERE shard = $1 AND (expires_at < now() OR owner = $2) RETURNING epoch",
                shard,
                owner,
                ttl,
            )
            return epoch

    async def renew(self, owner: str, epochs: dict[int, int], ttl: float) -> set[int]:
        """Extend the leases still ours at the same epoch; returns the shards kept."""
        async with self._fresh_on_loss():
            if not epochs:
                return set()
            # Locked by shard first, as ``append_batch`` locks them (else they may deadlock).
            rows = await self.pool.fetch(
                "WITH mine AS (SELECT leases.shard FROM tables.leases"
                " JOIN unnest($3::int[], $4::bigint[]) AS m(shard, epoch)"
                " ON leases.shard = m.shard AND leases.epoch = m.epoch AND leases.owner = $1"
                " ORDER BY leases.shard FOR UPDATE OF leases)"
                " UPDATE tables.leases SET expires_at = now() + make_interval(secs => $2)"
                " FROM mine WHERE leases.shard = mine.shard RETURNING leases.shard",
                owner,
                ttl,
                list(epochs),
                list(epochs.values()),
            )
            return {row["shard"] for row in rows}

    async def release(self, owner: str, shard: int) -> None:
        async with self._fresh_on_loss():
            await self.pool.execute(
                "UPDATE tables.leases SET expires_at = '-infinity' WHERE shard = $1 AND owner = $2",
                shard,
                owner,
            )

    async def heartbeat(self, worker_id: str, window: float) -> int:
        """Record that ``worker_id`` is alive; returns how many workers were seen in ``window``."""
        async with self._fresh_on_loss(), self.pool.acquire() as conn:
            await conn.execute(
                "INSERT INTO tables.workers (worker_id, seen_at) VALUES ($1, now())"
                " ON CONFLICT (worker_id) DO UPDATE SET seen_at = now()",
                worker_id,
            )
            await conn.execute(
                "DELETE FROM tables.workers WHERE seen_at < now() - interval '1 hour'"
            )
            count: int = await conn.fetchval(
                "SELECT count(*) FROM tables.workers"
                " WHERE seen_at > now() - make_interval(secs => $1)",
                window,
            )
            return count

    async def leave(self, worker_id: str) -> None:
        async with self._fresh_on_loss(), self.pool.acquire() as conn:
            await conn.execute(
                "UPDATE tables.leases SET expires_at = '-infinity' WHERE owner = $1", worker_id
            )
            await conn.execute("DELETE FROM tables.workers WHERE worker_id = $1", worker_id)
