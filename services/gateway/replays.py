"""The gateway's side of replays: the replay the table worker stored when the game ended,
served byte for byte, or, for a game that ended before replays were stored (or whose worker
failed to store it), one built from the table's log once and stored, so a game is built at most
once whatever asks for it (``shared/games/replays.py`` builds and describes them).

A request for a stored replay costs one row read: the table's log is never read for it.
"""

from __future__ import annotations

import asyncio

from shared.games.replays import ALL_BATCHES, build_replay, pack_replay
from shared.tables_read import TableReads, TableRow


class Replays:
    def __init__(self, store: TableReads) -> None:
        self.store = store
        self._building = asyncio.Lock()  # one build from a log at a time per gateway

    async def get(self, row: TableRow, game_no: int) -> bytes | None:
        """The gzip-compressed replay of ``row``'s ``game_no``-th game, or ``None`` while it has
        not ended. The caller checks that it has (its record exists) and who may see it."""
        stored = await self.store.game_replay(row.table_id, game_no)
        if stored is not None:
            return stored
        async with self._building:
            stored = await self.store.game_replay(row.table_id, game_no)
            if stored is not None:
                return stored
            log = await self.store.load(row.table_id, back=ALL_BATCHES)
            if log is None:
                return None
            text = await asyncio.to_thread(
                build_replay, row.table_id, row.game, row.config, log.batches, game_no
            )
            if text is None:
                return None
            packed = await asyncio.to_thread(pack_replay, text)
            await self.store.save_replay(row.table_id, game_no, packed)
            return packed
