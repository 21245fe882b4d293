"""Finished games' public records, built once from a table's event log and then stored.

A table worker builds a game's record when the game ends (``build_record`` in a thread, off its
event loop) and stores the JSON text; the gateway serves the stored text as it is. Games that
ended before records were stored are built the first time someone asks, once, and stored too.
They are pure functions of the events, so the table service and the gateway share them here.

Only the events a record reads are parsed: a table's log holds thousands of plays and timers
that a record does not need, and parsing them all was most of the cost.

A record names the players who sat in each seat when its game began (``players``: a name and,
for a bot, its level; never an account's id), so that a record read on its own says "Ann
deals", not "seat 2 deals".

A record also says whom the winners beat and whether the game counts on the boards of games
won (``counts_on_boards``): a game to one point takes seconds, so the boards count only games
of a real length or played for a stake, and wins over the same opponents once a day.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from shared.games.registry import game as game_named
from shared.games.replays import build_replay, pack_replay
from shared.games.results import SeatResult
from shared.tables_read import GameRecordRow, PlayerResult, Winner

MIN_EUCHRE_TARGET = 5  # points: a points-only Euchre game to fewer is too quick to rank
MIN_WHIST_ROUNDS = 9  # a points-only Contract Whist game ranks from 10 cards down to 2


def counts_on_boards(game: str, config: Mapping[str, Any]) -> bool:
    """Whether a won game of ``game`` at a table of ``config`` counts on the boards of games
    won: played for a stake, or long enough (Euchre to ``MIN_EUCHRE_TARGET`` points or more,
    Contract Whist of ``MIN_WHIST_ROUNDS`` rounds or more)."""
    settings = game_named(game).make_config(dict(config))
    if getattr(settings, "stake", 0) > 0:
        return True
    if game == "euchre":
        return bool(settings.target >= MIN_EUCHRE_TARGET)
    if game == "contract-whist":
        return bool(settings.rounds >= MIN_WHIST_ROUNDS)
    return False  # a Swick game is a run of pots: nobody wins it


def identity(player: Mapping[str, Any]) -> str:
    """Who a seated player is to the boards: a person by id, a bot by its name (a bot's id is
    new at every table, and beating ``medium`` again is beating the same opponent)."""
    bot = player.get("bot")
    return f"bot:{bot}" if bot else str(player["id"])


def seat_names(seated: Mapping[int, Any], seats: int) -> list[dict[str, Any] | None]:
    """Who sat in each seat, by name (and a bot's level), for a record: never a player's id."""
    return [
        {"name": str(p["name"]), "bot": p.get("bot")} if (p := seated.get(seat)) else None
        for seat in range(seats)
    ]


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
    table_id: str,
    events: Sequence[Any],
    seats: int,
    game_no: int,
    game: str = "swick",
    config: Mapping[str, Any] | None = None,
) -> GameRecordRow | None:
    """The record of the table's ``game_no``-th game of ``game`` from its events (as JSON), or
    ``None`` while that game has not ended; ``config`` is the table's (its defaults if left
    out). Pure and CPU-bound: run it in a thread."""
    module = game_named(game)
    started = 0
    players: dict[str, None] = {}
    seated: dict[int, Any] = {}
    dealt_in: list[dict[str, Any] | None] = []
    wanted: list[Any] = []
    counted: list[Any] = []  # the game's events its statistics are counted from
    played: dict[str, tuple[int, Any]] = {}  # who sat in during the game: their last seat
    throughout: set[str] = set()  # who sat from its start to its end without leaving
    for event in events:
        kind = event.get("kind")
        if kind == "seat_taken":
            players.setdefault(str(event["player"]["id"]), None)
            seated[event["seat"]] = event["player"]
            if started == game_no:
                played[str(event["player"]["id"])] = (event["seat"], event["player"])
        elif kind == "seat_left" and (left := seated.pop(event["seat"], None)) is not None:
            throughout.discard(str(left["id"]))
        started += kind == "game_started"
        if kind == "game_started" and started == game_no:
            dealt_in = seat_names(seated, seats)
            played = {str(p["id"]): (seat, p) for seat, p in seated.items()}
            throughout = set(played)
        if started == game_no and kind in module.recorded:
            wanted.append(event)
        if started == game_no and kind in module.counted:
            counted.append(module.load_event(event))
        if kind == "game_ended" and started == game_no:
            record = {**module.record(wanted, seats), "players": dealt_in}
            text = json.dumps(record, separators=(",", ":"))
            ended = module.load_event(event)
            seat_results = module.results(module.load_event(wanted[0]), ended)
            stats = {seat: module.stats(counted, seat) for seat in range(seats)}
            results = player_results(played, seated, throughout, seat_results, stats)
            won = module.winners(ended)
            winners = tuple(
                Winner(str(p["id"]), str(p["name"]), p.get("bot") is not None)
                for seat in won
                if (p := seated.get(seat)) is not None
            )
            opponents = tuple(sorted(identity(p) for s, p in seated.items() if s not in won))
            ranked = counts_on_boards(game, config or {})
            return GameRecordRow(
                table_id, game_no, text, tuple(players), winners, opponents, ranked, results
            )
    return None


def player_results(
    played: Mapping[str, tuple[int, Any]],
    seated: Mapping[int, Any],
    throughout: set[str],
    seat_results: Sequence[SeatResult],
    stats: Mapping[int, dict[str, int]],
) -> tuple[PlayerResult, ...]:
    """Everyone's result of a game, by seat: ``played`` are who sat in during it (by id, their
    last seat), ``seated`` who held each seat at its end, ``throughout`` who sat from its start
    to its end. Those who left before the end take the last place, below every side still
    seated. A seat's chips and ``stats`` (by seat) are its player's only if they held it
    throughout (a player who sat down later did not pay what the seat staked at the start, nor
    played its first hands): the others' are not said."""
    by_seat = {result.seat: result for result in seat_results}
    placed = [r.place for r in seat_results if r.place is not None]
    last = 1 + max(placed) if placed else None  # a game with no result places nobody
    results = []
    for player_id, (seat, player) in played.items():
        result = by_seat.get(seat)
        holder = seated.get(seat)
        stayed = holder is not None and str(holder["id"]) == player_id
        kept = result if stayed else None
        results.append(
            PlayerResult(
                player_id,
                seat,
                str(player["name"]),
                player.get("bot"),
                result.side if result else seat,
                kept.points if kept else None,
                kept.chips if kept and player_id in throughout else None,
                kept.place if kept else last,
                left=kept is None,
                stats=stats[seat] if kept and player_id in throughout else {},
            )
        )
    return tuple(sorted(results, key=lambda r: (r.seat, r.left)))


def build_finished(
    table_id: str,
    game: str,
    config: Mapping[str, Any],
    seats: int,
    batches: Sequence[tuple[int, list[Any]]],
) -> tuple[GameRecordRow, bytes] | None:
    """The record and the packed replay of the last game that ended in a table's logged
    batches (each ``(seq, events)``), or ``None`` if none has. Pure and CPU-bound: run it in a
    thread."""
    events = [event for _, logged in batches for event in logged]
    ended = ended_games(events)
    if not ended:
        return None
    record = build_record(table_id, events, seats, ended[-1], game, config)
    text = build_replay(table_id, game, dict(config), batches, ended[-1])
    if record is None or text is None:
        return None
    return record, pack_replay(text)
