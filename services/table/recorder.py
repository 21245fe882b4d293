"""The records and replays of finished games, stored off the command path once a game ends."""

from __future__ import annotations

import asyncio
import logging

from services.table.context import WorkerContext
from services.table.storage import TableRow
from services.table.tables import LiveTable
from shared.games.records import build_finished
from shared.games.replays import ALL_BATCHES

log = logging.getLogger("swick.table")


class Recorder:
    def __init__(self, ctx: WorkerContext) -> None:
        self.ctx = ctx
        self._recording: set[asyncio.Task[None]] = set()  # records being stored

    def record_game(self, table: LiveTable) -> None:
        """Store the record and the replay of the game that just ended, off the command path."""
        task = asyncio.get_running_loop().create_task(self._store_record(table.row))
        self._recording.add(task)
        task.add_done_callback(self._recording.discard)

    async def _store_record(self, row: TableRow) -> None:
        table_id = row.table_id
        store = self.ctx.store
        try:
            stored = await store.load(table_id, back=ALL_BATCHES)
            if stored is None:
                return
            # In a thread: a long game's log takes a while to parse, and leases wait for no one.
            built = await asyncio.to_thread(
                build_finished, table_id, row.game, row.config, len(row.seats), stored.batches
            )
            if built is None:
                return
            record, replay = built
            # The replay first: a stored record says the game ended, and its replay is then
            # there for every gateway to serve without reading the log.
            await store.save_replay(table_id, record.game_no, replay)
            await store.save_record(record)
        except Exception:
            # A gateway builds a missing record or replay once, when it is first asked for.
            log.exception("could not store a game's record", extra={"table": table_id})
