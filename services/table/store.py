"""The table service's PostgreSQL storage: tables, event logs, snapshots, leases, the outbox.

Every write of a worker happens under its shard lease: the transaction first reads the lease row
with a share lock and checks the epoch, so a worker that lost its shard (even one that was
paused and woke up) cannot write, while a takeover waits for writes already under way.
"""

from __future__ import annotations

import json
import logging
import zlib
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import asyncpg

from services.table.storage import (
    Append,
    BotAccount,
    DuplicateAction,
    Fenced,
    GameRecordRow,
    Queued,
    SeatConflict,
    Stored,
    TableRow,
    TooManyTables,
    Winner,
    Write,
)
from shared.migrations import migrate
from shared.postgres import DEFAULT_DSN, connect_pool
from shared.settings import Settings
from shared.startup import described
from shared.supervise import retryable

log = logging.getLogger("swick.table")
T = TypeVar("T")

SCHEMA = "tables"
MIGRATIONS = Path(__file__).parent / "migrations"
FENCED = "SWFEN"  # the SQLSTATE tables.append() raises when the lease moved on

# The shared types live with the storage protocol (the read model's rows in shared.tables_read)
# and the pool helper in shared.postgres; importing them from here keeps working.
__all__ = [
    "DEFAULT_DSN",
    "MIGRATIONS",
    "SCHEMA",
    "DuplicateAction",
    "Fenced",
    "SeatConflict",
    "Stored",
    "TableRow",
    "TableStore",
    "Write",
    "connect_pool",
    "open_table_store",
]


def host_lock(host_id: str) -> int:
    """The advisory lock that orders one host's table creations."""
    return zlib.crc32(f"host:{host_id}".encode())


def _row(record: asyncpg.Record) -> TableRow:
    return TableRow(
        table_id=record["table_id"],
        game=record["game"],
        shard=record["shard"],
        config=record["config"],
        private=record["private"],
        invite_code=record["invite_code"],
        seq=record["seq"],
        phase=record["phase"],
        seats=record["seats"],
        deadline=record["deadline"],
        host_id=record["host_id"],
    )


async def once_more(pool: asyncpg.Pool, read: Callable[[], Awaitable[T]]) -> T:
    """``read()``, asked once more if its connection was lost under it (a database restarting
    or failing over: its other connections are likely gone too, so the pool replaces them
    all). For reads only: a write cut short may have committed."""
    try:
        return await read()
    except Exception as error:
        if not retryable(error):
            raise
        log.warning("reading again on fresh connections: %s", described(error))
        await pool.expire_connections()
        return await read()


class TableStore:
    def __init__(self, pool: asyncpg.Pool) -> None:
        self.pool = pool

    @asynccontextmanager
    async def _fresh_on_loss(self) -> AsyncIterator[None]:
        """After a write's connection was lost (the database restarting or failing over: its
        other connections are likely gone too), the pool replaces them all."""
        try:
            yield
        except Exception as error:
            if retryable(error):
                await self.pool.expire_connections()
            raise

    async def _read(self, query: str, *args: Any) -> list[asyncpg.Record]:
        return await once_more(self.pool, lambda: self.pool.fetch(query, *args))

    async def _read_row(self, query: str, *args: Any) -> asyncpg.Record | None:
        return await once_more(self.pool, lambda: self.pool.fetchrow(query, *args))

    async def migrate(self, shards: int) -> None:
        async with self.pool.acquire() as conn:
            await migrate(conn, SCHEMA, MIGRATIONS)
            await conn.executemany(
                "INSERT INTO tables.leases (shard) VALUES ($1) ON CONFLICT DO NOTHING",
                [(shard,) for shard in range(shards)],
            )

    # Leases.

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

    # Tables.

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
        return None if record is None else _row(record)

    async def by_invite(self, code: str) -> TableRow | None:
        record = await self._read_row("SELECT * FROM tables.tables WHERE invite_code = $1", code)
        return None if record is None else _row(record)

    async def lobby(self, limit: int = 200) -> list[TableRow]:
        records = await self._read(
            "SELECT * FROM tables.tables WHERE NOT private AND phase <> 'closed'"
            " ORDER BY updated_at DESC LIMIT $1",
            limit,
        )
        return [_row(record) for record in records]

    async def live_tables(self, shard: int) -> list[str]:
        """Tables of ``shard`` that may have a deadline, a bot to wake or a close to come."""
        records = await self._read(
            "SELECT table_id FROM tables.tables WHERE shard = $1 AND phase <> 'closed'", shard
        )
        return [record["table_id"] for record in records]

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
            _row(record),
            None if snap is None else snap["state"],
            [(row["seq"], row["events"]) for row in rows],
        )

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
        return {
            "tables": [
                {
                    "table_id": r["table_id"],
                    "phase": r["phase"],
                    "seq": r["seq"],
                    "shard": r["shard"],
                    "private": r["private"],
                    "players": [s["name"] for s in r["seats"] if s],
                    "updated_at": r["updated_at"].isoformat(),
                }
                for r in tables
            ],
            "shards": [
                {"shard": r["shard"], "owner": r["owner"], "epoch": r["epoch"], "live": r["live"]}
                for r in leases
            ],
            "workers": [{"worker_id": r["worker_id"], "seen_s_ago": r["age"]} for r in workers],
        }

    async def departure(self, player_id: str) -> tuple[str, int] | None:
        """The table a player last left, and the number of its posting that settled them."""
        record = await self._read_row(
            "SELECT table_id, posting_no FROM tables.departures WHERE player_id = $1", player_id
        )
        return None if record is None else (record["table_id"], record["posting_no"])

    async def events(self, table_id: str) -> list[Any]:
        """Every event of a table, in order."""
        rows = await self._read(
            "SELECT events FROM tables.events WHERE table_id = $1 ORDER BY seq", table_id
        )
        return [event for row in rows for event in row["events"]]

    async def seat_of(self, player_id: str) -> tuple[str, int] | None:
        record = await self._read_row(
            "SELECT table_id, seat FROM tables.seatings WHERE player_id = $1", player_id
        )
        return None if record is None else (record["table_id"], record["seat"])

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

    async def save_record(self, record: GameRecordRow) -> None:
        await self.pool.execute(
            "INSERT INTO tables.game_records"
            " (table_id, game_no, record, players, winners, opponents, ranked)"
            " VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING",
            record.table_id,
            record.game_no,
            record.data,
            list(record.players),
            [[w.player_id, w.name, w.bot] for w in record.winners],  # jsonb: the pool encodes
            json.dumps(sorted(record.opponents)),  # text: compared whole, as the boards' key
            record.ranked,
        )

    async def game_record(self, table_id: str, game_no: int) -> GameRecordRow | None:
        row = await self._read_row(
            "SELECT record, players, winners, opponents, ranked FROM tables.game_records"
            " WHERE table_id = $1 AND game_no = $2",
            table_id,
            game_no,
        )
        if row is None:
            return None
        winners = tuple(Winner(str(w[0]), str(w[1]), bool(w[2])) for w in row["winners"])
        return GameRecordRow(
            table_id,
            game_no,
            row["record"],
            tuple(row["players"]),
            winners,
            tuple(json.loads(row["opponents"])),
            row["ranked"],
        )

    async def save_replay(self, table_id: str, game_no: int, replay: bytes) -> None:
        await self.pool.execute(
            "INSERT INTO tables.game_replays (table_id, game_no, replay) VALUES ($1, $2, $3)"
            " ON CONFLICT DO NOTHING",
            table_id,
            game_no,
            replay,
        )

    async def game_replay(self, table_id: str, game_no: int) -> bytes | None:
        row = await self._read_row(
            "SELECT replay FROM tables.game_replays WHERE table_id = $1 AND game_no = $2",
            table_id,
            game_no,
        )
        return None if row is None else bytes(row["replay"])

    async def games_won(self, game: str, since: float, limit: int) -> list[dict[str, Any]]:
        # A win counts once per opponents and UTC day: the same opponents beaten again that day
        # (a farm of short games among one's own accounts, or against the same bots) add none.
        rows = await self._read(
            "SELECT w ->> 0 AS player_id, min(w ->> 1) AS name, bool_or((w ->> 2)::boolean) AS bot,"
            " count(DISTINCT r.opponents || ' ' || floor(extract(epoch FROM r.ended_at) / 86400))"
            " AS won"
            " FROM tables.game_records r JOIN tables.tables t USING (table_id),"
            " jsonb_array_elements(r.winners) w"
            " WHERE t.game = $1 AND r.ended_at >= to_timestamp($2) AND r.ranked"
            " GROUP BY w ->> 0 ORDER BY won DESC, player_id LIMIT $3",
            game,
            since,
            limit,
        )
        return [
            {"player_id": r["player_id"], "name": r["name"], "bot": r["bot"], "won": r["won"]}
            for r in rows
        ]

    async def register_bot(self, name: str, owner: str) -> bool:
        status: str = await self.pool.execute(
            "INSERT INTO tables.bot_accounts (name, owner) VALUES ($1, $2)"
            " ON CONFLICT (name) DO NOTHING",
            name,
            owner,
        )
        return status == "INSERT 0 1"

    async def bot_account(self, name: str) -> BotAccount | None:
        record = await self._read_row(
            "SELECT name, owner, created_at FROM tables.bot_accounts WHERE name = $1", name
        )
        return None if record is None else _bot(record)

    async def bot_accounts(self) -> list[BotAccount]:
        records = await self._read(
            "SELECT name, owner, created_at FROM tables.bot_accounts ORDER BY name"
        )
        return [_bot(record) for record in records]

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


def _bot(record: asyncpg.Record) -> BotAccount:
    return BotAccount(record["name"], record["owner"], record["created_at"].isoformat())


@asynccontextmanager
async def open_table_store(settings: Settings, application: str) -> AsyncIterator[TableStore]:
    """A store on a pool of its own, migrated, closed on exit: how a service that runs alone
    opens the tables it reads (``shared.tables_read.OpenTableReads``: the gateway's)."""
    pool = await connect_pool(
        settings.database_url, size=settings.database_pool, application=application
    )
    try:
        store = TableStore(pool)
        await store.migrate(settings.shards)
        yield store
    finally:
        await pool.close()
