"""The tables a worker holds in memory: each one's row, game and state, loaded from the log."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Any

from services.table.presence import Presence
from services.table.storage import Stored, TableRow, TableStorage
from shared.games.registry import AnyGame, game

log = logging.getLogger("swick.table")


@dataclass
class LiveTable:
    row: TableRow
    game: AnyGame
    state: Any
    timer: asyncio.TimerHandle | None = field(default=None, repr=False)  # its deadline's tick
    presence: Presence | None = field(default=None, repr=False)
    presence_checks: dict[int, asyncio.Task[None]] = field(default_factory=dict, repr=False)


async def load(
    store: TableStorage, tables: dict[str, LiveTable], table_id: str
) -> LiveTable | None:
    """The table as held in ``tables``, or else as its snapshot and log have it."""
    cached = tables.get(table_id)
    if cached is not None:
        return cached
    stored = await store.load(table_id)
    if stored is None:
        return None
    g = game(stored.row.game)
    state = replayed(stored)
    table = LiveTable(stored.row, g, state)
    if g.phase(state) != "closed":  # a closed table is only read, never kept
        tables[table_id] = table
    log.info("loaded", extra={"table": table_id, "seq": g.seq(state)})
    return table


def replayed(stored: Stored) -> Any:
    """The table's state: its snapshot (or a new table) with the log after it applied."""
    g = game(stored.row.game)
    state = (
        g.load_state(stored.snapshot)
        if stored.snapshot is not None
        else g.new_table(g.make_config(stored.row.config))
    )
    for _, events in stored.batches:
        for data in events:
            state = g.evolve(state, g.load_event(data))
    return state


def seat_of(table: LiveTable, player_id: str) -> int | None:
    for seat, player in enumerate(table.game.players(table.state)):
        if player is not None and player.id == player_id:
            return seat
    return None
