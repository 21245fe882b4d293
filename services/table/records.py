"""Finished games' public records, built once from a table's event log and then stored.

A table worker builds a game's record when the game ends (``build_record`` in a thread, off its
event loop) and stores the JSON text; the gateway serves the stored text as it is. Games that
ended before records were stored are built the first time someone asks, once, and stored too.

Only the events a record reads are parsed: a table's log holds thousands of plays and timers
that a record does not need, and parsing them all was most of the cost.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from services.table.storage import GameRecordRow, Winner
from shared.games.contract_whist import codec as whist_codec
from shared.games.contract_whist import record as whist_record
from shared.games.euchre import codec as euchre_codec
from shared.games.euchre import record as euchre_record
from shared.games.swick import codec
from shared.games.swick.record import dump_record, game_record

# The event kinds Swick's ``game_record`` reads (besides the game's start and end).
RECORDED = frozenset(
    {
        "game_started",
        "hand_opened",
        "ante_chosen",
        "readied",
        "hand_dealt",
        "trump_decided",
        "drew",
        "dealer_discarded",
        "waiting",
        "game_ended",
    }
)


# Euchre's record reads the deals, the dealer taking the turn-up and the discard.
EUCHRE_RECORDED = frozenset(
    {"game_started", "hand_dealt", "turn_up_taken", "dealer_discarded", "game_ended"}
)


def _swick_record(events: Sequence[Any], seats: int) -> Any:
    return dump_record(game_record((codec.load_event(data) for data in events), seats))


def _euchre_record(events: Sequence[Any], seats: int) -> Any:
    loaded = (euchre_codec.load_event(data) for data in events)
    return euchre_record.dump_record(euchre_record.game_record(loaded))


# Contract Whist's record reads each round's deal.
WHIST_RECORDED = frozenset({"game_started", "round_dealt", "game_ended"})


def _whist_record(events: Sequence[Any], seats: int) -> Any:
    loaded = (whist_codec.load_event(data) for data in events)
    return whist_record.dump_record(whist_record.game_record(loaded))


# Per game: the event kinds its record reads, and the record (as JSON) of those events.
RECORDERS: dict[str, tuple[frozenset[str], Callable[[Sequence[Any], int], Any]]] = {
    "swick": (RECORDED, _swick_record),
    "euchre": (EUCHRE_RECORDED, _euchre_record),
    "contract-whist": (WHIST_RECORDED, _whist_record),
}


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
    recorded, record_of = RECORDERS[game]
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
        if started == game_no and kind in recorded:
            wanted.append(event)
        if kind == "game_ended" and started == game_no:
            text = json.dumps(record_of(wanted, seats), separators=(",", ":"))
            winners = tuple(
                Winner(str(p["id"]), str(p["name"]), p.get("bot") is not None)
                for seat in winning_seats(game, event)
                if (p := seated.get(seat)) is not None
            )
            return GameRecordRow(table_id, game_no, text, tuple(players), winners)
    return None


def winning_seats(game: str, ended: Any) -> list[int]:
    """The seats that won a game, from its ``game_ended`` event (as JSON): Euchre's partnership
    that reached the target, Contract Whist's top scores after the last round; none for Swick
    (a pot game has no winner of the game) or a game cut short."""
    if game == "euchre" and ended.get("reason") == "target" and ended.get("winner") is not None:
        return [seat for seat in range(4) if seat % 2 == ended["winner"]]
    if game == "contract-whist" and ended.get("reason") == "rounds":
        return [int(seat) for seat in ended.get("winners", ())]
    return []
