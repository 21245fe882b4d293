"""Finished games in the embedded SQLite file: records, stored replays, the boards' wins, and
registered bots."""

from __future__ import annotations

import json
from typing import Any

from services.table.archive_rows import raters, record_of, rerated, result_rows
from services.table.player_reads import RATING_COLUMNS, PlayerReads
from services.table.storage import (
    BotAccount,
    GameRecordRow,
)
from services.table.store_sqlite_db import (
    DatabaseStore,
    bot_of,
)
from shared.rows import board
from shared.sqlite import run, run_many


class SqliteGameArchive(DatabaseStore, PlayerReads):
    tables = "tables_{}"
    mark = "?"

    async def save_record(self, record: GameRecordRow) -> None:
        async with self.db.write() as conn:
            stored = await run(
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
            for row in result_rows(record):
                await run(
                    conn,
                    "INSERT INTO tables_game_results (table_id, game_no, player_id, seat, name,"
                    " bot, side, points, chips, place, left_early, stats, ended_ms)"
                    " SELECT table_id, game_no, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
                    " CAST(ended_at * 1000 AS INTEGER) FROM tables_game_records"
                    " WHERE table_id = ? AND game_no = ? ON CONFLICT DO NOTHING",
                    *row,
                    record.table_id,
                    record.game_no,
                )
            if stored == 1 and (who := raters(record)):  # the first time: rate its players
                # One writer at a time: the rows read here are the latest.
                async with conn.execute(
                    "SELECT game FROM tables_tables WHERE table_id = ?", (record.table_id,)
                ) as cursor:
                    (game,) = await cursor.fetchone() or ("",)
                async with conn.execute(
                    f"SELECT {RATING_COLUMNS} FROM tables_ratings WHERE game = ?"
                    f" AND ladder || ' ' || rated IN ({','.join('?' * len(who))})",
                    (game, *(f"{ladder} {rated}" for ladder, rated in who)),
                ) as cursor:
                    rows = list(await cursor.fetchall())
                await run_many(
                    conn,
                    "INSERT INTO tables_ratings (game, ladder, rated, name, mu, sigma, games)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game, ladder, rated) DO UPDATE"
                    " SET name = excluded.name, mu = excluded.mu, sigma = excluded.sigma,"
                    " games = excluded.games",
                    rerated(str(game), record, rows),
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
            " WHERE t.game = ? AND r.ended_at >= ? AND r.ranked AND NOT (w.value ->> 2)"
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
