"""A deleted account's name forgotten in the embedded SQLite file (``forgetting``): the tables
whose log names them, rewritten in one transaction each, and their finished games rebuilt."""

from __future__ import annotations

import json

from services.table.forgetting import Forgetting, mention, renamed
from services.table.store_sqlite_db import DatabaseStore
from shared.sqlite import run
from shared.tables_read import GameRecordRow

# Where the tables' JSON names players: (table, its row's key, the JSON column).
NAMING = (
    ("tables_events", "seq", "events"),
    ("tables_snapshots", "seq", "state"),
    ("tables_tables", "table_id", "seats"),
)


class SqliteLogForgetting(DatabaseStore, Forgetting):
    async def _tables_naming(self, player_id: str) -> list[str]:
        union = " UNION ".join(
            f"SELECT table_id FROM {table} WHERE instr({column}, ?1) > 0"
            for table, _, column in NAMING
        )
        rows = await self._read(f"{union} ORDER BY table_id", mention(player_id))
        return [str(row["table_id"]) for row in rows]

    async def _rename_in_log(self, table_id: str, player_id: str) -> None:
        async with self.db.write() as conn:
            for table, key, column in NAMING:
                rows = await conn.execute_fetchall(
                    f"SELECT {key} AS key, {column} AS value FROM {table}"
                    f" WHERE table_id = ? AND instr({column}, ?) > 0",
                    (table_id, mention(player_id)),
                )
                for row in rows:
                    value, changed = renamed(json.loads(row["value"]), player_id)
                    if changed:
                        await run(
                            conn,
                            f"UPDATE {table} SET {column} = ? WHERE table_id = ? AND {key} = ?",
                            json.dumps(value),
                            table_id,
                            row["key"],
                        )

    async def _forget_ratings(self, player_id: str) -> None:
        await self._write(
            "DELETE FROM tables_ratings WHERE ladder = 'people' AND rated = ?", player_id
        )

    async def _replace_finished(self, record: GameRecordRow, replay: bytes | None) -> None:
        async with self.db.write() as conn:
            await run(
                conn,
                "UPDATE tables_game_records SET record = ?, winners = ?"
                " WHERE table_id = ? AND game_no = ?",
                record.data,
                json.dumps([[w.player_id, w.name, w.bot] for w in record.winners]),
                record.table_id,
                record.game_no,
            )
            for result in record.results:
                await run(
                    conn,
                    "UPDATE tables_game_results SET name = ?"
                    " WHERE table_id = ? AND game_no = ? AND player_id = ?",
                    result.name,
                    record.table_id,
                    record.game_no,
                    result.player_id,
                )
            if replay is not None:
                await run(
                    conn,
                    "UPDATE tables_game_replays SET replay = ? WHERE table_id = ? AND game_no = ?",
                    replay,
                    record.table_id,
                    record.game_no,
                )
