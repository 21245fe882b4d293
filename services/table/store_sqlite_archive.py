"""Finished games in the embedded SQLite file: records, stored replays, the boards' wins, and
registered bots."""

from __future__ import annotations

import json
from typing import Any

from services.table.archive_rows import record_of
from services.table.storage import (
    BotAccount,
    GameRecordRow,
)
from services.table.store_sqlite_db import (
    DatabaseStore,
    bot_of,
)
from shared.rows import board
from shared.sqlite import run


class SqliteGameArchive(DatabaseStore):
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
        await self._write(
            "INSERT INTO tables_game_replays (table_id, game_no, replay) VALUES (?, ?, ?)"
            " ON CONFLICT DO NOTHING",
            table_id,
            game_no,
            replay,
        )

    async def game_replay(self, table_id: str, game_no: int) -> bytes | None:
        row = await self._read_row(
            "SELECT replay FROM tables_game_replays WHERE table_id = ? AND game_no = ?",
            table_id,
            game_no,
        )
        return None if row is None else bytes(row["replay"])

    async def games_won(self, game: str, since: float, limit: int) -> list[dict[str, Any]]:
        rows = await self._read(
            "SELECT w.value ->> 0 AS player_id, min(w.value ->> 1) AS name,"
            " max(w.value ->> 2) AS bot,"
            " count(DISTINCT r.opponents || ' ' || CAST(r.ended_at / 86400 AS INTEGER)) AS won"
            " FROM tables_game_records r JOIN tables_tables t USING (table_id),"
            " json_each(r.winners) w"
            " WHERE t.game = ? AND r.ended_at >= ? AND r.ranked"
            " GROUP BY w.value ->> 0 ORDER BY won DESC, player_id LIMIT ?",
            game,
            since,
            limit,
        )
        return board(rows, "won")

    async def game_record(self, table_id: str, game_no: int) -> GameRecordRow | None:
        row = await self._read_row(
            "SELECT record, players, winners, opponents, ranked FROM tables_game_records"
            " WHERE table_id = ? AND game_no = ?",
            table_id,
            game_no,
        )
        return None if row is None else record_of(table_id, game_no, row, json.loads)

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
        record = await self._read_row(
            "SELECT name, owner, created_at FROM tables_bot_accounts WHERE name = ?", name
        )
        return None if record is None else bot_of(record)

    async def bot_accounts(self) -> list[BotAccount]:
        records = await self._read(
            "SELECT name, owner, created_at FROM tables_bot_accounts ORDER BY name"
        )
        return [bot_of(record) for record in records]
