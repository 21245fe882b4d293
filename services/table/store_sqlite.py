"""The table service's storage in an embedded SQLite file (embedded mode): ``TableStorage``.

The same semantics as the PostgreSQL ``TableStore``, on a ``shared.sqlite.Database``: every
write of a worker runs in one ``BEGIN IMMEDIATE`` transaction (SQLite's single writer) that
first checks the shard's lease, so a worker that lost its shard writes nothing, and a takeover
(which bumps the epoch) happens before or after a write, never during it. The primary key
(table, seq) is the fencing token of the log, (table, action id) is unique, a player has one
seating over all tables; a failed check rolls the whole write back.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiosqlite

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
from shared.sqlite import Database, first, run, run_many

SCOPE = "tables"
MIGRATIONS = Path(__file__).parent / "migrations_sqlite"
FREE = 0.0  # a lease's expiry when released: long past
FORGET_WORKERS = 3600.0  # workers not seen for this long are deleted


def _row(record: aiosqlite.Row) -> TableRow:
    return TableRow(
        table_id=record["table_id"],
        game=record["game"],
        shard=record["shard"],
        config=json.loads(record["config"]),
        private=bool(record["private"]),
        invite_code=record["invite_code"],
        seq=record["seq"],
        phase=record["phase"],
        seats=json.loads(record["seats"]),
        deadline=record["deadline"],
        host_id=record["host_id"],
    )


class SqliteTableStore:
    """``TableStorage`` over an open ``Database`` (which a ``SqliteLedger`` may share)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    @classmethod
    async def open(cls, path: str | Path) -> SqliteTableStore:
        """A store on its own connection to the file at ``path``; ``close()`` it when done."""
        return cls(await Database.open(path))

    async def close(self) -> None:
        await self.db.close()

    async def migrate(self, shards: int) -> None:
        await self.db.migrate(SCOPE, MIGRATIONS)
        async with self.db.write() as conn:
            await run_many(
                conn,
                "INSERT INTO tables_leases (shard) VALUES (?) ON CONFLICT DO NOTHING",
                [(shard,) for shard in range(shards)],
            )

    # Leases.

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
        async with self.db.write() as conn:
            await run(
                conn,
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

    # Tables.

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
        async with self.db.read() as conn:
            record = await first(conn, "SELECT * FROM tables_tables WHERE table_id = ?", table_id)
        return None if record is None else _row(record)

    async def by_invite(self, code: str) -> TableRow | None:
        async with self.db.read() as conn:
            record = await first(conn, "SELECT * FROM tables_tables WHERE invite_code = ?", code)
        return None if record is None else _row(record)

    async def lobby(self, limit: int = 200) -> list[TableRow]:
        async with self.db.read() as conn:
            records = await conn.execute_fetchall(
                "SELECT * FROM tables_tables WHERE NOT private AND phase <> 'closed'"
                " ORDER BY updated_at DESC LIMIT ?",
                (limit,),
            )
        return [_row(record) for record in records]

    async def live_tables(self, shard: int) -> list[str]:
        async with self.db.read() as conn:
            records = await conn.execute_fetchall(
                "SELECT table_id FROM tables_tables WHERE shard = ? AND phase <> 'closed'",
                (shard,),
            )
        return [record["table_id"] for record in records]

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
            _row(record),
            None if snap is None else json.loads(snap["state"]),
            [(row["seq"], json.loads(row["events"])) for row in rows],
        )

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
        return {
            "tables": [
                {
                    "table_id": r["table_id"],
                    "phase": r["phase"],
                    "seq": r["seq"],
                    "shard": r["shard"],
                    "private": bool(r["private"]),
                    "players": [s["name"] for s in json.loads(r["seats"]) if s],
                    "updated_at": datetime.fromtimestamp(r["updated_at"], UTC).isoformat(),
                }
                for r in tables
            ],
            "shards": [
                {
                    "shard": r["shard"],
                    "owner": r["owner"],
                    "epoch": r["epoch"],
                    "live": bool(r["live"]),
                }
                for r in leases
            ],
            "workers": [
                {"worker_id": r["worker_id"], "seen_s_ago": float(r["age"])} for r in workers
            ],
        }

    async def departure(self, player_id: str) -> tuple[str, int] | None:
        async with self.db.read() as conn:
            record = await first(
                conn,
                "SELECT table_id, posting_no FROM tables_departures WHERE player_id = ?",
                player_id,
            )
        return None if record is None else (record["table_id"], record["posting_no"])

    async def events(self, table_id: str) -> list[Any]:
        async with self.db.read() as conn:
            rows = await conn.execute_fetchall(
                "SELECT events FROM tables_events WHERE table_id = ? ORDER BY seq", (table_id,)
            )
        return [event for row in rows for event in json.loads(row["events"])]

    async def seat_of(self, player_id: str) -> tuple[str, int] | None:
        async with self.db.read() as conn:
            record = await first(
                conn, "SELECT table_id, seat FROM tables_seatings WHERE player_id = ?", player_id
            )
        return None if record is None else (record["table_id"], record["seat"])

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

    async def save_record(self, record: GameRecordRow) -> None:
        async with self.db.write() as conn:
            await run(
                conn,
                "INSERT INTO tables_game_records"
                " (table_id, game_no, record, players, winners, ended_at, opponents, ranked)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                record.table_id,
                record.game_no,
                record.data,
                json.dumps(list(record.players)),
                json.dumps([[w.player_id, w.name, w.bot] for w in record.winners]),
                self.db.now(),
                json.dumps(sorted(record.opponents)),
                record.ranked,
            )

    async def save_replay(self, table_id: str, game_no: int, replay: bytes) -> None:
        async with self.db.write() as conn:
            await run(
                conn,
                "INSERT INTO tables_game_replays (table_id, game_no, replay) VALUES (?, ?, ?)"
                " ON CONFLICT DO NOTHING",
                table_id,
                game_no,
                replay,
            )

    async def game_replay(self, table_id: str, game_no: int) -> bytes | None:
        async with self.db.read() as conn:
            row = await first(
                conn,
                "SELECT replay FROM tables_game_replays WHERE table_id = ? AND game_no = ?",
                table_id,
                game_no,
            )
        return None if row is None else bytes(row["replay"])

    async def games_won(self, game: str, since: float, limit: int) -> list[dict[str, Any]]:
        async with self.db.read() as conn:
            rows = await conn.execute_fetchall(
                "SELECT w.value ->> 0 AS player_id, min(w.value ->> 1) AS name,"
                " max(w.value ->> 2) AS bot,"
                " count(DISTINCT r.opponents || ' ' || CAST(r.ended_at / 86400 AS INTEGER)) AS won"
                " FROM tables_game_records r JOIN tables_tables t USING (table_id),"
                " json_each(r.winners) w"
                " WHERE t.game = ? AND r.ended_at >= ? AND r.ranked"
                " GROUP BY w.value ->> 0 ORDER BY won DESC, player_id LIMIT ?",
                (game, since, limit),
            )
        return [
            {
                "player_id": r["player_id"],
                "name": r["name"],
                "bot": bool(r["bot"]),
                "won": int(r["won"]),
            }
            for r in rows
        ]

    async def game_record(self, table_id: str, game_no: int) -> GameRecordRow | None:
        async with self.db.read() as conn:
            row = await first(
                conn,
                "SELECT record, players, winners, opponents, ranked FROM tables_game_records"
                " WHERE table_id = ? AND game_no = ?",
                table_id,
                game_no,
            )
        if row is None:
            return None
        winners = tuple(
            Winner(str(w[0]), str(w[1]), bool(w[2])) for w in json.loads(row["winners"])
        )
        players = tuple(json.loads(row["players"]))
        opponents = tuple(json.loads(row["opponents"]))
        return GameRecordRow(
            table_id, game_no, row["record"], players, winners, opponents, bool(row["ranked"])
        )

    async def register_bot(self, name: str, owner: str) -> bool:
        async with self.db.write() as conn:
            added = await run(
                conn,
                "INSERT INTO tables_bot_accounts (name, owner, created_at) VALUES (?, ?, ?)"
                " ON CONFLICT (name) DO NOTHING",
                name,
                owner,
                self.db.now(),
            )
        return added == 1

    async def bot_account(self, name: str) -> BotAccount | None:
        async with self.db.read() as conn:
            record = await first(
                conn,
                "SELECT name, owner, created_at FROM tables_bot_accounts WHERE name = ?",
                name,
            )
        return None if record is None else _bot(record)

    async def bot_accounts(self) -> list[BotAccount]:
        async with self.db.read() as conn:
            records = await conn.execute_fetchall(
                "SELECT name, owner, created_at FROM tables_bot_accounts ORDER BY name"
            )
        return [_bot(record) for record in records]

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
            async with self.db.write() as conn:
                await run(
                    conn,
                    "DELETE FROM tables_outbox WHERE id IN (SELECT value FROM json_each(?))",
                    json.dumps(list(ids)),
                )


def _bot(record: aiosqlite.Row) -> BotAccount:
    created = datetime.fromtimestamp(record["created_at"], UTC).isoformat()
    return BotAccount(record["name"], record["owner"], created)
