"""The chips' routes, answered by the ledger: a player's balance and transfers, and the
leaderboards (a game's own with its ratings and the games each person won)."""

from __future__ import annotations

import time
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import FastAPI, HTTPException, Query
from fastapi.responses import JSONResponse

from services.gateway.ledger_proxy import ask_ledger, relay_ledger
from services.gateway.models import MyBalance, form_of
from services.gateway.routes_ratings import ladders
from services.gateway.signed_in import SignedIn
from services.gateway.state import Gateway, gateway_of
from shared.games.registry import GAMES


def add_chip_routes(app: FastAPI) -> None:
    """``/api/me/balance``, ``/api/me/transfers`` and ``/api/leaderboard``."""

    @app.get("/api/me/balance", response_model=MyBalance, summary="Your chips (from the ledger)")
    async def my_balance(player: SignedIn) -> MyBalance:
        """A new player has no wallet until they first sit down: their balance is null then,
        not a 404, and `starting_grant` says what the wallet will open with."""
        gw = gateway_of(app)
        reply = await ask_ledger(gw, f"/players/{quote(player.id, safe='')}/balance")
        grant = gw.settings.starting_grant
        if reply.status_code == 404:
            return MyBalance(player_id=player.id, balance=None, starting_grant=grant)
        if reply.status_code != 200:
            raise HTTPException(502, "The ledger did not answer as expected: try again soon")
        balance: int = reply.json()["balance"]
        return MyBalance(player_id=player.id, balance=balance, starting_grant=grant)

    @app.get("/api/me/transfers", summary="Your recent transfers, newest first (from the ledger)")
    async def my_transfers(
        player: SignedIn, limit: Annotated[int, Query(ge=1, le=200)] = 20
    ) -> JSONResponse:
        path = f"/players/{quote(player.id, safe='')}/transfers"  # quoted: an id is no path
        return await relay_ledger(gateway_of(app), path, limit=limit)

    @app.get(
        "/api/leaderboard",
        summary="Net winnings over the last days (from the ledger); with game, that game's board",
    )
    async def leaderboard(
        days: Annotated[int, Query(ge=1, le=3650)] = 7,
        limit: Annotated[int, Query(ge=1, le=100)] = 20,
        game: Annotated[
            str | None,
            Query(
                max_length=32,
                description=f"one game's board: {' or '.join(GAMES)}; left out, every table's "
                "net winnings as before",
            ),
        ] = None,
    ) -> JSONResponse:
        gw = gateway_of(app)
        if game is None:
            return await relay_ledger(gw, "/leaderboard", days=days, limit=limit)
        return JSONResponse(await game_board(gw, game, days, limit))


async def game_board(gw: Gateway, game_name: str, days: int, limit: int) -> dict[str, Any]:
    """One game's leaderboard: ``players``, the net chips won at its tables over the last
    ``days`` (from the ledger: stakes and antes in, pots out); its ladders, ``ratings`` (people
    only) and ``bots``; for a game with winners (Euchre, Contract Whist, whether played for
    points or a stake) also ``games_won``, the games each person won in that time (from the
    finished games' records). 422 for an unknown game."""
    form_of(game_name)
    reply = await ask_ledger(gw, "/leaderboard", days=days, limit=limit, game=game_name)
    if reply.status_code != 200:
        raise HTTPException(503, "The ledger is not answering: try again soon")
    board: dict[str, Any] = {"days": days, "game": game_name, "players": reply.json()["players"]}
    board.update(await ladders(gw, game_name, limit))
    if game_name != "swick":  # a Swick game is a run of pots: nobody wins the game
        since = time.time() - days * 86_400
        board["games_won"] = await gw.store.games_won(game_name, since, limit)
    return board
