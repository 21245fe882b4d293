"""The gateway's side of game records: the stored text, or a record built once when a game
ended before the table workers stored records (they store each one as its game ends).

Such a build reads the table's log and parses the events it needs in a thread, one build at a
time per gateway, and stores the result, so a game is built at most once. Asking again and again
for a game that has not ended costs one row read: the games a table had ended at its ``seq`` are
remembered until its ``seq`` moves on.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict

from shared.games.records import build_record, ended_games
from shared.tables_read import GameRecordRow, TableReads, TableRow

REMEMBERED_TABLES = 1024


class Records:
    def __init__(self, store: TableReads) -> None:
        self.store = store
        self._building = asyncio.Lock()
        self._ended: OrderedDict[str, tuple[int, frozenset[int]]] = OrderedDict()

    async def get(self, row: TableRow, game_no: int) -> GameRecordRow | None:
        """The record of ``row``'s ``game_no``-th game, or ``None`` while it has not ended."""
        stored = await self.store.game_record(row.table_id, game_no)
        if stored is not None or self._not_ended(row, game_no):
            return stored
        async with self._building:
            stored = await self.store.game_record(row.table_id, game_no)
            if stored is not None or self._not_ended(row, game_no):
                return stored
            events = await self.store.events(row.table_id)
            self._remember(row, frozenset(ended_games(events)))
            if self._not_ended(row, game_no):
                return None
            record = await asyncio.to_thread(
                build_record, row.table_id, events, len(row.seats), game_no, row.game, row.config
            )
            if record is not None:
                await self.store.save_record(record)
            return record

    def _not_ended(self, row: TableRow, game_no: int) -> bool:
        known = self._ended.get(row.table_id)
        return known is not None and known[0] == row.seq and game_no not in known[1]

    def _remember(self, row: TableRow, ended: frozenset[int]) -> None:
        self._ended[row.table_id] = (row.seq, ended)
        self._ended.move_to_end(row.table_id)
        while len(self._ended) > REMEMBERED_TABLES:
            self._ended.popitem(last=False)
