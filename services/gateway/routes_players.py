"""The players' routes: signing up, who a token is, and signing out everywhere."""

from __future__ import annotations

import secrets
from typing import Annotated

from fastapi import FastAPI, Header, HTTPException, Request

from services.gateway import signups
from services.gateway.accounts import NameCrowded
from services.gateway.identity import Identity, check_name
from services.gateway.models import NewPlayer, PlayerOut
from services.gateway.signed_in import SIGN_IN_FIRST, SignedInClaims, bearer
from services.gateway.signing_in import player_out, sign_in
from services.gateway.state import gateway_of


def add_player_routes(app: FastAPI) -> None:
    """``/api/players``, ``/api/me`` and ``/api/me/revoke``."""

    @app.post("/api/players", response_model=PlayerOut, summary="Pick a name, get a token")
    async def new_player(body: NewPlayer, request: Request) -> PlayerOut:
        """A new player, a guest until they add a passkey or recovery codes (a starting grant
        when they first sit): a few per address and period, 429 beyond."""
        try:
            name = check_name(body.name)
        except ValueError as error:
            raise HTTPException(422, str(error)) from None
        await signups.admit(request)
        gw = gateway_of(app)
        try:
            account = await gw.accounts.create(
                f"p-{secrets.token_hex(8)}", name, gw.sessions.now_ms()
            )
        except NameCrowded as error:
            raise HTTPException(422, str(error)) from None
        return await sign_in(gw, request, account, "new")

    @app.get(
        "/api/me",
        response_model=PlayerOut,
        summary="Who the token is, and their seat; a fresh token when this one is getting old",
    )
    async def me(
        claims: SignedInClaims, request: Request, authorization: Annotated[str, Header()] = ""
    ) -> PlayerOut:
        gw = gateway_of(app)
        account = await gw.accounts.get(claims.identity.id)
        if not claims.session:
            # A token from before accounts and devices: its player becomes an account (of the
            # same id, so chips and seat stay theirs) on a device of its own.
            account = account or await gw.accounts.create(
                claims.identity.id, claims.identity.name, gw.sessions.now_ms()
            )
            return await sign_in(gw, request, account, "kept")
        if account is None:  # deleted since
            raise HTTPException(401, SIGN_IN_FIRST)
        if account.name != claims.identity.name:  # renamed on another device
            renewed: str | None = gw.tokens.resign(claims, Identity(account.id, account.name))
        else:
            renewed = gw.tokens.renewal(bearer(authorization))
        return await player_out(gw, account, renewed)

    @app.post(
        "/api/me/revoke",
        response_model=PlayerOut,
        summary="Sign out everywhere: every token of yours dies but the fresh one answered",
    )
    async def revoke(claims: SignedInClaims) -> PlayerOut:
        """Every token of the player signed so far opens nothing more, every other device is
        signed out and every socket opened with one is closed (4401); the answer's token, of
        the same sign-in and device, is the one that still works (keep it: without it the
        player cannot sign in as themselves again on this device)."""
        gw = gateway_of(app)
        version = await gw.sessions.revoke(claims.identity.id, keep=claims.session)
        fresh = gw.tokens.sign(
            claims.identity,
            authenticated_at=claims.authenticated_at,
            version=version,
            session=claims.session,
        )
        seat = await gw.store.seat_of(claims.identity.id)
        account = await gw.accounts.get(claims.identity.id)
        return PlayerOut(
            id=claims.identity.id,
            name=claims.identity.name,
            handle=account.handle if account else None,
            token=fresh,
            seated=seat[0] if seat else None,
        )
