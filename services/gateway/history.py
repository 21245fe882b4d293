"""What a page that starts watching a table is sent before its snapshot: the table's recent
chat, and the watcher's own views of the table's recent commands, so that a reloaded page (or
one served by another gateway) shows its hand log and chat again.

The views are rebuilt here, from the table's log as stored (its snapshot before the latest, and
the commands since: the last hand and the current one), with the game's own ``view_for``: each
is the view the watcher was sent live at that ``seq`` (their seat's, while they held it; the
spectators' otherwise), so a replay shows no card the watcher could not see then. The table
workers do nothing more for it: nothing is kept per command, and a replay costs one read of the
log and a few milliseconds here, only when a page starts watching.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from typing import Any

from services.gateway import protocol as p
from services.gateway.chat import ChatLog
from shared import messages as m
from shared.games.registry import game
from shared.tables_read import Stored, TableReads

log = logging.getLogger("swick.gateway")

HANDS_BACK = 2  # replay from the snapshot before the latest: the last hand, then this one
MAX_VIEWS = 80  # the most recent views sent (a hand at a full table is about 45 commands)


def replay(stored: Stored, player_id: str, after: int, limit: int = MAX_VIEWS) -> list[str]:
    """``player_id``'s views (as JSON text) of the last ``limit`` states of the stored log,
    oldest first, leaving out those at or before ``after``: each is their seat's view while
    they held a seat, else the spectators' view."""
    g: Any = game(stored.row.game)
    state = (
        g.load_state(stored.snapshot)
        if stored.snapshot is not None
        else g.new_table(g.make_config(stored.row.config))
    )
    states: deque[Any] = deque([state], maxlen=limit)
    for _, events in stored.batches:
        for data in events:
            state = g.evolve(state, g.load_event(data))
        states.append(state)
    views = []
    for state in states:
        if g.seq(state) <= after:
            continue
        players = g.players(state)
        seat = next((s for s, who in enumerate(players) if who and who.id == player_id), None)
        views.append(g.view_json(g.view_for(state, seat)))
    return views


class History:
    """One gateway's replays: one at a time, in a thread (a replay takes a few milliseconds)."""

    def __init__(self) -> None:
        self._replaying = asyncio.Lock()

    async def frame(
        self, store: TableReads, chat: ChatLog, table_id: str, player_id: str, after: int
    ) -> str:
        """The ``history`` frame for ``player_id``, who starts watching ``table_id`` having
        seen it up to ``after`` (0: never). A part that cannot be read is sent empty."""
        try:
            lines = await chat.recent(table_id)
        except Exception:
            log.warning("could not read a table's chat", extra={"table": table_id}, exc_info=True)
            lines = []
        try:
            views = await self._views(store, table_id, player_id, after)
        except Exception:
            log.warning("could not replay a table's log", extra={"table": table_id}, exc_info=True)
            views = []
        return p.history_frame(table_id, [chat_out(line) for line in lines], views)

    async def _views(
        self, store: TableReads, table_id: str, player_id: str, after: int
    ) -> list[str]:
        stored = await store.load(table_id, back=HANDS_BACK)
        if stored is None or stored.row.seq <= after:
            return []
        async with self._replaying:
            return await asyncio.to_thread(replay, stored, player_id, after)


def chat_out(line: m.ChatLine) -> p.ChatLine:
    return p.ChatLine(
        table=line.table_id,
        id=line.id,
        player=line.player_id,
        name=line.name,
        text=line.text,
        at=line.at,
    )
