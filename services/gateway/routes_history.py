"""A player's own history: every finished game they sat in, newest first, with everyone's
results (``/api/games/mine``), read from the tables' read model (``TableReads.games_of``)."""

from __future__ import annotations

import math
import re
from datetime import UTC, datetime
from typing import Annotated

from fastapi import FastAPI, HTTPException, Query
from pydantic import BaseModel, Field

from services.gateway.signed_in import SignedIn
from services.gateway.state import gateway_of
from shared.games.registry import GAMES
from shared.tables_read import HistoryCursor, PlayedGame, PlayerResult, PlayerStats

PAGE = 20  # games a page holds unless asked for fewer or more
MAX_PAGE = 50
GAME_NAMES = f"^({'|'.join(re.escape(name) for name in GAMES)})$"


class SeatResultOut(BaseModel):
    seat: int
    name: str
    bot: str | None = Field(description="A bot's level or name; null for a person")
    points: int | None = Field(description="The seat's (or its team's) points; null in Swick")
    chips: int | None = Field(
        description="Cents won (+) or lost (−) over the game; null when not known (a player "
        "who sat down after it began, or left before its end)"
    )
    place: int | None = Field(description="1 is the best, ties share one; null: no result")
    left: bool = Field(description="Left before the game's end: last place")
    me: bool = Field(description="The player asking")
    stats: dict[str, int] = Field(
        description="What the seat did over the game (see `/api/games/mine/stats`); empty for "
        "a player who did not hold it from the start to the end"
    )


class PlayedGameOut(BaseModel):
    table_id: str
    game_no: int
    game: str
    ended_at: str = Field(description="When it ended (ISO 8601, UTC)")
    places: int = Field(description="How many places it had: two in Euchre (teams)")
    me: SeatResultOut
    seats: list[SeatResultOut] = Field(description="Everyone who sat in, by seat")


class HistoryOut(BaseModel):
    games: list[PlayedGameOut]
    next: str | None = Field(description="`before` for the next page; null on the last")


class StatsOut(BaseModel):
    game: str
    games: int = Field(description="Finished games played")
    first: int = Field(description="Games finished in first place, alone or shared")
    left: int = Field(description="Games left before their end")
    counts: dict[str, int] = Field(
        description="Added up over the games: Euchre `hands`, `made`, `euchred`, `loners`, "
        "`marches` (of the hands you made trump in); Contract Whist `rounds`, `exact` (bids "
        "made exactly), `points`; Swick `hands`, `knocks`, `sets`, `net` (¢), `net_squares`"
    )
    points_per_round: float | None = Field(description="Contract Whist's points a round")
    net_per_hand: float | None = Field(description="Swick's mean net a hand, in cents")
    net_per_hand_interval: tuple[float, float] | None = Field(
        description="Swick: the 95% interval of that mean (from two hands on)"
    )


def stats_out(stats: PlayerStats) -> StatsOut:
    counts = stats.stats
    hands, rounds = counts.get("hands", 0), counts.get("rounds", 0)
    mean = interval = None
    if stats.game == "swick" and hands:
        mean = counts.get("net", 0) / hands
        if hands >= 2:
            # The sample's standard deviation, from the sums: the mean's normal interval.
            spread = (counts.get("net_squares", 0) - hands * mean * mean) / (hands - 1)
            half = 1.96 * math.sqrt(max(spread, 0.0) / hands)
            interval = (mean - half, mean + half)
    return StatsOut(
        game=stats.game,
        games=stats.games,
        first=stats.first,
        left=stats.left,
        counts=counts,
        points_per_round=counts.get("points", 0) / rounds if rounds else None,
        net_per_hand=mean,
        net_per_hand_interval=interval,
    )


def result_out(result: PlayerResult, player_id: str) -> SeatResultOut:
    return SeatResultOut(
        seat=result.seat,
        name=result.name,
        bot=result.bot,
        points=result.points,
        chips=result.chips,
        place=result.place,
        left=result.left,
        me=result.player_id == player_id,
        stats=result.stats,
    )


def played_out(played: PlayedGame, player_id: str) -> PlayedGameOut:
    seats = [result_out(result, player_id) for result in played.results]
    ended = datetime.fromtimestamp(played.ended_ms / 1000, UTC)
    return PlayedGameOut(
        table_id=played.table_id,
        game_no=played.game_no,
        game=played.game,
        ended_at=ended.isoformat(timespec="seconds").replace("+00:00", "Z"),
        places=played.places,
        me=next(seat for seat in seats if seat.me),
        seats=seats,
    )


def add_history_routes(app: FastAPI) -> None:
    """``/api/games/mine`` and ``/api/games/mine/stats``."""

    @app.get(
        "/api/games/mine/stats",
        response_model=StatsOut,
        summary="Your statistics at one game, over every finished game of it",
    )
    async def my_stats(
        player: SignedIn, game: Annotated[str, Query(pattern=GAME_NAMES)]
    ) -> StatsOut:
        return stats_out(await gateway_of(app).store.stats_of(player.id, game))

    @app.get(
        "/api/games/mine",
        response_model=HistoryOut,
        summary="Your finished games, newest first",
        description="Every finished game you sat in (of one `game`, when given), a page at a "
        "time: pass the last page's `next` as `before` for the next one. Each lists everyone "
        "who sat in, by seat, with their result; bots by level, nobody by account id.",
    )
    async def my_games(
        player: SignedIn,
        game: Annotated[str | None, Query(pattern=GAME_NAMES)] = None,
        before: Annotated[str | None, Query(max_length=200)] = None,
        limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = PAGE,
    ) -> HistoryOut:
        try:
            cursor = None if before is None else HistoryCursor.parse(before)
        except ValueError:
            raise HTTPException(422, "`before` is not a page's `next`") from None
        games = await gateway_of(app).store.games_of(player.id, game, cursor, limit + 1)
        page = games[:limit]
        return HistoryOut(
            games=[played_out(played, player.id) for played in page],
            next=str(page[-1].cursor) if len(games) > limit else None,
        )
