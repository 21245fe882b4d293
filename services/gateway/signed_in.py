"""Who signed in: the lobby's routes that need a player take ``SignedIn`` (a Bearer token)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header, HTTPException, Request

from services.gateway.identity import Identity
from services.gateway.state import Gateway


async def current_player(
    request: Request, authorization: Annotated[str, Header()] = ""
) -> Identity:
    gw: Gateway = request.app.state.gateway
    claims = await gw.signed_in(authorization.removeprefix("Bearer ").strip())
    if claims is None:
        raise HTTPException(401, "Sign in first: a valid Bearer token is needed")
    return claims.identity


SignedIn = Annotated[Identity, Depends(current_player)]
