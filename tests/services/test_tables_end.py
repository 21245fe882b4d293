"""Tables end, and creating one answers honestly, on a platform of this module's own whose
tables close after a short abandon time.

A table its person left closes, settled, and leaves the lobby; a player hosts a few open tables
at most, even asking for twenty at once; a table that cannot be created is answered 503.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import httpx
import pytest

from tests.eventually import eventually
from tests.services.client import Player, registered, signed_up
from tests.services.cluster import Cluster as Platform
from tests.services.cluster import platform_of_its_own
from tests.services.database import fetch
from tests.services.ledger_books import caught_up, ledger_client
from tests.services.lobby import new_table, quick_play
from tests.services.play import act, quick_seated, watch_when_created

ABANDON_SECONDS = 2.0
HOST_TABLES = 3
WITHIN = 120.0  # generous: the machine may be busy


@pytest.fixture(autouse=True)
async def whole_platform() -> AsyncIterator[None]:
    """This module runs its own platform, not the session's."""
    yield


platform = platform_of_its_own(
    "ends", workers=2, bots=1, abandon_seconds=ABANDON_SECONDS, host_tables=HOST_TABLES
)


async def hosted(platform: Platform, player: Player) -> list[tuple[str, str]]:
    """(table, phase) of every table ``player`` opened."""
    sql = "SELECT table_id, phase FROM tables.tables WHERE host_id = $1"
    rows = await fetch(platform.settings, sql, player.id)
    return [(row["table_id"], row["phase"]) for row in rows]


async def in_lobby(platform: Platform, table: str) -> bool:
    async with httpx.AsyncClient(base_url=platform.base) as http:
        return table in {t["id"] for t in (await http.get("/api/tables")).json()}


async def reconciled(platform: Platform, table: str) -> bool:
    """The ledger applied every posting of ``table`` and its wallets match the table's."""
    postings, report = await caught_up(platform.settings, table, within=0)
    return bool(report["postings_applied"] >= postings and report["matches"])


async def test_a_quick_play_table_its_person_left_closes_settled(platform: Platform) -> None:
    player = await registered(platform.base, "Leaver")
    await player.connect()
    table = await quick_seated(player)
    assert (await hosted(platform, player))[0][1] != "closed"
    await player.close()  # gone: nobody is left at the table but two bots

    async def closed() -> bool:
        return (await hosted(platform, player)) == [(table, "closed")]

    await eventually(closed, "the abandoned table closes", WITHIN, every=0.2)
    assert not await in_lobby(platform, table)

    async def settled() -> bool:
        return await reconciled(platform, table)

    await eventually(settled, "the ledger settles the closed table", WITHIN, every=0.2)
    async with ledger_client(platform.settings) as ledger:
        health = await ledger.get("/health")
        assert health.status_code == 200 and health.json()["balanced"], health.json()
        balance = await ledger.get(f"/players/{player.id}/balance")
        assert balance.status_code == 200, balance.text
    # Unseated, their chips back in their wallet: they may sit down again at once.
    assert (await player.http("GET", "/api/me")).json()["seated"] is None
    await quick_play(player)


async def test_a_public_table_its_host_leaves_leaves_the_lobby(platform: Platform) -> None:
    async with signed_up(platform.base, "Opener", "Latecomer") as (host, late):
        table = (await new_table(host, {"seats": 4}))["id"]
        await watch_when_created(host, table)
        assert await in_lobby(platform, table)
        assert (await act(host, table, {"kind": "leave"}))["type"] == "ack"

        async def gone() -> bool:
            return not await in_lobby(platform, table)

        await eventually(gone, "the empty table leaves the lobby", WITHIN, every=0.2)
        await late.request({"type": "watch", "table": table})
        answer = await late.request({"type": "join", "table": table})
        assert answer["type"] == "reject" and answer["code"] == "table_closed", answer


async def test_twenty_quick_plays_at_once_open_one_table(platform: Platform) -> None:
    host = await registered(platform.base, "Greedy")
    replies = await asyncio.gather(*(host.http("POST", "/api/quickplay") for _ in range(20)))
    statuses = [reply.status_code for reply in replies]
    assert statuses.count(200) == 1, [(r.status_code, r.text) for r in replies]
    assert set(statuses) == {200, 409}, [(r.status_code, r.text) for r in replies]
    for reply in replies:
        if reply.status_code == 409:
            detail = reply.json()["detail"]
            assert "seat" in detail or "open tables" in detail, detail
    [table] = [r.json()["id"] for r in replies if r.status_code == 200]

    async def only_the_seated_one_open() -> bool:
        return [t for t, phase in await hosted(platform, host) if phase != "closed"] == [table]

    await eventually(
        only_the_seated_one_open, "the tables the host could not sit at close", WITHIN, every=0.2
    )


async def test_a_host_opens_at_most_the_limit_of_tables(platform: Platform) -> None:
    stayers = [f"Stayer {k}" for k in range(HOST_TABLES)]
    async with signed_up(platform.base, "Host Of Many", *stayers) as (host, *friends):
        for friend in friends:
            # The host opens a table, a friend sits down, the host leaves: it stays open.
            table = (await new_table(host, {"seats": 3}))["id"]
            await watch_when_created(host, table)
            await watch_when_created(friend, table)
            assert (await friend.request({"type": "join", "table": table}))["type"] == "ack"
            assert (await act(host, table, {"kind": "leave"}))["type"] == "ack"
        refused = await host.http("POST", "/api/tables", json={"seats": 3})
        assert refused.status_code == 409, refused.text
        assert f"You already host {HOST_TABLES} open tables" in refused.json()["detail"]
        assert sum(phase != "closed" for _, phase in await hosted(platform, host)) == HOST_TABLES


async def test_quick_play_without_the_ledger_is_503(platform: Platform) -> None:
    player = await registered(platform.base, "Unlucky")
    for ledger in platform.running("ledger"):
        platform.kill(ledger)
    try:
        reply = await player.http("POST", "/api/quickplay")
        assert reply.status_code == 503, reply.text
        assert "cashier" in reply.json()["detail"], reply.text

        async def nothing_open() -> bool:
            return all(phase == "closed" for _, phase in await hosted(platform, player))

        await eventually(
            nothing_open, "the table that could not be set up closes", WITHIN, every=0.2
        )
        assert (await player.http("GET", "/api/me")).json()["seated"] is None
    finally:
        await platform.restore(workers=2, bots=1)
    await quick_play(player)


async def test_quick_play_no_worker_confirms_is_503_and_opens_nothing_later(
    platform: Platform,
) -> None:
    player = await registered(platform.base, "Too Early")
    for worker in platform.running("table"):
        platform.kill(worker)
    try:
        reply = await player.http("POST", "/api/quickplay", timeout=60)
        assert reply.status_code == 503, reply.text
        assert "not confirmed in time" in reply.json()["detail"], reply.text
    finally:
        await platform.restore(workers=2, bots=1)

    def worker_logs() -> str:
        return "".join(p.read_text(errors="replace") for p in platform.logs.glob("table-*.log"))

    async def refused_late() -> bool:
        return f"request={player.id}/create-" in worker_logs() and "code=expired" in worker_logs()

    await eventually(refused_late, "a worker refuses the late creation", WITHIN, every=0.2)
    assert await hosted(platform, player) == []
    assert (await player.http("GET", "/api/me")).json()["seated"] is None
