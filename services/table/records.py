"""Finished games' public records, built once from a table's event log and then stored.

A table worker builds a game's record when the game ends (``build_record`` in a thread, off its
event loop) and stores the JSON text; the gateway serves the stored text as it is. Games that
ended before records were stored are built the first time someone asks, once, and stored too.

Only the events a record reads are parsed: a table's log holds thousands of plays and timers
that a record does not need, and parsing them all was most of the cost.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from services.table.storage import GameRecordRow, Winner
from shared.games.registry import game as game_named


def ended_games(events: Sequence[Any]) -> list[int]:
    """The numbers (from 1) of the games that ended in a table's events (as JSON)."""
    started, ended = 0, []
    for event in events:
        kind = event.get("kind")
        started += kind == "game_started"
        if kind == "game_ended":
            ended.append(started)
    return ended


def build_record(
    table_id: str, events: Sequence[Any], seats: int, game_no: int, game: str = "swick"
) -> GameRecordRow | None:
    """The record of the table's ``game_no``-th game of ``game`` from its events (as JSON), or
    ``None`` while that game has not ended. Pure and CPU-bound: run it in a thread."""
    module = game_named(game)
    started = 0
    players: dict[str, None] = {}
    seated: dict[int, Any] = {}
    wanted: list[Any] = []
    for event in events:
        kind = event.get("kind")
        if kind == "seat_taken":
            players.setdefault(str(event["player"]["id"]), None)
            seated[event["seat"]] = event["player"]
        elif kind == "seat_left":
            seated.pop(event["seat"], None)
        started += kind == "game_started"
        if started == game_no and kind in module.recorded:
            wanted.append(event)
        if kind == "game_ended" and started == game_no:
            text = json.dumps(module.record(wanted, seats), separators=(",", ":"))
            winners = tuple(
                Winner(str(p["id"]), str(p["name"]), p.get("bot") is not None)
                for seat in module.winners(module.load_event(event))
                if (p := seated.get(seat)) is not None
            )
            return GameRecordRow(table_id, game_no, text, tuple(players), winners)
    return None
