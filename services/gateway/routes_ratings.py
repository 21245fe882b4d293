"""Ratings (``shared/ratings.py``): one's own at every game (``/api/ratings/mine``), and the
ladders a game's board lists, people and bots apart."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from pydantic import BaseModel, Field

from services.gateway.signed_in import SignedIn
from services.gateway.state import Gateway, gateway_of
from shared.ratings import PROVISIONAL
from shared.tables_read import RatingRow


class RatingOut(BaseModel):
    game: str
    name: str = Field(description="A person's display name, or a bot's level or name")
    rating: int = Field(description="The model's mean, on a scale where a newcomer is 1500")
    deviation: int = Field(description="How unsure it still is: 500 for a newcomer")
    provisional: bool = Field(description=f"Deviation {PROVISIONAL:.0f} or more: shown with ?")
    games: int = Field(description="The rated games it counts")


def rating_out(row: RatingRow) -> RatingOut:
    return RatingOut(
        game=row.game,
        name=row.name,
        rating=round(row.mu),
        deviation=round(row.sigma),
        provisional=row.sigma >= PROVISIONAL,
        games=row.games,
    )


async def ladders(gw: Gateway, game: str, limit: int) -> dict[str, Any]:
    """A game's two ladders, best first, for its board: ``ratings`` (people only) and
    ``bots`` (the built-in levels and registered bots)."""
    return {
        ladder_key: [
            rating_out(row).model_dump() for row in await gw.store.rating_board(game, ladder, limit)
        ]
        for ladder_key, ladder in (("ratings", "people"), ("bots", "bots"))
    }


def add_rating_routes(app: FastAPI) -> None:
    """``/api/ratings/mine``."""

    @app.get(
        "/api/ratings/mine",
        response_model=list[RatingOut],
        summary="Your rating at every game you have played a rated game of",
        description="Every finished game with a result rates its players (docs/ratings.md); "
        "a game's board (`/api/leaderboard?game=`) lists the people's ladder as `ratings` and "
        "the bots' as `bots`.",
    )
    async def my_ratings(player: SignedIn) -> list[RatingOut]:
        return [rating_out(row) for row in await gateway_of(app).store.ratings_of(player.id)]
