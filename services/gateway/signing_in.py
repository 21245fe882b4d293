"""A device signing in to an account: the one step every way in ends with (a new player, a
passkey, a device link, a recovery code), so each opens a device the player can see and sign
out, and answers with the token the client keeps."""

from __future__ import annotations

from fastapi import Request

from services.gateway.accounts import Account
from services.gateway.devices import MAX_USER_AGENT, device_kind, new_device
from services.gateway.finished_seat import seat_game_over
from services.gateway.guesses import client_address
from services.gateway.identity import Identity
from services.gateway.models import PlayerOut
from services.gateway.state import Gateway

HOW = ("new", "passkey", "link", "recovery", "kept")  # "kept": a token from before devices
# Every failed way of signing in again answers this, with a 401, whatever failed: nothing tells
# whether an account, a code or a passkey exists.
SIGN_IN_FAILED = "That did not sign you in: check it and try again"


async def sign_in(gw: Gateway, request: Request, account: Account, how: str) -> PlayerOut:
    """Open a device for ``account`` (signed in ``how``) and answer with its token."""
    if how not in HOW:
        raise ValueError(f"no way to sign in called {how!r}")
    agent = request.headers.get("user-agent", "")[:MAX_USER_AGENT]
    address = client_address(request.client) or "unknown"
    device = new_device(account.id, device_kind(agent), how, address, gw.sessions.now_ms())
    await gw.sessions.devices.add(device)
    # The account's current version: a device signed in after a sign-out everywhere is good.
    version = await gw.sessions.current(account.id)
    token = gw.tokens.sign(Identity(account.id, account.name), version=version, session=device.id)
    return await player_out(gw, account, token)


async def player_out(gw: Gateway, account: Account, token: str | None) -> PlayerOut:
    """What the client keeps of its account: who, the token (when fresh), and its seat."""
    seat = await gw.store.seat_of(account.id)
    return PlayerOut(
        id=account.id,
        name=account.name,
        handle=account.handle,
        token=token,
        seated=seat[0] if seat else None,
        seated_game_over=seat is not None and await seat_game_over(gw, seat[0]),
    )
