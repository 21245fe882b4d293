"""Signing in again with a one-time code, through real gateways over PostgreSQL and SQLite: a
device link joins a second device to the same account, recovery codes each work once, and
every refused code (wrong, malformed, expired, used) gets the same 401, so nothing tells
whether a code or an account exists; tries are throttled per address. Expiry and the
throttle run on a clock the test moves."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from services.gateway.signing_in import SIGN_IN_FAILED
from shared.settings import Settings
from tests.clock import Clock
from tests.security.lone_gateway import STORES, LoneGateway, lone_gateway
from tests.security.store_database import stored_rows

PHONE = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/131.0 Mobile"
DESKTOP = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0"
REFUSED = {"detail": SIGN_IN_FAILED}
MINUTE = 60.0


@dataclass
class Rig:
    gateway: LoneGateway
    clock: Clock

    def http(self, token: str = "", agent: str = DESKTOP) -> httpx.AsyncClient:
        """A client from an address of its own in 127/8 (the throttle counts per address)."""
        address = f"127.{secrets.randbelow(250) + 1}.{secrets.randbelow(250) + 1}.1"
        return self.from_address(address, token, agent)

    def from_address(
        self, address: str, token: str = "", agent: str = DESKTOP
    ) -> httpx.AsyncClient:
        headers = {"User-Agent": agent} | ({"Authorization": f"Bearer {token}"} if token else {})
        return self.gateway.http(address, **headers)

    async def answer(
        self, method: str, path: str, token: str = "", agent: str = DESKTOP, **sent: Any
    ) -> Any:
        """The JSON body of a request that must succeed."""
        async with self.http(token, agent) as http:
            reply = await http.request(method, path, **sent)
        assert reply.status_code == 200, reply.text
        return reply.json()

    async def new_player(self, name: str = "Rita", agent: str = PHONE) -> dict[str, Any]:
        player: dict[str, Any] = await self.answer(
            "POST", "/api/players", agent=agent, json={"name": name}
        )
        return player

    async def link_code(self, token: str) -> dict[str, Any]:
        link: dict[str, Any] = await self.answer("POST", "/api/account/link", token)
        return link

    async def recovery_codes(self, token: str) -> list[str]:
        made = await self.answer("POST", "/api/account/recovery-codes", token)
        codes: list[str] = made["codes"]
        return codes

    async def account(self, token: str) -> dict[str, Any]:
        account: dict[str, Any] = await self.answer("GET", "/api/account", token)
        return account

    async def stored(self, table: str) -> list[dict[str, Any]]:
        """Every row of one of the gateway's tables, as the database holds it."""
        return await stored_rows(self.gateway.gateway.store, table)


@contextlib.asynccontextmanager
async def rig_of(settings: Settings, kind: str, folder: Path, **changes: Any) -> AsyncIterator[Rig]:
    async with lone_gateway(settings, kind, folder, grants_per_address=10**6, **changes) as running:
        clock = Clock()
        clock.now = time.time()
        running.gateway.sessions.wall_clock = clock
        yield Rig(running, clock)


@pytest.fixture(params=STORES)
async def rig(
    request: pytest.FixtureRequest, settings: Settings, tmp_path: Path
) -> AsyncIterator[Rig]:
    async with rig_of(settings, request.param, tmp_path, sign_in_attempts=1000) as made:
        yield made


async def sign_in(rig: Rig, route: str, code: Any, agent: str = DESKTOP) -> httpx.Response:
    async with rig.http(agent=agent) as http:
        return await http.post(f"/api/sign-in/{route}", json={"code": code})


# Device links.


async def test_a_link_code_joins_a_second_device_to_the_same_account(rig: Rig) -> None:
    phone = await rig.new_player("Rita", PHONE)
    link = await rig.link_code(phone["token"])
    assert set(link) == {"code", "url", "qr_svg", "expires_at"}
    code = link["code"]
    assert len(code) == 9 and code[4] == "-" and code == code.upper()
    assert link["url"] == f"{rig.gateway.base}/#/link/{code}"
    assert link["qr_svg"].startswith("<svg") and "<path" in link["qr_svg"]
    assert link["expires_at"] == int((rig.clock.now + 10 * MINUTE) * 1000)

    typed = code.lower().replace("-", "")  # as someone may type it
    reply = await sign_in(rig, "link", typed, DESKTOP)
    assert reply.status_code == 200, reply.text
    desktop = reply.json()
    assert desktop["id"] == phone["id"] and desktop["handle"] == phone["handle"]
    assert desktop["name"] == "Rita" and desktop["token"] != phone["token"]
    # Both devices are signed in to the one account, and it lists both.
    for token in (phone["token"], desktop["token"]):
        async with rig.http(token) as http:
            me = await http.get("/api/me")
        assert me.status_code == 200 and me.json()["id"] == phone["id"]
    devices = (await rig.account(phone["token"]))["devices"]
    assert sorted(d["kind"] for d in devices) == ["Chrome on Android", "Firefox on Linux"]
    assert [d["how"] for d in devices if d["kind"] == "Firefox on Linux"] == ["link"]


async def test_refused_link_codes_all_get_the_same_answer(rig: Rig) -> None:
    phone = await rig.new_player()
    used = (await rig.link_code(phone["token"]))["code"]
    assert (await sign_in(rig, "link", used)).status_code == 200
    replaced = (await rig.link_code(phone["token"]))["code"]
    expired = (await rig.link_code((await rig.new_player("Sam"))["token"]))["code"]
    rig.clock.now += 10 * MINUTE  # the codes so far are good up to now, not at it
    fresh = (await rig.link_code(phone["token"]))["code"]  # in place of `replaced`
    tries = {
        "used": used,
        "replaced": replaced,
        "expired": expired,
        "unknown": "ZZZZ-ZZZZ" if fresh != "ZZZZ-ZZZZ" else "YYYY-YYYY",
        "too short": fresh[:-1],
        "too long": fresh + "A",
        "not of the alphabet": fresh[:-1] + "U",
        "empty": "",
        "a recovery code's shape": "ABCD-EFGH-JKMN-PQRS",
        "as long as allowed": "A" * 64,
    }
    answers = {what: await sign_in(rig, "link", typed) for what, typed in tries.items()}
    for what, reply in answers.items():
        assert (reply.status_code, reply.json()) == (401, REFUSED), what
    assert len({tuple(sorted(r.headers.keys())) for r in answers.values()}) == 1
    assert (await sign_in(rig, "link", fresh)).status_code == 200  # the good one still works


@pytest.mark.parametrize("route", ["link", "recovery"])
async def test_a_body_that_is_no_code_is_a_422_and_counts_nothing(rig: Rig, route: str) -> None:
    async with rig.http() as http:
        for body in ({"code": "A" * 65}, {"code": 12345678}, {}, {"code": "A", "more": 1}):
            reply = await http.post(f"/api/sign-in/{route}", json=body)
            assert reply.status_code == 422, body
        assert (await http.post(f"/api/sign-in/{route}", content=b"A" * 100)).status_code == 422


async def test_of_two_devices_entering_one_link_code_at_once_one_gets_in(rig: Rig) -> None:
    phone = await rig.new_player()
    code = (await rig.link_code(phone["token"]))["code"]
    replies = await asyncio.gather(*(sign_in(rig, "link", code) for _ in range(2)))
    assert sorted(r.status_code for r in replies) == [200, 401]
    many = (await rig.link_code(phone["token"]))["code"]
    replies = await asyncio.gather(*(sign_in(rig, "link", many) for _ in range(8)))
    assert sorted(r.status_code for r in replies) == [200] + [401] * 7
    winners = [r.json() for r in replies if r.status_code == 200]
    assert winners[0]["id"] == phone["id"]


async def test_a_new_link_code_replaces_the_devices_earlier_one(rig: Rig) -> None:
    phone = await rig.new_player()
    earlier = (await rig.link_code(phone["token"]))["code"]
    later = (await rig.link_code(phone["token"]))["code"]
    assert (await sign_in(rig, "link", earlier)).status_code == 401
    assert (await sign_in(rig, "link", later)).status_code == 200


async def test_a_code_shown_by_a_device_signed_out_since_joins_nobody(rig: Rig) -> None:
    """A thief's phone shows a code; the owner signs the phone out from their laptop: the
    code is dead, though not yet expired."""
    phone = await rig.new_player()
    joined = await sign_in(rig, "link", (await rig.link_code(phone["token"]))["code"])
    laptop = joined.json()
    stolen = (await rig.link_code(phone["token"]))["code"]
    devices = (await rig.account(phone["token"]))["devices"]
    (phone_device,) = [d["id"] for d in devices if d["current"]]
    async with rig.http(laptop["token"]) as http:
        assert (await http.delete(f"/api/account/devices/{phone_device}")).status_code == 204
    reply = await sign_in(rig, "link", stolen)
    assert (reply.status_code, reply.json()) == (401, REFUSED)


async def test_codes_need_a_signed_in_device_to_make(rig: Rig) -> None:
    async with rig.http() as http:
        for path in ("/api/account/link", "/api/account/recovery-codes"):
            assert (await http.post(path)).status_code == 401
    async with rig.http("not-a-token") as http:
        assert (await http.post("/api/account/link")).status_code == 401


async def test_the_database_keeps_no_link_code(rig: Rig) -> None:
    phone = await rig.new_player()
    code = (await rig.link_code(phone["token"]))["code"]
    rows = [row for row in await rig.stored("link_codes") if row["account_id"] == phone["id"]]
    assert len(rows) == 1
    values = " ".join(str(value).upper() for row in rows for value in row.values())
    assert code not in values and code.replace("-", "") not in values


# Recovery codes.


async def test_ten_recovery_codes_each_sign_in_once(rig: Rig) -> None:
    player = await rig.new_player()
    assert (await rig.account(player["token"]))["recovery_codes_left"] == 0
    codes = await rig.recovery_codes(player["token"])
    assert len(codes) == 10 == len(set(codes))
    assert (await rig.account(player["token"]))["recovery_codes_left"] == 10
    for left, code in enumerate(codes, start=1):
        reply = await sign_in(rig, "recovery", code.lower())
        assert reply.status_code == 200, reply.text
        assert reply.json()["id"] == player["id"]
        again = await sign_in(rig, "recovery", code)
        assert (again.status_code, again.json()) == (401, REFUSED)
        assert (await rig.account(player["token"]))["recovery_codes_left"] == 10 - left
    devices = (await rig.account(player["token"]))["devices"]
    assert [d["how"] for d in devices].count("recovery") == 10


async def test_new_recovery_codes_end_the_old_ones(rig: Rig) -> None:
    player = await rig.new_player()
    old = await rig.recovery_codes(player["token"])
    new = await rig.recovery_codes(player["token"])
    assert not set(old) & set(new)
    for code in old:
        reply = await sign_in(rig, "recovery", code)
        assert (reply.status_code, reply.json()) == (401, REFUSED)
    assert (await sign_in(rig, "recovery", new[-1])).status_code == 200
    assert (await rig.account(player["token"]))["recovery_codes_left"] == 9


async def test_refused_recovery_codes_all_get_the_same_answer(rig: Rig) -> None:
    player = await rig.new_player()
    codes = await rig.recovery_codes(player["token"])
    assert (await sign_in(rig, "recovery", codes[0])).status_code == 200
    link = (await rig.link_code(player["token"]))["code"]
    for typed in (codes[0], "ZZZZ-ZZZZ-ZZZZ-ZZZZ", codes[1][:-1], codes[1] + "Z", link, "", "x"):
        reply = await sign_in(rig, "recovery", typed)
        assert (reply.status_code, reply.json()) == (401, REFUSED), typed
    assert (await rig.account(player["token"]))["recovery_codes_left"] == 9


async def test_the_database_keeps_no_recovery_code(rig: Rig) -> None:
    player = await rig.new_player()
    codes = await rig.recovery_codes(player["token"])
    rows = [r for r in await rig.stored("recovery_codes") if r["account_id"] == player["id"]]
    assert len(rows) == 10
    values = " ".join(str(value).upper() for row in rows for value in row.values())
    for code in codes:
        assert code not in values and code.replace("-", "") not in values


async def test_of_two_devices_entering_one_recovery_code_at_once_one_gets_in(rig: Rig) -> None:
    player = await rig.new_player()
    code = (await rig.recovery_codes(player["token"]))[0]
    replies = await asyncio.gather(*(sign_in(rig, "recovery", code) for _ in range(2)))
    assert sorted(r.status_code for r in replies) == [200, 401]


# Brute force.


@pytest.fixture(params=STORES)
async def strict(
    request: pytest.FixtureRequest, settings: Settings, tmp_path: Path
) -> AsyncIterator[Rig]:
    """A gateway letting an address try 5 codes a quarter hour."""
    async with rig_of(
        settings, request.param, tmp_path, sign_in_attempts=5, sign_in_period_minutes=15.0
    ) as made:
        yield made


async def test_guessing_codes_is_throttled_per_address_for_a_period(strict: Rig) -> None:
    player = await strict.new_player()
    good = (await strict.recovery_codes(player["token"]))[0]
    address = f"127.{secrets.randbelow(250) + 1}.{secrets.randbelow(250) + 1}.7"
    async with strict.from_address(address) as guesser:
        for n in range(5):  # the link's and the recovery's sign-ins count together
            route = "link" if n % 2 else "recovery"
            guess = await guesser.post(f"/api/sign-in/{route}", json={"code": f"{n}" * 16})
            assert (guess.status_code, guess.json()) == (401, REFUSED)
        for route in ("link", "recovery"):
            refused = await guesser.post(f"/api/sign-in/{route}", json={"code": good})
            assert refused.status_code == 429, refused.text
            assert refused.headers["Retry-After"] == str(15 * 60)
        strict.clock.now += 15 * MINUTE - 1
        still = await guesser.post("/api/sign-in/recovery", json={"code": good})
        assert still.status_code == 429
        # Another address is not held back by this one.
        assert (await sign_in(strict, "recovery", "ZZZZ-ZZZZ-ZZZZ-ZZZZ")).status_code == 401
        strict.clock.now += 2
        back = await guesser.post("/api/sign-in/recovery", json={"code": good})
        assert back.status_code == 200, back.text
        assert back.json()["id"] == player["id"]


async def test_making_link_codes_is_throttled_per_address(strict: Rig) -> None:
    player = await strict.new_player()
    async with strict.http(player["token"]) as device:
        for _ in range(5):
            assert (await device.post("/api/account/link")).status_code == 200
        refused = await device.post("/api/account/link")
        assert refused.status_code == 429 and "Retry-After" in refused.headers
        strict.clock.now += 15 * MINUTE + 1
        assert (await device.post("/api/account/link")).status_code == 200
