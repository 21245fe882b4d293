"""Finished games in PostgreSQL: records, stored replays, the boards' wins, and registered bots."""

from __future__ import annotations

import json
from typing import Any

from services.table.archive_rows import raters, record_of, rerated, result_rows
from services.table.player_reads import RATING_COLUMNS, PlayerReads
from services.table.storage import (
    BotAccount,
    GameRecordRow,
)
from services.table.store_pool import (
    PoolStore,
    bot_of,
)
from shared.rows import board


class GameArchive(PoolStore, PlayerReads):
    tables = "tables.{}"
    mark = "$"

    async def save_record(self, record: GameRecordRow) -> None:
        async with self.pool.acquire() as conn, conn.transaction():
            stored = await conn.execute(
                "INSERT INTO tables.game_records"
                " (table_id, game_no, record, players, winners, opponents, ranked)"
                " VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING",
                record.table_id,
                record.game_no,
                record.data,
                list(record.players),
                [[w.player_id, w.name, w.bot] for w in record.winners],  # jsonb: pool-encoded
                json.dumps(sorted(record.opponents)),  # text: compared whole, the boards' key
                record.ranked,
            )
            # Stamped with the record's own end (a record saved again keeps its first one).
            await conn.executemany(
                "INSERT INTO tables.game_results (table_id, game_no, player_id, seat, name,"
                " bot, side, points, chips, place, left_early, stats, ended_ms)"
                " SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12,"
                " (extract(epoch FROM ended_at) * 1000)::bigint FROM tables.game_records"
                " WHERE table_id = $1 AND game_no = $2 ON CONFLICT DO NOTHING",
                [(record.table_id, record.game_no, *row) for row in result_rows(record)],
            )
            if stored == "INSERT 0 1":  # the first time: the game moves its players' ratings
                await self._rate(conn, record)

    async def _rate(self, conn: Any, record: GameRecordRow) -> None:
        who = raters(record)
        if not who:
            return
        game = await conn.fetchval(
            "SELECT game FROM tables.tables WHERE table_id = $1", record.table_id
        )
        ladders, rated = [w[0] for w in who], [w[1] for w in who]
        # Every row there first, then locked in one order: two games ending at once for one
        # player wait for each other, and neither rates from a stale row.
        await conn.execute(
            "INSERT INTO tables.ratings (game, ladder, rated, name, mu, sigma, games)"
            " SELECT $1, l, r, '', 0, 0, 0 FROM unnest($2::text[], $3::text[]) AS u(l, r)"
            " ON CONFLICT DO NOTHING",
            game,
            ladders,
            rated,
        )
        rows = await conn.fetch(
            f"SELECT {RATING_COLUMNS} FROM tables.ratings WHERE game = $1"
            " AND (ladder, rated) IN (SELECT * FROM unnest($2::text[], $3::text[]))"
            " ORDER BY ladder, rated FOR UPDATE",
            game,
            ladders,
            rated,
        )
        await conn.executemany(
            "UPDATE tables.ratings SET name = $4, mu = $5, sigma = $6, games = $7"
            " WHERE game = $1 AND ladder = $2 AND rated = $3",
            rerated(game, record, rows),
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
            " AND NOT (w ->> 2)::boolean"  # people only: a bot partner wins no place on it
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
