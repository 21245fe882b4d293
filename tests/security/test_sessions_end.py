"""Sessions that end: renewal keeps a sign-in alive only up to its absolute lifetime, and a
player (or the operator) can sign them out everywhere, so a stolen token dies, open sockets
included. Lifetimes run on a clock the test moves; revocations against real gateways over
PostgreSQL and SQLite."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import websockets

from services.gateway.identity import LIFETIME, Tokens
from services.gateway.sessions import Sessions, versions_for
from shared.settings import Settings
from tests.security.lone_gateway import STORES, LoneGateway, gateway_fixture, two_gateways
from tests.security.store_database import store_database
from tests.security.test_tokens import SECRET, Clock, signed

DAY = 86_400
ADMIN_TOKEN = "c0ffee00d15ea5e5b01dfacefeedbead"


# The absolute lifetime, on the token alone.


def test_renewal_keeps_the_first_sign_in_and_stops_after_the_session() -> None:
    clock = Clock()
    tokens = Tokens(SECRET, session_lifetime=90 * DAY, clock=clock)
    identity, token = tokens.issue("Quentin")
    signed_in = int(clock.now)
    for _ in range(88):  # a player who shows up every day
        clock.now += DAY
        fresh = tokens.renewal(token)
        assert fresh is not None
        token = fresh
    claims = tokens.claims(token)
    assert claims is not None and claims.identity == identity
    assert claims.authenticated_at == signed_in
    # No token outlives the session, however fresh.
    assert claims.expires_at == signed_in + 90 * DAY < claims.issued_at + LIFETIME
    clock.now = signed_in + 90 * DAY - 1
    assert tokens.verify(token) == identity
    clock.now += 1
    assert tokens.verify(token) is None
    assert tokens.renewal(token) is None


def test_a_shorter_session_setting_ends_older_sign_ins_at_once() -> None:
    clock = Clock()
    _, token = Tokens(SECRET, session_lifetime=90 * DAY, clock=clock).issue("Quentin")
    clock.now += 8 * DAY
    assert Tokens(SECRET, session_lifetime=90 * DAY, clock=clock).verify(token) is not None
    assert Tokens(SECRET, session_lifetime=7 * DAY, clock=clock).verify(token) is None


def test_a_token_from_before_sessions_ended_counts_from_its_issue() -> None:
    """A token without ``auth`` and ``ver`` (signed before they existed): signed in when it
    was issued, at version 0, so its renewals end 90 days after it and any sign-out kills it."""
    clock = Clock()
    tokens = Tokens(SECRET, clock=clock)
    issued = int(clock.now) - 2 * DAY
    old = signed(
        SECRET,
        {"id": "p-1", "name": "Ada", "kid": tokens.kid, "iat": issued, "exp": issued + LIFETIME},
    )
    claims = tokens.claims(old)
    assert claims is not None and claims.authenticated_at == issued and claims.version == 0
    fresh = tokens.renewal(old)
    assert fresh is not None
    renewed = tokens.claims(fresh)
    assert renewed is not None and renewed.authenticated_at == issued and renewed.version == 0


@pytest.mark.parametrize("bad", [{"auth": "yesterday"}, {"ver": 1.5}, {"ver": True}])
def test_malformed_session_claims_are_no_token(bad: dict[str, Any]) -> None:
    clock = Clock()
    tokens = Tokens(SECRET, clock=clock)
    now = int(clock.now)
    payload = {"id": "p-1", "name": "Ada", "kid": tokens.kid, "iat": now, "exp": now + 60}
    assert tokens.verify(signed(SECRET, payload | bad)) is None


def test_a_session_lifetime_is_positive() -> None:
    with pytest.raises(ValueError, match="SWICK_SESSION_DAYS"):
        Tokens(SECRET, session_lifetime=0)


# Versions, as two gateways over one database see them.


@pytest.fixture(params=STORES)
async def two_views(
    request: pytest.FixtureRequest, settings: Settings, tmp_path: Path
) -> AsyncIterator[tuple[Sessions, Sessions, Clock]]:
    clock = Clock()
    async with store_database(request.param, settings, tmp_path) as store:
        first, second = versions_for(store), versions_for(store)
        await first.migrate()
        yield Sessions(first, clock=clock), Sessions(second, clock=clock), clock


async def test_another_gateway_learns_of_a_sign_out_within_its_check_period(
    two_views: tuple[Sessions, Sessions, Clock],
) -> None:
    here, there, clock = two_views
    player = f"p-{id(two_views):x}"
    assert await there.current(player) == 0
    assert await here.revoke(player) == 1
    assert await here.current(player) == 1  # the gateway that signed them out knows at once
    assert await there.current(player) == 0  # the other one, within its check period
    clock.now += there.check_every
    assert await there.current(player) == 1
    assert await there.revoke(player) == 2


# Signing out everywhere, through real gateways.


gateway = gateway_fixture(admin_token=ADMIN_TOKEN, grants_per_address=10**6)


async def new_player(gateway: LoneGateway) -> tuple[str, str]:
    async with gateway.http() as http:
        reply = await http.post("/api/players", json={"name": "Quentin"})
    assert reply.status_code == 200, reply.text
    body = reply.json()
    return body["id"], body["token"]


async def me(gateway: LoneGateway, token: str) -> int:
    async with gateway.http(Authorization=f"Bearer {token}") as http:
        return (await http.get("/api/me")).status_code


def socket_url(gateway: LoneGateway, token: str) -> str:
    return gateway.base.replace("http", "ws", 1) + f"/ws?token={token}"


async def welcomed(gateway: LoneGateway, token: str) -> websockets.ClientConnection:
    ws = await websockets.connect(socket_url(gateway, token))
    assert json.loads(await ws.recv())["type"] == "welcome"
    return ws


async def close_code(ws: websockets.ClientConnection) -> int:
    """The code the server closes ``ws`` with (frames before it are skipped)."""
    with pytest.raises(websockets.ConnectionClosed) as closed:
        async with asyncio.timeout(30):  # only so a bug cannot hang the run
            while True:
                await ws.recv()
    assert closed.value.rcvd is not None
    return closed.value.rcvd.code


async def test_signing_out_everywhere_kills_every_older_token(gateway: LoneGateway) -> None:
    player, stolen = await new_player(gateway)
    open_socket = await welcomed(gateway, stolen)
    async with gateway.http(Authorization=f"Bearer {stolen}") as http:
        reply = await http.post("/api/me/revoke")
    assert reply.status_code == 200, reply.text
    fresh = reply.json()["token"]
    assert reply.json()["id"] == player
    assert await close_code(open_socket) == 4401  # closed at once, not at its next message
    assert await me(gateway, stolen) == 401
    assert await close_code(await websockets.connect(socket_url(gateway, stolen))) == 4401
    # The answer's token is the one that works, for the same player and sign-in.
    assert await me(gateway, fresh) == 200
    claims = gateway.gateway.tokens.claims(fresh)
    stolen_claims = gateway.gateway.tokens.claims(stolen)
    assert claims is not None and stolen_claims is not None
    assert claims.identity.id == player and claims.version == 1
    assert claims.authenticated_at == stolen_claims.authenticated_at
    await (await welcomed(gateway, fresh)).close()
    # Without a token nothing is revoked.
    async with gateway.http() as http:
        assert (await http.post("/api/me/revoke")).status_code == 401


async def test_the_operator_signs_a_player_out(gateway: LoneGateway) -> None:
    player, token = await new_player(gateway)
    async with gateway.http(Authorization="Bearer not-the-admin-token") as http:
        assert (await http.post(f"/admin/players/{player}/revoke")).status_code == 401
    assert await me(gateway, token) == 200  # a wrong admin token changed nothing
    open_socket = await welcomed(gateway, token)
    async with gateway.http(Authorization=f"Bearer {ADMIN_TOKEN}") as http:
        reply = await http.post(f"/admin/players/{player}/revoke")
        assert reply.json() == {"player_id": player, "version": 1}
        assert (await http.post("/admin/players/no%20such%20id/revoke")).status_code == 422
    assert await close_code(open_socket) == 4401
    assert await me(gateway, token) == 401


async def test_a_sign_out_on_one_gateway_closes_the_sockets_on_another(
    settings: Settings, tmp_path: Path
) -> None:
    async with two_gateways(settings, tmp_path) as (here, there):
        _, token = await new_player(here)
        elsewhere = await welcomed(there, token)
        async with here.http(Authorization=f"Bearer {token}") as http:
            assert (await http.post("/api/me/revoke")).status_code == 200
        # The other gateway's periodic check (``Sessions.run``), done now rather than waited for.
        assert await there.gateway.sessions.sweep() == 1
        assert await close_code(elsewhere) == 4401
        assert await me(there, token) == 401
