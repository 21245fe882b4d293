"""Who signed in: the lobby's routes that need a player take ``SignedIn`` (a Bearer token), or
``SignedInClaims`` for all its token says (its device, its sign-in)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header, HTTPException, Request

from services.gateway.accounts import Account
from services.gateway.identity import Claims, Identity
from services.gateway.state import Gateway

SIGN_IN_FIRST = "Sign in first: a valid Bearer token is needed"


def bearer(authorization: str) -> str:
    return authorization.removeprefix("Bearer ").strip()


async def current_claims(request: Request, authorization: Annotated[str, Header()] = "") -> Claims:
    gw: Gateway = request.app.state.gateway
    claims = await gw.signed_in(bearer(authorization))
    if claims is None:
        raise HTTPException(401, SIGN_IN_FIRST)
    return claims


async def signed_in_account(gw: Gateway, account_id: str) -> Account:
    """The account of a good token: 401, as for no token, when it was deleted while its token
    was still cached as good."""
    account = await gw.accounts.get(account_id)
    if account is None:
        raise HTTPException(401, SIGN_IN_FIRST)
    return account


async def current_player(claims: Annotated[Claims, Depends(current_claims)]) -> Identity:
    return claims.identity


SignedIn = Annotated[Identity, Depends(current_player)]
SignedInClaims = Annotated[Claims, Depends(current_claims)]
