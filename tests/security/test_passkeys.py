"""Passkeys through real gateways over PostgreSQL and SQLite, with a software authenticator: a
player adds two to their account and signs in with each on a new device, landing on the same
account; a wrong origin, a replayed or expired challenge, a cloned authenticator and a removed
passkey all get the one refusal that tells nothing; a player removes only their own passkeys;
sign-ins are throttled per address and per account, on a clock the test moves."""

from __future__ import annotations

import random
import time
from typing import Any

import httpx
import pytest

from services.gateway.passkey_ceremonies import CHALLENGE_SECONDS
from services.gateway.signing_in import SIGN_IN_FAILED
from tests.clock import Clock
from tests.security.lone_gateway import LoneGateway, gateway_fixture
from tests.security.passkey_authenticator import Authenticator

RP = "swick.example"
ORIGIN = "https://swick.example"
ATTEMPTS = 10  # sign-in attempts per address (and per account) and period
PERIOD_MINUTES = 15.0


gateway = gateway_fixture(
    grants_per_address=10**6,
    passkey_rp_id=RP,
    passkey_origins="",  # the page's own origin, on the relying party's domain
    sign_in_attempts=ATTEMPTS,
    sign_in_period_minutes=PERIOD_MINUTES,
)


@pytest.fixture
def clock(gateway: LoneGateway) -> Clock:
    """The gateway's wall clock, which the challenges' expiry and the throttle read."""
    moved = Clock()
    moved.now = time.time()
    gateway.gateway.sessions.wall_clock = moved
    return moved


def somewhere() -> str:
    """A client address of its own (all of 127/8 reaches the gateway): the throttle's counts
    live in the test session's database, which every test shares."""
    return f"127.{random.randrange(1, 255)}.{random.randrange(256)}.{random.randrange(1, 255)}"


class Device:
    """A browser on one device: its address, its authenticator, the token it keeps."""

    def __init__(self, gateway: LoneGateway, authenticator: Authenticator | None = None) -> None:
        self.gateway = gateway
        self.address = somewhere()
        self.authenticator = authenticator or Authenticator(ORIGIN)
        self.token = ""

    def http(self, origin: str = ORIGIN) -> httpx.AsyncClient:
        headers = {"Origin": origin}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        return self.gateway.http(self.address, **headers)

    async def join(self, name: str) -> dict[str, Any]:
        async with self.http() as http:
            reply = await http.post("/api/players", json={"name": name})
        assert reply.status_code == 200, reply.text
        self.token = reply.json()["token"]
        body: dict[str, Any] = reply.json()
        return body

    async def add_passkey(self, label: str | None = None) -> dict[str, Any]:
        async with self.http() as http:
            started = await http.post("/api/account/passkeys/options")
            assert started.status_code == 200, started.text
            ticket, options = started.json()["ticket"], started.json()["options"]
            body: dict[str, Any] = {
                "ticket": ticket,
                "credential": self.authenticator.create(options),
            }
            if label is not None:
                body["label"] = label
            reply = await http.post("/api/account/passkeys", json=body)
        assert reply.status_code == 200, reply.text
        added: dict[str, Any] = reply.json()
        return added

    async def account(self) -> dict[str, Any]:
        async with self.http() as http:
            reply = await http.get("/api/account")
        assert reply.status_code == 200, reply.text
        body: dict[str, Any] = reply.json()
        return body

    async def sign_in_options(self) -> tuple[str, dict[str, Any]]:
        async with self.http() as http:
            reply = await http.post("/api/sign-in/passkey/options")
        assert reply.status_code == 200, reply.text
        return reply.json()["ticket"], reply.json()["options"]

    async def answer(
        self, ticket: str, credential: dict[str, Any], origin: str = ORIGIN
    ) -> httpx.Response:
        async with self.http(origin) as http:
            return await http.post(
                "/api/sign-in/passkey", json={"ticket": ticket, "credential": credential}
            )

    async def sign_in(self, authenticator: Authenticator | None = None) -> httpx.Response:
        """Sign in with a passkey of ``authenticator`` (this device's by default)."""
        ticket, options = await self.sign_in_options()
        return await self.answer(ticket, (authenticator or self.authenticator).get(options))


async def stray(device: Device) -> Authenticator:
    """An authenticator holding a passkey for the site that the gateway never took (made
    for options whose answer was not sent)."""
    async with device.http() as http:
        started = await http.post("/api/account/passkeys/options")
    authenticator = Authenticator(ORIGIN)
    authenticator.create(started.json()["options"])
    return authenticator


def refused(reply: httpx.Response) -> bool:
    """Whether ``reply`` is the one answer every failed sign-in gets."""
    return reply.status_code == 401 and reply.json() == {"detail": SIGN_IN_FAILED}


async def test_two_passkeys_sign_in_on_new_devices_to_the_same_account(
    gateway: LoneGateway, clock: Clock
) -> None:
    home = Device(gateway)
    rita = await home.join("Rita")
    phone, laptop = Authenticator(ORIGIN, backed_up=True), Authenticator(ORIGIN)
    home.authenticator = phone
    first = await home.add_passkey("  My   phone ")
    clock.now += 1
    home.authenticator = laptop
    second = await home.add_passkey()
    assert first["label"] == "My phone" and first["backed_up"] is True
    assert second["label"] == "Passkey" and second["backed_up"] is False
    assert first["last_used_at"] is None
    listed = (await home.account())["passkeys"]
    assert [p["id"] for p in listed] == [first["id"], second["id"]]
    assert set(listed[0]) == {"id", "label", "created_at", "last_used_at", "backed_up"}

    for authenticator in (phone, laptop):
        clock.now += 1
        elsewhere = Device(gateway, authenticator)  # a new device: no token, another address
        reply = await elsewhere.sign_in()
        assert reply.status_code == 200, reply.text
        signed_in = reply.json()
        assert signed_in["id"] == rita["id"] and signed_in["handle"] == rita["handle"]
        assert signed_in["token"] and signed_in["token"] != home.token
        elsewhere.token = signed_in["token"]
        mine = await elsewhere.account()
        assert mine["id"] == rita["id"]
        current = [d for d in mine["devices"] if d["current"]]
        assert len(current) == 1 and current[0]["how"] == "passkey"
    used = {p["id"]: p["last_used_at"] for p in (await home.account())["passkeys"]}
    assert used[first["id"]] is not None and used[second["id"]] is not None
    assert used[second["id"]] > used[first["id"]]


async def test_every_failed_sign_in_gets_one_refusal(gateway: LoneGateway, clock: Clock) -> None:
    home = Device(gateway)
    await home.join("Rita")
    await home.add_passkey("Phone")
    stranger = Device(gateway, home.authenticator)
    failures = 0

    def failed(reply: httpx.Response) -> None:
        nonlocal failures
        assert refused(reply), reply.text
        failures += 1
        stranger.address = somewhere()  # keep clear of the throttle, shown below

    # A wrong origin: a phishing page's answer, or sent from a page off the domain.
    ticket, options = await stranger.sign_in_options()
    failed(await stranger.answer(ticket, home.authenticator.get(options, "https://evil.example")))
    ticket, options = await stranger.sign_in_options()
    evil = "https://swick.example.evil.example"
    failed(await stranger.answer(ticket, home.authenticator.get(options, evil), origin=evil))
    # A replayed challenge: the answer that signed in, again; a ticket whose answer was wrong.
    ticket, options = await stranger.sign_in_options()
    answer = home.authenticator.get(options)
    assert (await stranger.answer(ticket, answer)).status_code == 200
    failed(await stranger.answer(ticket, answer))
    failed(await stranger.answer(ticket, home.authenticator.get(options)))
    # An expired challenge.
    ticket, options = await stranger.sign_in_options()
    clock.now += CHALLENGE_SECONDS
    failed(await stranger.answer(ticket, home.authenticator.get(options)))
    # A cloned authenticator: its count lags behind the original's.
    [credential] = home.authenticator.credentials
    assert (await stranger.sign_in()).status_code == 200
    credential.sign_count -= 1
    failed(await stranger.sign_in())
    credential.sign_count += 5
    # A passkey no account has, and one of an account signed in with by a wrong key.
    failed(await stranger.sign_in(await stray(home)))
    ticket, options = await stranger.sign_in_options()
    forged = home.authenticator.get(options)
    _, elsewhere = await stranger.sign_in_options()  # a signature over another challenge
    forged["response"]["signature"] = home.authenticator.get(elsewhere)["response"]["signature"]
    failed(await stranger.answer(ticket, forged))
    assert failures == 8
    # None of it spoiled the passkey.
    assert (await stranger.sign_in()).status_code == 200


async def test_a_player_removes_only_their_own_passkeys(gateway: LoneGateway) -> None:
    rita, mallory = Device(gateway), Device(gateway)
    await rita.join("Rita")
    await mallory.join("Mallory")
    ritas = await rita.add_passkey("Phone")
    await mallory.add_passkey("Laptop")
    async with mallory.http() as http:
        assert (await http.delete(f"/api/account/passkeys/{ritas['id']}")).status_code == 404
        assert (await http.delete("/api/account/passkeys/AAAA")).status_code == 404
        assert (await http.delete("/api/account/passkeys/no.such")).status_code == 422
    async with gateway.http(somewhere()) as http:  # nobody signed in
        assert (await http.delete(f"/api/account/passkeys/{ritas['id']}")).status_code == 401
    assert [p["id"] for p in (await rita.account())["passkeys"]] == [ritas["id"]]
    assert (await Device(gateway, rita.authenticator).sign_in()).status_code == 200
    async with rita.http() as http:
        assert (await http.delete(f"/api/account/passkeys/{ritas['id']}")).status_code == 204
        assert (await http.delete(f"/api/account/passkeys/{ritas['id']}")).status_code == 404
    assert (await rita.account())["passkeys"] == []
    assert refused(await Device(gateway, rita.authenticator).sign_in())
    assert len((await mallory.account())["passkeys"]) == 1


async def test_a_deleted_accounts_passkeys_sign_in_no_more(gateway: LoneGateway) -> None:
    rita = Device(gateway)
    account = await rita.join("Rita")
    await rita.add_passkey("Phone")
    assert (await Device(gateway, rita.authenticator).sign_in()).status_code == 200
    assert await gateway.gateway.accounts.delete(account["id"], 1)
    assert refused(await Device(gateway, rita.authenticator).sign_in())


async def test_adding_a_passkey_needs_a_sign_in_and_a_good_answer(gateway: LoneGateway) -> None:
    rita = Device(gateway)
    async with rita.http() as http:
        assert (await http.post("/api/account/passkeys/options")).status_code == 401
    await rita.join("Rita")
    first = await rita.add_passkey("Phone")
    async with rita.http() as http:
        started = (await http.post("/api/account/passkeys/options")).json()
        assert [c["id"] for c in started["options"]["excludeCredentials"]] == [first["id"]]
        other = Authenticator("https://evil.example")
        reply = await http.post(
            "/api/account/passkeys",
            json={"ticket": started["ticket"], "credential": other.create(started["options"])},
        )
        assert reply.status_code == 400, reply.text
        # Bad bodies: a 422 each, nothing kept.
        started = (await http.post("/api/account/passkeys/options")).json()
        good = Authenticator(ORIGIN).create(started["options"])
        for body in (
            {"ticket": started["ticket"], "credential": good, "label": "x" * 41},
            {"ticket": started["ticket"], "credential": good, "label": "tab\there\u0000"},
            {"ticket": started["ticket"], "credential": {**good, "id": "A" * 1401}},
            {"ticket": started["ticket"], "credential": good, "extra": 1},
            {"ticket": 1, "credential": good},
        ):
            assert (await http.post("/api/account/passkeys", json=body)).status_code == 422
    assert [p["id"] for p in (await rita.account())["passkeys"]] == [first["id"]]


async def test_sign_ins_are_throttled_per_address_and_per_account(
    gateway: LoneGateway, clock: Clock
) -> None:
    home = Device(gateway)
    await home.join("Rita")
    await home.add_passkey("Phone")
    # One address: its attempts, right or wrong, then 429 even for a good answer.
    guesser = Device(gateway, await stray(home))
    for _ in range(ATTEMPTS - 1):
        assert refused(await guesser.sign_in())
    assert (await guesser.sign_in(home.authenticator)).status_code == 200
    throttled = await guesser.sign_in(home.authenticator)
    assert throttled.status_code == 429
    assert int(throttled.headers["Retry-After"]) == PERIOD_MINUTES * 60
    clock.now += PERIOD_MINUTES * 60 + 1
    assert (await guesser.sign_in(home.authenticator)).status_code == 200
    # One account, from addresses each new: its attempts, then 429 from anywhere.
    clock.now += PERIOD_MINUTES * 60 + 1
    for _ in range(ATTEMPTS):
        assert (await Device(gateway).sign_in(home.authenticator)).status_code == 200
    assert (await Device(gateway).sign_in(home.authenticator)).status_code == 429
    clock.now += PERIOD_MINUTES * 60 + 1
    assert (await Device(gateway).sign_in(home.authenticator)).status_code == 200
