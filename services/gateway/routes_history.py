"""A player's own history: every finished game they sat in, newest first, with everyone's
results (``/api/games/mine``), read from the tables' read model (``TableReads.games_of``)."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Annotated

from fastapi import FastAPI, HTTPException, Query
from pydantic import BaseModel, Field

from services.gateway.signed_in import SignedIn
from services.gateway.state import gateway_of
from shared.games.registry import GAMES
from shared.tables_read import HistoryCursor, PlayedGame, PlayerResult

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
    """``/api/games/mine``."""

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
