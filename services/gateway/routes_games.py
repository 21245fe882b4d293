"""Finished games: their public records (with the revealed seed) and their replays, for whoever
may see them (a private table's are for its players and its invite's holders)."""

from __future__ import annotations

import asyncio
import gzip
import hmac
from typing import Annotated

from fastapi import FastAPI, Header, HTTPException, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import Response

from services.gateway.guesses import client_address
from services.gateway.models import TableId
from services.gateway.replays import Replays
from services.gateway.state import Gateway, gateway_of
from shared.tables_read import GameRecordRow, TableRow


def add_game_routes(app: FastAPI) -> None:
    """``/api/tables/{table_id}/games/{game_no}/record`` and ``.../replay``."""

    @app.get(
        "/api/tables/{table_id}/games/{game_no}/record",
        summary="A finished game's public record, with its revealed seed, for verification",
        description="A private table's records are for its players (Bearer token) and for "
        "holders of its invite code (`?invite=`).",
        response_class=Response,
        responses={200: {"content": {"application/json": {}}}},
    )
    async def record(
        table_id: TableId,
        game_no: Annotated[int, PathParam(ge=1, le=1_000_000)],
        invite: Annotated[str | None, Query(max_length=64)] = None,
        authorization: Annotated[str, Header()] = "",
    ) -> Response:
        gw = gateway_of(app)
        _, stored = await record_for(gw, table_id, game_no, invite, authorization)
        return Response(stored.data, media_type="application/json")

    @app.get(
        "/api/tables/{table_id}/games/{game_no}/replay",
        summary="A finished game's replay: the table after every command, every hand shown",
        description="Once a game has ended (its seed revealed): `{game, table_id, game_no, "
        "seats, frames}`, a frame per accepted command of the game, `{seq, view, hands}` (the "
        "spectators' view and each seat's hand). The same access as the game's record; "
        "gzip-compressed for clients that accept it. Served as stored when the game ended; "
        "30 a minute per client address (bursts of 20), then 429 with `Retry-After`.",
        response_class=Response,
        responses={200: {"content": {"application/json": {}}}},
    )
    async def replay(
        request: Request,
        table_id: TableId,
        game_no: Annotated[int, PathParam(ge=1, le=1_000_000)],
        invite: Annotated[str | None, Query(max_length=64)] = None,
        authorization: Annotated[str, Header()] = "",
        accept_encoding: Annotated[str, Header()] = "",
    ) -> Response:
        gw = gateway_of(app)
        address = client_address(request.client)
        if not gw.replay_rate.take(address):
            raise HTTPException(
                429,
                "Too many replays asked for from your address: wait a little",
                headers={"Retry-After": str(gw.replay_rate.retry_after(address))},
            )
        row, _ = await record_for(gw, table_id, game_no, invite, authorization)
        if gw.replays is None:
            gw.replays = Replays(gw.store)
        packed = await gw.replays.get(row, game_no)
        if packed is None:
            raise HTTPException(404, "That game has not ended yet: its seed is still secret")
        if "gzip" in accept_encoding.lower():
            headers = {"Content-Encoding": "gzip", "Vary": "Accept-Encoding"}
            return Response(packed, media_type="application/json", headers=headers)
        body = await asyncio.to_thread(gzip.decompress, packed)
        return Response(body, media_type="application/json", headers={"Vary": "Accept-Encoding"})


async def record_for(
    gw: Gateway, table_id: str, game_no: int, invite: str | None, authorization: str
) -> tuple[TableRow, GameRecordRow]:
    """A finished game's table and record if the asker may see them; else a 404."""
    row = await gw.store.table(table_id)
    if row is None:
        raise HTTPException(404, "There is no such table")
    if not row.private:
        stored = await gw.records.get(row, game_no)
        if stored is None:
            raise HTTPException(404, "That game has not ended yet: its seed is still secret")
        return row, stored
    # A private table: the same answer whether the game is missing or not the asker's.
    hidden = HTTPException(404, "No such record: a private table's are for its players")
    invited = invite is not None and hmac.compare_digest(invite, row.invite_code)
    signed_in = await gw.signed_in(authorization.removeprefix("Bearer ").strip())
    player = None if signed_in is None else signed_in.identity
    if not invited and player is None:
        raise hidden
    stored = await gw.records.get(row, game_no)
    if stored is None or not (invited or (player and player.id in stored.players)):
        raise hidden
    return row, stored
