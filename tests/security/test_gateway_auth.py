"""Tokens and guesses against the real services (the ``cluster`` fixture, tests/conftest.py):
a token that the platform's secret did not sign, or that expired, or that is not even ASCII,
opens nothing; guessing admin tokens and invite codes is throttled per client address.

The throttled tests speak from addresses of their own (127.0.9.x: the whole of 127/8 reaches
the gateway on 127.0.0.1), so the other tests' address is never throttled."""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from typing import Any
from urllib.parse import urlencode

import httpx
import pytest
import websockets

from services.gateway.identity import LIFETIME, RENEW_AFTER, Identity, Tokens
from services.load.platform import answering, free_port
from shared.settings import DEV_SECRET
from tests.services.client import registered
from tests.services.cluster import Cluster

pytestmark = pytest.mark.usefixtures("whole_platform")


def http_from(base: str, address: str, token: str | bytes | None = None) -> httpx.AsyncClient:
    """A client speaking from ``address``, with ``token`` as its Bearer token (bytes: sent as
    they are, which is how a non-ASCII header reaches the server)."""
    raw = token if isinstance(token, bytes) else (token or "").encode()
    headers = [(b"authorization", b"Bearer " + raw)] if token is not None else []
    return httpx.AsyncClient(
        base_url=base,
        transport=httpx.AsyncHTTPTransport(local_address=address),
        headers=headers,
    )


async def closed_with(base: str, query: str, address: str = "127.0.0.1") -> tuple[int, list[Any]]:
    """Open ``/ws?<query>``: the close code, and every frame received before it."""
    url = base.replace("http", "ws", 1) + f"/ws?{query}"
    frames: list[Any] = []
    async with websockets.connect(url, local_addr=(address, 0)) as ws:  # the handshake succeeds
        with pytest.raises(websockets.ConnectionClosed) as closed:
            while True:
                frames.append(await ws.recv())
    assert closed.value.rcvd is not None, "the server closed with a code"
    return closed.value.rcvd.code, frames


async def refused(base: str, token: str) -> None:
    """``token`` is a 401 on every signed-in route and a socket closed with 4401, no view."""
    async with http_from(base, "127.0.0.1", token) as http:
        for path in ("/api/me", "/api/me/balance", "/api/me/transfers"):
            reply = await http.get(path)
            assert reply.status_code == 401, (path, reply.status_code, reply.text)
        assert (await http.post("/api/quickplay")).status_code == 401
    code, frames = await closed_with(base, urlencode({"token": token}))
    assert code == 4401
    assert frames == []


async def test_a_token_signed_with_the_development_secret_opens_nothing(cluster: Cluster) -> None:
    victim = await registered(cluster.base, "Victim")
    await victim.connect()
    try:
        forged = Tokens(DEV_SECRET).sign(Identity(victim.id, victim.name))
        await refused(cluster.base, forged)
        # The real one works: the refusal is about the signature, not the player.
        async with http_from(cluster.base, "127.0.0.1", victim.token) as http:
            assert (await http.get("/api/me")).json()["id"] == victim.id
    finally:
        await victim.close()


async def test_an_expired_token_opens_nothing(cluster: Cluster) -> None:
    player = await registered(cluster.base, "Late")
    identity = Identity(player.id, player.name)
    month_ago = time.time() - LIFETIME - 60
    expired = Tokens(cluster.settings.secret, clock=lambda: month_ago).sign(identity)
    await refused(cluster.base, expired)


async def test_an_old_token_is_renewed_by_api_me(cluster: Cluster) -> None:
    player = await registered(cluster.base, "Regular")
    async with http_from(cluster.base, "127.0.0.1", player.token) as http:
        assert (await http.get("/api/me")).json()["token"] is None  # fresh: nothing to renew
    identity = Identity(player.id, player.name)
    two_days_ago = time.time() - 2 * RENEW_AFTER
    old = Tokens(cluster.settings.secret, clock=lambda: two_days_ago).sign(identity)
    async with http_from(cluster.base, "127.0.0.1", old) as http:
        me = (await http.get("/api/me")).json()
    assert me["id"] == player.id and me["token"] not in (None, old)
    claims = Tokens(cluster.settings.secret).claims(me["token"])
    assert claims is not None and claims.identity == identity
    assert claims.issued_at > two_days_ago + RENEW_AFTER


async def test_rotating_the_secret_keeps_players_signed_in(cluster: Cluster) -> None:
    """A gateway with a new SWICK_SECRET and the old one in SWICK_SECRET_PREVIOUS accepts the
    old tokens and renews them under the new key; without the old one, they are refused."""
    player = await registered(cluster.base, "Rotated")
    new_secret = secrets.token_hex(32)
    port = free_port()
    env = {"SWICK_SECRET": new_secret, "SWICK_SECRET_PREVIOUS": f" {cluster.settings.secret} "}
    rotated = cluster.spawn("gateway", "gateway", "--port", str(port), env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        await answering(base, "/api/tables")
        async with http_from(base, "127.0.0.1", player.token) as http:
            me = (await http.get("/api/me")).json()
        assert me["id"] == player.id
        assert Tokens(new_secret).verify(me["token"]) == Identity(player.id, player.name)
        await refused(base, Tokens(secrets.token_hex(32)).sign(Identity(player.id, player.name)))
    finally:
        cluster.kill(rotated)
    await refused(cluster.base, me["token"])  # a gateway that does not know the new key


@pytest.mark.parametrize(
    "token",
    ["é", "ünïcödé.sïg", "\u2603" * 40, "a.b", "x" * 5000],
    ids=["e-acute", "unicode-dot", "snowmen", "garbage", "huge"],
)
async def test_a_malformed_token_is_a_401_not_an_error(cluster: Cluster, token: str) -> None:
    async with http_from(cluster.base, "127.0.0.1", token.encode()) as http:
        reply = await http.get("/api/me")
    assert reply.status_code == 401, reply.text
    code, frames = await closed_with(cluster.base, urlencode({"token": token}))
    assert (code, frames) == (4401, [])


async def test_admin_token_guesses_are_throttled(cluster: Cluster) -> None:
    base, real = cluster.base, cluster.settings.admin_token
    answers = []
    async with http_from(base, "127.0.9.1") as http:
        for n in range(200):
            reply = await http.get("/admin/status", headers={"authorization": f"Bearer guess-{n}"})
            answers.append(reply.status_code)
        assert set(answers) == {401, 429}
        first_throttled = answers.index(429)
        assert first_throttled <= 5, answers[:10]
        assert set(answers[first_throttled:]) == {429}, "a throttled address stays throttled"
        throttled = await http.get("/admin/status", headers={"authorization": f"Bearer {real}"})
        assert throttled.status_code == 429, "the right token too: guesses are not checked"
        assert int(throttled.headers["retry-after"]) > 0
    async with http_from(base, "127.0.9.2") as other:  # another address is not affected
        reply = await other.get("/admin/status", headers={"authorization": f"Bearer {real}"})
        assert reply.status_code == 200


async def test_invite_guesses_are_throttled(cluster: Cluster) -> None:
    host = await registered(cluster.base, "Host")
    created = await host.http("POST", "/api/tables", json={"private": True, "timer_seconds": 30})
    code = created.json()["invite_code"]
    async with http_from(cluster.base, "127.0.9.3") as http:
        assert (await http.get(f"/api/invites/{code}")).status_code == 200
        answers = [(await http.get(f"/api/invites/wrong{n}")).status_code for n in range(40)]
        assert set(answers) == {404, 429}
        assert answers.index(429) <= 10
        assert set(answers[answers.index(429) :]) == {429}
        right = await http.get(f"/api/invites/{code}")
        assert right.status_code == 429, "a throttled address is not told even a right code"


async def test_invite_guesses_over_the_socket_are_throttled(cluster: Cluster) -> None:
    host = await registered(cluster.base, "Opener")
    created = await host.http("POST", "/api/tables", json={"private": True, "timer_seconds": 30})
    code = created.json()["invite_code"]
    guesser = await registered(cluster.base, "Guesser")
    url = cluster.base.replace("http", "ws", 1) + f"/ws?token={guesser.token}"
    async with websockets.connect(url, local_addr=("127.0.9.4", 0)) as ws:
        assert json.loads(await ws.recv())["type"] == "welcome"
        codes = [await watch_invite(ws, f"wrong{n}") for n in range(40)]
        assert set(codes) == {"no_table", "rate_limited"}
        assert codes.index("rate_limited") <= 10
        assert set(codes[codes.index("rate_limited") :]) == {"rate_limited"}
        assert await watch_invite(ws, code) == "rate_limited"
    # The HTTP lookup from that address shares the count.
    async with http_from(cluster.base, "127.0.9.4") as http:
        assert (await http.get(f"/api/invites/{code}")).status_code == 429


async def test_waiting_for_a_new_table_is_no_guess(cluster: Cluster) -> None:
    """A client that names the table with the invite (as the web client does) may ask again
    and again while the table is being created: a table that does not exist is no guess."""
    host = await registered(cluster.base, "Maker")
    url = cluster.base.replace("http", "ws", 1) + f"/ws?token={host.token}"
    async with websockets.connect(url, local_addr=("127.0.9.5", 0)) as ws:
        assert json.loads(await ws.recv())["type"] == "welcome"
        waiting = [await watch_invite(ws, "soon", table="t-not-yet") for _ in range(30)]
        assert set(waiting) == {"no_table"}
        created = await host.http("POST", "/api/tables", json={"private": True})
        table, code = created.json()["id"], created.json()["invite_code"]
        deadline = time.monotonic() + 30
        while (answer := await watch_invite(ws, code, table=table)) == "no_table":
            assert time.monotonic() < deadline, "the table was never created"
            await asyncio.sleep(0.05)  # each try is no guess: none of them counts
        assert answer is None, answer
        # Once it exists, a wrong code for it is a guess.
        codes = [await watch_invite(ws, f"wrong{n}", table=table) for n in range(15)]
        assert "rate_limited" in codes and codes.index("rate_limited") <= 10, codes


async def watch_invite(
    ws: websockets.ClientConnection, invite: str, table: str | None = None
) -> str | None:
    """Ask to watch the table of ``invite``: the reject's code, or None for an ack."""
    ask = f"watch-{secrets.token_hex(4)}"
    message = {"type": "watch", "id": ask, "invite": invite, "table": table}
    await ws.send(json.dumps(message))
    while True:
        frame = json.loads(await ws.recv())
        if frame.get("id") == ask and frame["type"] in ("ack", "reject"):
            return None if frame["type"] == "ack" else str(frame["code"])
