"""A deleted account's name forgotten in PostgreSQL (``forgetting``): the tables whose log
names them, rewritten in one transaction each, and their finished games rebuilt.

Finding them reads every table's log (a full scan, for an operator's rare deletion): the log
has no index by player, and a seat taken long ago names the player in its event only.
"""

from __future__ import annotations

from services.table.forgetting import Forgetting, mention, renamed
from services.table.store_pool import PoolStore
from shared.tables_read import GameRecordRow


class LogForgetting(PoolStore, Forgetting):
    async def _tables_naming(self, player_id: str) -> list[str]:
        rows = await self._read(
            "SELECT table_id FROM tables.events WHERE strpos(events::text, $1) > 0"
            " UNION SELECT table_id FROM tables.snapshots WHERE strpos(state::text, $1) > 0"
            " UNION SELECT table_id FROM tables.tables WHERE strpos(seats::text, $1) > 0"
            " ORDER BY table_id",
            mention(player_id),
        )
        return [str(row["table_id"]) for row in rows]

    async def _rename_in_log(self, table_id: str, player_id: str) -> None:
        named = mention(player_id)
        async with self.pool.acquire() as conn, conn.transaction():
            for table, key, column in (
                ("events", "seq", "events"),
                ("snapshots", "seq", "state"),
                ("tables", "table_id", "seats"),
            ):
                rows = await conn.fetch(
                    f"SELECT {key} AS key, {column} AS value FROM tables.{table}"
                    f" WHERE table_id = $1 AND strpos({column}::text, $2) > 0 FOR UPDATE",
                    table_id,
                    named,
                )
                for row in rows:
                    value, changed = renamed(row["value"], player_id)
                    if changed:
                        await conn.execute(
                            f"UPDATE tables.{table} SET {column} = $3"
                            f" WHERE table_id = $1 AND {key} = $2",
                            table_id,
                            row["key"],
                            value,
                        )

    async def _forget_ratings(self, player_id: str) -> None:
        await self.pool.execute(
            "DELETE FROM tables.ratings WHERE ladder = 'people' AND rated = $1", player_id
        )

    async def _replace_finished(self, record: GameRecordRow, replay: bytes | None) -> None:
        async with self.pool.acquire() as conn, conn.transaction():
            await conn.execute(
                "UPDATE tables.game_records SET record = $3, winners = $4"
                " WHERE table_id = $1 AND game_no = $2",
                record.table_id,
                record.game_no,
                record.data,
                [[w.player_id, w.name, w.bot] for w in record.winners],
            )
            await conn.executemany(
                "UPDATE tables.game_results SET name = $4"
                " WHERE table_id = $1 AND game_no = $2 AND player_id = $3",
                [(record.table_id, record.game_no, r.player_id, r.name) for r in record.results],
            )
            if replay is not None:
                await conn.execute(
                    "UPDATE tables.game_replays SET replay = $3"
                    " WHERE table_id = $1 AND game_no = $2",
                    record.table_id,
                    record.game_no,
                    replay,
                )
