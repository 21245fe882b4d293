"""Device links' and recovery codes' stores, in PostgreSQL, in SQLite and in memory: a code
opens its account once, a link code only until it expires (on a clock the test moves), two
takers at once never both get in, and the database holds hashes, never a code."""

from __future__ import annotations

import asyncio
import hashlib
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from services.gateway.code_format import ALPHABET
from services.gateway.link_codes import LinkCodes, Linked, link_code_store_for
from services.gateway.recovery_codes import COUNT, RecoveryCodes, recovery_code_store_for
from shared.settings import Settings
from tests.clock import Clock
from tests.security.store_database import KINDS, store_database, stored_rows

SECRET = "a test secret of the gateway, long enough to sign tokens"
MINUTE = 60.0


def account() -> str:
    """An account id no other test uses (the PostgreSQL database is the whole run's)."""
    return f"p-{secrets.token_hex(8)}"


def device() -> str:
    return f"d-{secrets.token_hex(8)}"


@dataclass
class Rig:
    kind: str
    links: LinkCodes
    recovery: RecoveryCodes
    clock: Clock
    stored: Callable[[str], Awaitable[list[dict[str, Any]]]]  # a table's rows, as dicts


@pytest.fixture(params=KINDS)
async def rig(
    request: pytest.FixtureRequest, settings: Settings, tmp_path: Path
) -> AsyncIterator[Rig]:
    clock = Clock()
    async with store_database(request.param, settings, tmp_path, size=12) as store:
        links = link_code_store_for(store)
        await links.migrate()  # the gateway's tables: the recovery codes' too

        async def rows(table: str) -> list[dict[str, Any]]:
            return await stored_rows(store, table)

        yield Rig(
            request.param,
            LinkCodes(links, SECRET, 10 * MINUTE, clock),
            RecoveryCodes(recovery_code_store_for(store), clock),
            clock,
            rows,
        )


def no_code_in(rows: list[dict[str, Any]], codes: list[str]) -> None:
    """No stored value contains any of ``codes``, as shown or as canonical."""
    values = [str(value).upper() for row in rows for value in row.values()]
    for code in codes:
        for form in (code, code.replace("-", "")):
            assert not any(form in value for value in values), form


# Device links.


async def test_a_link_code_opens_its_account_once(rig: Rig) -> None:
    who, phone = account(), device()
    issued = await rig.links.issue(who, phone)
    assert len(issued.code) == 9 and issued.code[4] == "-"
    assert set(issued.code.replace("-", "")) <= set(ALPHABET)
    assert issued.expires_at == int((rig.clock.now + 10 * MINUTE) * 1000)
    typed = issued.code.lower().replace("-", "")  # as a person may type it
    assert await rig.links.redeem(typed) == Linked(who, phone)
    assert await rig.links.redeem(issued.code) is None  # used
    assert await rig.links.redeem(typed) is None


async def test_a_link_code_lasts_its_minutes_and_no_more(rig: Rig) -> None:
    who, phone = account(), device()
    kept = await rig.links.issue(who, phone)
    lapsed = await rig.links.issue(who, device())
    rig.clock.now += 10 * MINUTE - 0.001
    assert await rig.links.redeem(kept.code) == Linked(who, phone)
    rig.clock.now += 0.001
    assert await rig.links.redeem(lapsed.code) is None


async def test_a_new_link_code_replaces_the_devices_earlier_one(rig: Rig) -> None:
    who, phone, laptop = account(), device(), device()
    earlier = await rig.links.issue(who, phone)
    elsewhere = await rig.links.issue(who, laptop)
    later = await rig.links.issue(who, phone)
    assert await rig.links.redeem(earlier.code) is None
    assert await rig.links.redeem(later.code) == Linked(who, phone)
    # Another device's code is its own.
    assert await rig.links.redeem(elsewhere.code) == Linked(who, laptop)


async def test_unknown_and_malformed_link_codes_open_nothing(rig: Rig) -> None:
    await rig.links.issue(account(), device())
    for typed in ("", "K7QF-9M2", "K7QF-9M2U", "K7QF-9M2X-AAAA", "💥" * 8, "' OR 1=1 --"):
        assert await rig.links.redeem(typed) is None
    # A well-formed code no device was given (one in 2^40 that it was).
    assert await rig.links.redeem("ZZZZ-ZZZZ") is None


async def test_of_many_devices_entering_one_link_code_at_once_one_gets_in(rig: Rig) -> None:
    who, phone = account(), device()
    issued = await rig.links.issue(who, phone)
    taken = await asyncio.gather(*(rig.links.redeem(issued.code) for _ in range(10)))
    assert taken.count(Linked(who, phone)) == 1 and taken.count(None) == 9


async def test_the_database_keeps_a_keyed_hash_of_a_link_code(rig: Rig) -> None:
    who, phone = account(), device()
    issued = await rig.links.issue(who, phone)
    rows = await rig.stored("link_codes")
    if rig.kind == "memory":
        return
    mine = [row for row in rows if row["account_id"] == who]
    assert len(mine) == 1
    no_code_in(rows, [issued.code])
    canonical = issued.code.replace("-", "")
    assert mine[0]["code_hash"] == rig.links.hash(canonical)
    assert mine[0]["code_hash"] != hashlib.sha256(canonical.encode()).hexdigest()  # keyed
    assert mine[0]["device_id"] == phone and mine[0]["used_at"] is None
    assert await rig.links.redeem(issued.code) == Linked(who, phone)
    used = [row for row in await rig.stored("link_codes") if row["account_id"] == who]
    assert used[0]["used_at"] == int(rig.clock.now * 1000)


async def test_a_link_code_from_before_the_secret_rotated_opens_nothing(rig: Rig) -> None:
    who, phone = account(), device()
    issued = await rig.links.issue(who, phone)
    rotated = LinkCodes(rig.links.store, SECRET + " rotated", 10 * MINUTE, rig.clock)
    assert await rotated.redeem(issued.code) is None
    assert await rig.links.redeem(issued.code) == Linked(who, phone)


async def test_expired_link_codes_are_forgotten(rig: Rig) -> None:
    if rig.kind == "memory":
        return
    who = account()
    await rig.links.issue(who, device())
    rig.clock.now += 10 * MINUTE
    await rig.links.issue(account(), device())
    assert [row for row in await rig.stored("link_codes") if row["account_id"] == who] == []


# Recovery codes.


async def test_ten_recovery_codes_each_open_their_account_once(rig: Rig) -> None:
    who = account()
    codes = await rig.recovery.generate(who)
    assert len(codes) == COUNT == len(set(codes))
    for code in codes:
        assert len(code) == 19 and code.count("-") == 3
        assert set(code.replace("-", "")) <= set(ALPHABET)  # 16 characters of 5 bits: 80 bits
    assert await rig.recovery.left(who) == COUNT
    for left, code in enumerate(reversed(codes)):
        assert await rig.recovery.redeem(code.lower()) == who
        assert await rig.recovery.redeem(code) is None
        assert await rig.recovery.left(who) == COUNT - 1 - left
    assert await rig.recovery.left(who) == 0


async def test_a_new_set_of_recovery_codes_ends_the_old_one(rig: Rig) -> None:
    who, other = account(), account()
    old = await rig.recovery.generate(who)
    theirs = await rig.recovery.generate(other)
    assert await rig.recovery.redeem(old[0]) == who
    new = await rig.recovery.generate(who)
    assert not set(old) & set(new)
    assert await rig.recovery.left(who) == COUNT
    for code in old:
        assert await rig.recovery.redeem(code) is None
    assert await rig.recovery.redeem(new[0]) == who
    assert await rig.recovery.left(other) == COUNT  # another account's set is its own
    assert await rig.recovery.redeem(theirs[0]) == other


async def test_recovery_codes_made_twice_at_once_leave_one_set(rig: Rig) -> None:
    who = account()
    first, second = await asyncio.gather(rig.recovery.generate(who), rig.recovery.generate(who))
    assert await rig.recovery.left(who) == COUNT
    opened = [await rig.recovery.redeem(code) for code in first + second]
    assert opened.count(who) == COUNT


async def test_of_many_devices_entering_one_recovery_code_at_once_one_gets_in(rig: Rig) -> None:
    who = account()
    code = (await rig.recovery.generate(who))[3]
    taken = await asyncio.gather(*(rig.recovery.redeem(code) for _ in range(10)))
    assert taken.count(who) == 1 and taken.count(None) == 9
    assert await rig.recovery.left(who) == COUNT - 1


async def test_unknown_and_malformed_recovery_codes_open_nothing(rig: Rig) -> None:
    who = account()
    codes = await rig.recovery.generate(who)
    for typed in ("", codes[0][:-1], codes[0] + "A", codes[0][:9], "ZZZZ-ZZZZ-ZZZZ-ZZZZ"):
        assert await rig.recovery.redeem(typed) is None
    assert await rig.recovery.left(who) == COUNT


async def test_the_database_keeps_only_the_recovery_codes_hashes(rig: Rig) -> None:
    who = account()
    codes = await rig.recovery.generate(who)
    if rig.kind == "memory":
        return
    rows = await rig.stored("recovery_codes")
    no_code_in(rows, codes)
    mine = sorted(row["code_hash"] for row in rows if row["account_id"] == who)
    assert mine == sorted(
        hashlib.sha256(code.replace("-", "").encode()).hexdigest() for code in codes
    )
