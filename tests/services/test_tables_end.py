"""Tables end, and creating one answers honestly, on a platform of this module's own whose
tables close after a short abandon time.

A table its person left closes, settled, and leaves the lobby; a player hosts a few open tables
at most, even asking for twenty at once; a table that cannot be created is answered 503.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from dataclasses import replace

import asyncpg
import httpx
import pytest

from services.load.platform import Platform, isolated
from tests.services.client import Player
from tests.services.ledger_books import ledger_client, postings_written
from tests.services.play import act, watch_when_created

ABANDON_SECONDS = 2.0
HOST_TABLES = 3
WITHIN = 120.0  # generous: the machine may be busy


@pytest.fixture(autouse=True)
async def whole_platform() -> AsyncIterator[None]:
    """This module runs its own platform, not the session's."""
    yield


@pytest.fixture(scope="module")
async def platform(
    service_urls: tuple[str, str], tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Platform]:
    async with isolated(*service_urls, label="ends") as settings:
        short = replace(settings, abandon_seconds=ABANDON_SECONDS, host_tables=HOST_TABLES)
        running = Platform(short, tmp_path_factory.mktemp("ends"))
        try:
            await running.start(workers=2, bots=1)
            yield running
        finally:
            running.stop()


async def eventually(what: str, check: object) -> None:
    """Wait for ``check()`` (a coroutine function) to hold, with a generous deadline."""
    deadline = time.monotonic() + WITHIN
    while not await check():  # type: ignore[operator]
        assert time.monotonic() < deadline, f"never: {what}"
        await asyncio.sleep(0.2)


async def hosted(platform: Platform, player: Player) -> list[tuple[str, str]]:
    """(table, phase) of every table ``player`` opened."""
    conn = await asyncpg.connect(platform.settings.database_url)
    try:
        rows = await conn.fetch(
            "SELECT table_id, phase FROM tables.tables WHERE host_id = $1", player.id
        )
    finally:
        await conn.close()
    return [(row["table_id"], row["phase"]) for row in rows]


async def in_lobby(platform: Platform, table: str) -> bool:
    async with httpx.AsyncClient(base_url=platform.base) as http:
        return table in {t["id"] for t in (await http.get("/api/tables")).json()}


async def reconciled(platform: Platform, table: str) -> bool:
    """The ledger applied every posting of ``table`` and its wallets match the table's."""
    postings = await postings_written(platform.settings, table)
    async with ledger_client(platform.settings) as ledger:
        report = (await ledger.get(f"/tables/{table}/reconciliation")).json()
    return bool(report["postings_applied"] >= postings and report["matches"])


async def test_a_quick_play_table_its_person_left_closes_settled(platform: Platform) -> None:
    player = Player(platform.base, "Leaver")
    await player.sign_up()
    await player.connect()
    reply = await player.http("POST", "/api/quickplay")
    assert reply.status_code == 200, reply.text
    table = reply.json()["id"]
    await watch_when_created(player, table)
    assert await in_lobby(platform, table)
    await player.close()  # gone: nobody is left at the table but two bots

    async def closed() -> bool:
        return (await hosted(platform, player)) == [(table, "closed")]

    await eventually("the abandoned table closes", closed)
    assert not await in_lobby(platform, table)

    async def settled() -> bool:
        return await reconciled(platform, table)

    await eventually("the ledger settles the closed table", settled)
    async with ledger_client(platform.settings) as ledger:
        health = await ledger.get("/health")
        assert health.status_code == 200 and health.json()["balanced"], health.json()
        balance = await ledger.get(f"/players/{player.id}/balance")
        assert balance.status_code == 200, balance.text
    # Unseated, their chips back in their wallet: they may sit down again at once.
    assert (await player.http("GET", "/api/me")).json()["seated"] is None
    again = await player.http("POST", "/api/quickplay")
    assert again.status_code == 200, again.text
    await player.close()


async def test_a_public_table_its_host_leaves_leaves_the_lobby(platform: Platform) -> None:
    host = Player(platform.base, "Opener")
    await host.sign_up()
    await host.connect()
    reply = await host.http("POST", "/api/tables", json={"seats": 4})
    assert reply.status_code == 200, reply.text
    table = reply.json()["id"]
    await watch_when_created(host, table)
    assert await in_lobby(platform, table)
    assert (await act(host, table, {"kind": "leave"}))["type"] == "ack"

    async def gone() -> bool:
        return not await in_lobby(platform, table)

    await eventually("the empty table leaves the lobby", gone)
    late = Player(platform.base, "Latecomer")
    await late.sign_up()
    await late.connect()
    await late.request({"type": "watch", "table": table})
    answer = await late.request({"type": "join", "table": table})
    assert answer["type"] == "reject" and answer["code"] == "table_closed", answer
    await host.close()
    await late.close()


async def test_twenty_quick_plays_at_once_open_one_table(platform: Platform) -> None:
    host = Player(platform.base, "Greedy")
    await host.sign_up()
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

    await eventually("the tables the host could not sit at close", only_the_seated_one_open)


async def test_a_host_opens_at_most_the_limit_of_tables(platform: Platform) -> None:
    host = Player(platform.base, "Host Of Many")
    await host.sign_up()
    await host.connect()
    friends = [Player(platform.base, f"Stayer {k}") for k in range(HOST_TABLES)]
    for friend in friends:
        # The host opens a table, a friend sits down, the host leaves: it stays open.
        await friend.sign_up()
        await friend.connect()
        reply = await host.http("POST", "/api/tables", json={"seats": 3})
        assert reply.status_code == 200, reply.text
        table = reply.json()["id"]
        await watch_when_created(host, table)
        await watch_when_created(friend, table)
        assert (await friend.request({"type": "join", "table": table}))["type"] == "ack"
        assert (await act(host, table, {"kind": "leave"}))["type"] == "ack"
    refused = await host.http("POST", "/api/tables", json={"seats": 3})
    assert refused.status_code == 409, refused.text
    assert f"You already host {HOST_TABLES} open tables" in refused.json()["detail"]
    assert sum(phase != "closed" for _, phase in await hosted(platform, host)) == HOST_TABLES
    for player in (host, *friends):
        await player.close()


async def test_quick_play_without_the_ledger_is_503(platform: Platform) -> None:
    player = Player(platform.base, "Unlucky")
    await player.sign_up()
    for ledger in platform.running("ledger"):
        platform.kill(ledger)
    try:
        reply = await player.http("POST", "/api/quickplay")
        assert reply.status_code == 503, reply.text
        assert "cashier" in reply.json()["detail"], reply.text

        async def nothing_open() -> bool:
            return all(phase == "closed" for _, phase in await hosted(platform, player))

        await eventually("the table that could not be set up closes", nothing_open)
        assert (await player.http("GET", "/api/me")).json()["seated"] is None
    finally:
        await platform.restore(workers=2, bots=1)
    reply = await player.http("POST", "/api/quickplay")
    assert reply.status_code == 200, reply.text


async def test_quick_play_no_worker_confirms_is_503_and_opens_nothing_later(
    platform: Platform,
) -> None:
    player = Player(platform.base, "Too Early")
    await player.sign_up()
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

    await eventually("a worker refuses the late creation", refused_late)
    assert await hosted(platform, player) == []
    assert (await player.http("GET", "/api/me")).json()["seated"] is None
