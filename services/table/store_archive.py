"""Finished games in PostgreSQL: records, stored replays, the boards' wins, and registered bots."""

from __future__ import annotations

import json
from typing import Any

from services.table.archive_rows import record_of
from services.table.storage import (
    BotAccount,
    GameRecordRow,
)
from services.table.store_pool import (
    PoolStore,
    bot_of,
)
from shared.rows import board


class GameArchive(PoolStore):
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
        # jsonb: the pool decodes the players and the winners.
        return None if row is None else record_of(table_id, game_no, row, lambda value: value)

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
        return board(rows, "won")

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
        return None if record is None else bot_of(record)

    async def bot_accounts(self) -> list[BotAccount]:
        records = await self._read(
            "SELECT name, owner, created_at FROM tables.bot_accounts ORDER BY name"
        )
        return [bot_of(record) for record in records]
