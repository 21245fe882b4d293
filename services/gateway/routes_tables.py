"""The lobby's tables: the open public ones, one by its id or its invite code, and opening one
(quick play too)."""

from __future__ import annotations

from fastapi import FastAPI, HTTPException, Request

from services.gateway.guesses import client_address
from services.gateway.models import InviteCode, NewTable, QuickPlay, TableId, TableOut, table_out
from services.gateway.opening import open_table, quick_table
from services.gateway.signed_in import SignedIn
from services.gateway.state import gateway_of
from shared.tables_read import TableRow


def for_others(row: TableRow) -> bool:
    """Whether a table is of interest to others: it has a free seat, or more than one person."""
    people = sum(1 for seat in row.seats if seat is not None and not seat.get("bot"))
    return people > 1 or any(seat is None for seat in row.seats)


def add_table_routes(app: FastAPI) -> None:
    """``/api/tables``, ``/api/tables/{table_id}``, ``/api/invites/{code}`` and
    ``/api/quickplay``."""

    @app.get("/api/tables", response_model=list[TableOut], summary="Public tables in play")
    async def tables() -> list[TableOut]:
        """Public tables whose game is not over, but for one person's game against bots
        (every seat taken): nobody else has a place there."""
        return [table_out(row) for row in await gateway_of(app).store.lobby() if for_others(row)]

    @app.get("/api/tables/{table_id}", response_model=TableOut, summary="A public table")
    async def table(table_id: TableId) -> TableOut:
        row = await gateway_of(app).store.table(table_id)
        if row is None or row.private:
            raise HTTPException(404, "There is no such public table")
        return table_out(row)

    @app.get("/api/invites/{code}", response_model=TableOut, summary="A table by invite code")
    async def invite(code: InviteCode, request: Request) -> TableOut:
        throttle, address = gateway_of(app).guesses.invites, client_address(request.client)
        if not throttle.admit(address):
            raise HTTPException(
                429,
                "Too many wrong invite codes: wait a minute",
                headers={"Retry-After": str(throttle.retry_after(address))},
            )
        row = await gateway_of(app).store.by_invite(code)
        if row is None:
            throttle.failed(address)
            raise HTTPException(404, "No table has this invite code")
        return table_out(row, with_invite=True)

    @app.post("/api/tables", response_model=TableOut, summary="Open a table and sit at it")
    async def create_table(body: NewTable, player: SignedIn) -> TableOut:
        return await open_table(gateway_of(app), player, body)

    @app.post(
        "/api/quickplay",
        response_model=TableOut,
        summary="You and medium bots, dealt at once: 2 at Swick (the default), 3 at Euchre "
        "and at Contract Whist (17 rounds, points only)",
    )
    async def quickplay(player: SignedIn, body: QuickPlay | None = None) -> TableOut:
        return await open_table(gateway_of(app), player, quick_table(body or QuickPlay()))
