"""The finished games' rows, read the same from either store."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from services.table.storage import GameRecordRow, Winner
from shared.ratings import Rated, Rating, rated, rated_as
from shared.rows import Row
from shared.tables_read import PlayedGame, PlayerResult, PlayerStats, RatingRow


def added_up(game: str, rows: Sequence[Row]) -> PlayerStats:
    """A player's results of one game's finished games (place, left early, stats), added up."""
    totals: dict[str, int] = {}
    for row in rows:
        for key, count in json.loads(row["stats"]).items():
            totals[key] = totals.get(key, 0) + int(count)
    return PlayerStats(
        game,
        len(rows),
        sum(row["place"] == 1 for row in rows),
        sum(bool(row["left_early"]) for row in rows),
        totals,
    )


def result_rows(record: GameRecordRow) -> list[tuple[Any, ...]]:
    """The record's results as the columns ``save_record`` writes after its game's key."""
    return [
        (
            r.player_id,
            r.seat,
            r.name,
            r.bot,
            r.side,
            r.points,
            r.chips,
            r.place,
            r.left,
            json.dumps(r.stats, separators=(",", ":"), sort_keys=True),
        )
        for r in record.results
    ]


def played_games(rows: Sequence[Row]) -> list[PlayedGame]:
    """The games of a history's rows (one a player's result, in the games' order), each with
    everyone's results."""
    grouped: dict[tuple[str, int], tuple[Row, list[PlayerResult]]] = {}
    for row in rows:
        key = (str(row["table_id"]), int(row["game_no"]))
        grouped.setdefault(key, (row, []))[1].append(
            PlayerResult(
                str(row["player_id"]),
                int(row["seat"]),
                str(row["name"]),
                row["bot"],
                int(row["side"]),
                row["points"],
                row["chips"],
                row["place"],
                bool(row["left_early"]),
                json.loads(row["stats"]),
            )
        )
    return [
        PlayedGame(*key, str(first["game"]), int(first["ended_ms"]), tuple(results))
        for key, (first, results) in grouped.items()
    ]


def record_of(
    table_id: str, game_no: int, row: Row, decoded: Callable[[Any], Any]
) -> GameRecordRow:
    """A stored game record; ``decoded`` reads its JSON columns (players, winners) as the
    store keeps them. The opponents are text in both: compared whole, as the boards' key."""
    winners = tuple(Winner(str(w[0]), str(w[1]), bool(w[2])) for w in decoded(row["winners"]))
    return GameRecordRow(
        table_id,
        game_no,
        row["record"],
        tuple(decoded(row["players"])),
        winners,
        tuple(json.loads(row["opponents"])),
        bool(row["ranked"]),
    )


def rating_of(row: Row) -> RatingRow:
    return RatingRow(
        str(row["game"]),
        str(row["ladder"]),
        str(row["rated"]),
        str(row["name"]),
        float(row["mu"]),
        float(row["sigma"]),
        int(row["games"]),
    )


def rerated(
    game: str, record: GameRecordRow, rows: Sequence[Row]
) -> list[tuple[str, str, str, str, float, float, int]]:
    """The rows (``RATING_COLUMNS``) a finished game's ratings become, from the stored ``rows``
    of its players (one rated in no game yet starts at ``Rating()``): a person named as in
    this game, a bot by its level or registered name (its seats' names change by table)."""
    current: dict[Rated, Rating] = {
        (row["ladder"], str(row["rated"])): Rating(
            float(row["mu"]), float(row["sigma"]), int(row["games"])
        )
        for row in rows
        if row["games"] > 0
    }
    names = {rated_as(result): result.bot or result.name for result in record.results}
    return [
        (game, ladder, who, names[ladder, who], rating.mu, rating.sigma, rating.games)
        for (ladder, who), rating in sorted(rated(record.results, current).items())
    ]


def raters(record: GameRecordRow) -> list[Rated]:
    """Who a game rates, in one order (the order their rows are locked in)."""
    return sorted({rated_as(result) for result in record.results})
