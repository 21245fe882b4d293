"""Accounts that last: a player is an account whose id never changes, with a handle no one
else has, signed in on devices each of which can be signed out on its own (its sockets closed
at once, its next call a 401); a token from before accounts keeps its player; and no socket
outlives its token. Through real gateways over PostgreSQL and SQLite; expiry on a clock the
test moves."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from services.gateway.accounts import TAGS, Account, NameCrowded, _tag_for, handle_key
from services.gateway.devices import MemoryDevices, device_kind, new_device
from services.gateway.hub import Connection
from services.gateway.identity import LIFETIME, Identity, Tokens
from services.gateway.sessions import SIGNED_OUT, MemoryVersions, Sessions
from shared.settings import Settings
from tests.security.lone_gateway import LoneGateway, gateway_fixture, two_gateways
from tests.security.test_sessions_end import close_code, me, welcomed
from tests.security.test_tokens import SECRET, Clock, signed

PHONE = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko)"
    " Chrome/131.0.0.0 Mobile Safari/537.36"
)
DESKTOP = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0"


gateway = gateway_fixture(grants_per_address=10**6)


async def join(gateway: LoneGateway, name: str, agent: str = DESKTOP) -> dict[str, str]:
    async with gateway.http(**{"User-Agent": agent}) as http:
        reply = await http.post("/api/players", json={"name": name})
    assert reply.status_code == 200, reply.text
    body: dict[str, str] = reply.json()
    return body


async def account(gateway: LoneGateway, token: str) -> dict[str, Any]:
    async with gateway.http(Authorization=f"Bearer {token}") as http:
        reply = await http.get("/api/account")
    assert reply.status_code == 200, reply.text
    body: dict[str, Any] = reply.json()
    return body


async def second_device(gateway: LoneGateway, player: dict[str, str]) -> tuple[str, str]:
    """Another device signed in to ``player``'s account (as a passkey or a link code does):
    its id and token."""
    gw = gateway.gateway
    device = new_device(player["id"], device_kind(PHONE), "link", "127.0.0.2", 1)
    await gw.sessions.devices.add(device)
    version = await gw.sessions.current(player["id"])
    identity = Identity(player["id"], player["name"])
    token = gw.tokens.sign(identity, version=version, session=device.id)
    return device.id, token


# Handles.


async def test_two_players_of_one_name_get_handles_that_tell_them_apart(
    gateway: LoneGateway,
) -> None:
    first = await join(gateway, "Rita")
    second = await join(gateway, "rita")
    third = await join(gateway, "Mina Harker")
    assert first["name"] == "Rita" and second["name"] == "rita"
    assert first["handle"].startswith("Rita#") and second["handle"].startswith("rita#")
    assert first["handle"][-4:] != second["handle"][-4:]  # the tag differs, the name folds alike
    async with gateway.http() as http:
        reply = await http.get("/api/handles", params={"ids": f"{first['id']},{second['id']}"})
        assert reply.status_code == 200
        handles = reply.json()
        assert handles[first["id"]] == {"handle": first["handle"], "key": "rita"}
        assert handles[second["id"]]["key"] == "rita"
        assert (await http.get("/api/handles", params={"ids": "a/../b"})).status_code == 422
        many = ",".join(f"p-{n}" for n in range(51))
        assert (await http.get("/api/handles", params={"ids": many})).status_code == 422
    assert third["handle"].startswith("Mina Harker#")


def test_a_handle_key_folds_case_and_look_alikes() -> None:
    cyrillic_i = "R\u0406TA"  # a Cyrillic capital І where the Latin I would be
    assert handle_key("RITA") == handle_key("rita") == handle_key(cyrillic_i) == "rita"
    assert handle_key("Esmé") == "esme" and handle_key("Ian") != handle_key("Ana")


@given(st.sets(st.sampled_from(TAGS), max_size=40), st.sampled_from(TAGS))
def test_a_tag_is_one_that_is_free(taken: set[int], keep: int) -> None:
    assert _tag_for(taken) not in taken
    kept = _tag_for(taken, keep=keep)
    assert kept not in taken and (kept == keep or keep in taken)


def test_a_name_with_every_tag_taken_is_refused() -> None:
    with pytest.raises(NameCrowded):
        _tag_for(TAGS)
    assert _tag_for(set(TAGS) - {77}) == 77


def test_a_handle_is_the_name_and_four_digits() -> None:
    assert Account("p-1", "Rita", 7, 0).handle == "Rita#0007"


# Renaming.


async def test_renaming_keeps_the_tag_when_it_is_free(gateway: LoneGateway) -> None:
    rita = await join(gateway, "Rita")
    auth = {"Authorization": f"Bearer {rita['token']}"}
    async with gateway.http(**auth) as http:
        reply = await http.patch("/api/account", json={"name": "Margarita"})
        assert reply.status_code == 200, reply.text
        renamed = reply.json()
        assert renamed["id"] == rita["id"] and renamed["name"] == "Margarita"
        assert renamed["handle"] == "Margarita#" + rita["handle"][-4:]
        refused = await http.patch("/api/account", json={"name": "Ada"})  # a bot's
        assert refused.status_code == 422
        assert (await http.patch("/api/account", json={"name": 5})).status_code == 422
    body = await account(gateway, renamed["token"])
    assert body["name"] == "Margarita"  # the refusals changed nothing
    claims = gateway.gateway.tokens.claims(renamed["token"])
    assert claims is not None and claims.identity.name == "Margarita"


async def test_a_rename_onto_a_taken_handle_draws_another_tag(gateway: LoneGateway) -> None:
    gw = gateway.gateway
    ritas = [await join(gateway, "Rita") for _ in range(3)]
    sam = await join(gateway, "Sam")
    # Sam takes the tag of the first Rita, then becomes a Rita too: a tag no Rita has is drawn.
    sam_tag = int(sam["handle"][-4:])
    renamed = await gw.accounts.rename(sam["id"], "RITA")
    assert renamed is not None and renamed.key == "rita"
    tags = [int(r["handle"][-4:]) for r in ritas]
    assert renamed.tag not in tags
    assert renamed.tag == sam_tag or sam_tag in tags  # kept whenever it was free
    assert len(set(tags)) == 3


# Devices.


async def test_a_new_player_is_signed_in_on_one_device(gateway: LoneGateway) -> None:
    rita = await join(gateway, "Rita", PHONE)
    body = await account(gateway, rita["token"])
    assert body["id"] == rita["id"] and body["handle"] == rita["handle"]
    [device] = body["devices"]
    assert device["kind"] == "Chrome on Android" and device["how"] == "new"
    assert device["current"] and device["where"] == "127.0.0.1"


async def test_signing_a_device_out_closes_its_socket_and_keeps_the_others(
    gateway: LoneGateway,
) -> None:
    rita = await join(gateway, "Rita")
    phone, phone_token = await second_device(gateway, rita)
    phone_socket = await welcomed(gateway, phone_token)
    async with gateway.http(Authorization=f"Bearer {rita['token']}") as http:
        listed = (await http.get("/api/account")).json()["devices"]
        assert {d["id"] for d in listed} >= {phone}
        assert (await http.delete(f"/api/account/devices/{phone}")).status_code == 204
        assert (await http.delete(f"/api/account/devices/{phone}")).status_code == 404
        assert (await http.delete("/api/account/devices/d-zz")).status_code == 422
    assert await close_code(phone_socket) == SIGNED_OUT  # at once, not at its next message
    assert await me(gateway, phone_token) == 401
    assert await me(gateway, rita["token"]) == 200  # the device that asked is still in
    body = await account(gateway, rita["token"])
    gone = next(d for d in body["devices"] if d["id"] == phone)
    assert gone["signed_out_at"] is not None


async def test_no_one_signs_out_another_players_device(gateway: LoneGateway) -> None:
    rita, sam = await join(gateway, "Rita"), await join(gateway, "Sam")
    sams = (await account(gateway, sam["token"]))["devices"]
    [sams_device] = sams
    async with gateway.http(Authorization=f"Bearer {rita['token']}") as http:
        assert (await http.delete(f"/api/account/devices/{sams_device['id']}")).status_code == 404
    assert await me(gateway, sam["token"]) == 200


async def test_signing_out_this_device_ends_its_token(gateway: LoneGateway) -> None:
    rita = await join(gateway, "Rita")
    open_socket = await welcomed(gateway, rita["token"])
    async with gateway.http(Authorization=f"Bearer {rita['token']}") as http:
        assert (await http.post("/api/account/sign-out")).status_code == 204
        assert (await http.post("/api/account/sign-out")).status_code == 401
    assert await close_code(open_socket) == SIGNED_OUT
    assert await me(gateway, rita["token"]) == 401


async def test_signing_out_everywhere_signs_the_other_devices_out(gateway: LoneGateway) -> None:
    rita = await join(gateway, "Rita")
    phone, phone_token = await second_device(gateway, rita)
    async with gateway.http(Authorization=f"Bearer {rita['token']}") as http:
        fresh = (await http.post("/api/me/revoke")).json()["token"]
    assert await me(gateway, phone_token) == 401
    body = await account(gateway, fresh)
    states = {d["id"]: d["signed_out_at"] for d in body["devices"]}
    assert states[phone] is not None
    assert next(d for d in body["devices"] if d["current"])["signed_out_at"] is None
    # A device that signs in after the sign-out everywhere is good (it takes the new version).
    _, later = await second_device(gateway, rita)
    assert await me(gateway, later) == 200


async def test_a_device_signed_out_on_one_gateway_is_out_on_another(
    settings: Settings, tmp_path: Path
) -> None:
    async with two_gateways(settings, tmp_path) as (here, there):
        rita = await join(here, "Rita")
        phone, phone_token = await second_device(here, rita)
        elsewhere = await welcomed(there, phone_token)
        async with here.http(Authorization=f"Bearer {rita['token']}") as http:
            assert (await http.delete(f"/api/account/devices/{phone}")).status_code == 204
        # The other gateway's check (``Sessions.run``, every second), done now.
        assert await there.gateway.sessions.sweep() == 1
        assert await close_code(elsewhere) == SIGNED_OUT
        assert await me(there, phone_token) == 401


# A token from before accounts.


async def test_a_token_from_before_accounts_keeps_its_player(gateway: LoneGateway) -> None:
    gw = gateway.gateway
    now = int(gw.tokens._clock())
    old = signed(
        gw.settings.secret,
        {
            "id": "p-0123456789abcdef",
            "name": "Ada Lovelace",
            "kid": gw.tokens.kid,
            "iat": now,
            "exp": now + LIFETIME,
        },
    )
    async with gateway.http(Authorization=f"Bearer {old}") as http:
        reply = await http.get("/api/me")
    assert reply.status_code == 200, reply.text
    body = reply.json()
    assert body["id"] == "p-0123456789abcdef" and body["handle"].startswith("Ada Lovelace#")
    claims = gw.tokens.claims(body["token"])
    assert claims is not None and claims.session.startswith("d-")
    [device] = (await account(gateway, body["token"]))["devices"]
    assert device["how"] == "kept"


# No socket outlives its token.


async def test_a_socket_closes_when_its_token_expires() -> None:
    clock = Clock()
    tokens = Tokens(SECRET, lifetime=3600, clock=clock)
    sessions = Sessions(MemoryVersions(), MemoryDevices(), wall_clock=clock)
    device = new_device("p-1", "Firefox on Linux", "new", "127.0.0.1", 0)
    await sessions.devices.add(device)
    claims = tokens.claims(tokens.sign(Identity("p-1", "Rita"), session=device.id))
    assert claims is not None
    conn = Connection(claims.identity)
    sessions.opened(conn, claims)
    clock.now += 3599
    assert await sessions.sweep() == 0 and not conn.closed
    clock.now += 1
    assert await sessions.sweep() == 1
    assert conn.closed and conn.close_code == SIGNED_OUT
    assert "expired" in conn.close_reason
    assert await sessions.sweep() == 0  # closed once


async def test_the_sweep_runs_every_check_period() -> None:
    sessions = Sessions(MemoryVersions(), MemoryDevices())
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)
        if len(slept) == 3:
            raise asyncio.CancelledError

    with pytest.raises(asyncio.CancelledError):
        await sessions.run(sleep)
    assert slept == [1.0, 1.0, 1.0]  # a revoked device's sockets close within a second


def test_a_device_kind_reads_the_user_agent() -> None:
    assert device_kind(PHONE) == "Chrome on Android"
    assert device_kind(DESKTOP) == "Firefox on Linux"
    iphone = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) Version/18.1 Safari/604.1"
    assert device_kind(iphone) == "Safari on iPhone"
    edge = "Mozilla/5.0 (Windows NT 10.0) Chrome/131.0 Safari/537.36 Edg/131.0"
    assert device_kind(edge) == "Edge on Windows"
    assert device_kind("") == "Unknown device"
    assert len(device_kind("x" * 100_000)) < 40
