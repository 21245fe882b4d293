"""The players' routes: signing up, who a token is, and signing out everywhere."""

from __future__ import annotations

from typing import Annotated

from fastapi import FastAPI, Header, HTTPException, Request

from services.gateway import signups
from services.gateway.finished_seat import seat_game_over
from services.gateway.identity import check_name
from services.gateway.models import NewPlayer, PlayerOut
from services.gateway.signed_in import SignedIn
from services.gateway.state import gateway_of


def add_player_routes(app: FastAPI) -> None:
    """``/api/players``, ``/api/me`` and ``/api/me/revoke``."""

    @app.post("/api/players", response_model=PlayerOut, summary="Pick a name, get a token")
    async def new_player(body: NewPlayer, request: Request) -> PlayerOut:
        """A new player (a starting grant when they first sit): a few per address and period,
        429 beyond."""
        try:
            check_name(body.name)
        except ValueError as error:
            raise HTTPException(422, str(error)) from None
        await signups.admit(request)
        try:
            identity, token = gateway_of(app).tokens.issue(body.name)
        except ValueError as error:
            raise HTTPException(422, str(error)) from None
        return PlayerOut(id=identity.id, name=identity.name, token=token)

    @app.get(
        "/api/me",
        response_model=PlayerOut,
        summary="Who the token is, and their seat; a fresh token when this one is getting old",
    )
    async def me(player: SignedIn, authorization: Annotated[str, Header()] = "") -> PlayerOut:
        gw = gateway_of(app)
        seat = await gw.store.seat_of(player.id)
        fresh = gw.tokens.renewal(authorization.removeprefix("Bearer ").strip())
        return PlayerOut(
            id=player.id,
            name=player.name,
            token=fresh,
            seated=seat[0] if seat else None,
            seated_game_over=seat is not None and await seat_game_over(gw, seat[0]),
        )

    @app.post(
        "/api/me/revoke",
        response_model=PlayerOut,
        summary="Sign out everywhere: every token of yours dies but the fresh one answered",
    )
    async def revoke(authorization: Annotated[str, Header()] = "") -> PlayerOut:
        """Every token of the player signed so far opens nothing more, and every socket opened
        with one is closed (4401); the answer's token, of the same sign-in, is the one that
        still works (keep it: without it the player cannot sign in as themselves again)."""
        gw = gateway_of(app)
        claims = await gw.signed_in(authorization.removeprefix("Bearer ").strip())
        if claims is None:
            raise HTTPException(401, "Sign in first: a valid Bearer token is needed")
        version = await gw.sessions.revoke(claims.identity.id)
        fresh = gw.tokens.sign(
            claims.identity, authenticated_at=claims.authenticated_at, version=version
        )
        seat = await gw.store.seat_of(claims.identity.id)
        return PlayerOut(
            id=claims.identity.id,
            name=claims.identity.name,
            token=fresh,
            seated=seat[0] if seat else None,
        )
