"""A deleted account's name forgotten by the tables, the same whichever database holds them.

The tables keep a player's name (with their id) wherever a seat names them: the ``seat_taken``
events of their tables' logs, the snapshots, a table's seats summary, and what is built from the
log, the finished games' records and replays and their winners. Forgetting rewrites the log
(every object naming the player's id gets ``DELETED_PLAYER`` for a name), then builds each
stored record and replay of those tables again from the rewritten log and puts it in place of
the old one. A record is a pure function of the log, and its names are no part of what it
proves (the seed, its fingerprint, every deal and draw, which ``swick verify`` re-deals): the
rebuilt record verifies exactly as the old one did, and says "Deleted player" where it said
the name. Ids stay where they were (a record's players, a board's opponents, the games'
results): they name nobody once the account is gone. Its ratings are dropped.
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from typing import Any

from shared.games.records import build_record, ended_games
from shared.games.replays import ALL_BATCHES, build_replay, pack_replay
from shared.messages import DELETED_PLAYER
from shared.tables_read import GameRecordRow, Stored


def renamed(value: Any, player_id: str) -> tuple[Any, bool]:
    """``value`` (JSON as Python values) with every object whose ``id`` is ``player_id`` named
    ``DELETED_PLAYER``, and whether anything changed."""
    if isinstance(value, list):
        items = [renamed(item, player_id) for item in value]
        return [item for item, _ in items], any(changed for _, changed in items)
    if isinstance(value, dict):
        changed = False
        out = {}
        for key, item in value.items():
            out[key], moved = renamed(item, player_id)
            changed = changed or moved
        if out.get("id") == player_id and "name" in out and out["name"] != DELETED_PLAYER:
            out["name"] = DELETED_PLAYER
            changed = True
        return out, changed
    return value, False


def mention(player_id: str) -> str:
    """How a player's id appears in a JSON text (quoted: no longer id contains it)."""
    return f'"{player_id}"'


class Forgetting(ABC):
    """``TableReads.forget_player`` over a store's own steps."""

    @abstractmethod
    async def load(self, table_id: str, back: int = 1) -> Stored | None: ...

    @abstractmethod
    async def game_record(self, table_id: str, game_no: int) -> GameRecordRow | None: ...

    @abstractmethod
    async def _tables_naming(self, player_id: str) -> list[str]:
        """The tables whose log or summary names the player's id."""

    @abstractmethod
    async def _rename_in_log(self, table_id: str, player_id: str) -> None:
        """Rewrite (``renamed``) the table's events, snapshots and seats that name the player,
        in one transaction."""

    @abstractmethod
    async def _replace_finished(self, record: GameRecordRow, replay: bytes | None) -> None:
        """Put ``record`` (and ``replay``, when given) in place of the stored ones of its game."""

    @abstractmethod
    async def _forget_ratings(self, player_id: str) -> None:
        """Take the player off the people's ladders: an account that is gone ranks no more."""

    async def forget_player(self, player_id: str) -> int:
        """Forget the player's name everywhere the tables keep it: how many tables named them.
        Safe to call again (a second call finds the same tables and changes nothing)."""
        tables = await self._tables_naming(player_id)
        for table_id in tables:
            await self._rename_in_log(table_id, player_id)
            stored = await self.load(table_id, back=ALL_BATCHES)
            if stored is None:
                continue
            for record, replay in await asyncio.to_thread(_rebuilt, stored):
                if await self.game_record(table_id, record.game_no) is not None:
                    await self._replace_finished(record, replay)
        await self._forget_ratings(player_id)
        return len(tables)


def _rebuilt(stored: Stored) -> list[tuple[GameRecordRow, bytes | None]]:
    """Every finished game's record and replay of a table, built from its whole log (CPU-bound:
    run in a thread)."""
    row = stored.row
    events = [event for _, batch in stored.batches for event in batch]
    built = []
    for game_no in ended_games(events):
        record = build_record(row.table_id, events, len(row.seats), game_no, row.game, row.config)
        if record is None:
            continue
        text = build_replay(row.table_id, row.game, row.config, stored.batches, game_no)
        built.append((record, None if text is None else pack_replay(text)))
    return built
