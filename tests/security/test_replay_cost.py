"""A replay costs a request no read of the table's log: the table worker builds it once, when
the game ends, and stores it; gateways serve the stored bytes. One client address may ask for
only so many (a test clock moves the limit's time)."""

from __future__ import annotations

import gzip
import json
import secrets
from collections.abc import AsyncIterator

import httpx
import pytest

from services.gateway.app import create_app as gateway_app
from services.gateway.limits import AddressRate
from services.gateway.state import REPLAY_BURST, REPLAYS_PER_SECOND
from services.table.storage import GameRecordRow, TableRow
from services.table.store import TableStore, open_table_store
from shared.bus import shard_of
from shared.games.replays import build_replay, pack_replay
from shared.memory_bus import MemoryBus
from shared.settings import Settings
from tests.clock import Clock
from tests.security.test_public_routes import stored
from tests.services.client import signed_up
from tests.services.cluster import Cluster
from tests.services.database import fetch, fetchval
from tests.services.play import finished_with_bots

pytestmark = pytest.mark.usefixtures("whole_platform")


async def stored_replay(cluster: Cluster, table: str) -> bytes:
    return bytes(await stored(cluster, table, "replay"))


async def test_a_replay_is_stored_at_the_games_end_and_served_without_the_log(
    cluster: Cluster,
) -> None:
    async with signed_up(cluster.base, "Watcher") as (person,):
        table: str = (await finished_with_bots(person, game="euchre", target=1))["id"]
        packed = await stored_replay(cluster, table)  # what the table worker built at the end
        s = cluster.settings
        logged = await fetch(
            s, "SELECT seq, events FROM tables.events WHERE table_id = $1 ORDER BY seq", table
        )
        config = await fetchval(s, "SELECT config FROM tables.tables WHERE table_id = $1", table)
        # What the gateway built from the whole log on every request before: the same document.
        batches = [(row["seq"], json.loads(row["events"])) for row in logged]
        rebuilt = build_replay(table, "euchre", json.loads(config), batches, 1)
        assert rebuilt is not None and gzip.decompress(packed).decode() == rebuilt

        path = f"/api/tables/{table}/games/1/replay"
        # A game that ended before replays were stored is built from its log once, and stored.
        await fetch(s, "DELETE FROM tables.game_replays WHERE table_id = $1", table)
        first = await person.http("GET", path)
        assert first.status_code == 200 and first.text == rebuilt
        assert await stored_replay(cluster, table) == packed  # the same bytes: no timestamp

        # The log gone, the replay is still served as stored, exactly as before.
        await fetch(s, "DELETE FROM tables.events WHERE table_id = $1", table)
        served = await person.http("GET", path)
        assert served.status_code == 200 and served.headers["content-encoding"] == "gzip"
        assert served.text == rebuilt
        async with httpx.AsyncClient(base_url=cluster.base) as http:
            plain = await http.get(path, headers={"accept-encoding": "identity"})
        assert plain.status_code == 200 and plain.text == rebuilt
        # A game that has not ended is still refused: no record, no replay.
        assert (await person.http("GET", f"/api/tables/{table}/games/2/replay")).status_code == 404


@pytest.fixture
async def store(settings: Settings) -> AsyncIterator[TableStore]:
    async with open_table_store(settings, "test-replay-cost") as tables:
        yield tables


async def finished_table(store: TableStore, shards: int) -> str:
    """A public table whose first game has a stored record and replay, and no log at all."""
    table_id = f"t-cost-{secrets.token_hex(4)}"
    shard, code = shard_of(table_id, shards), secrets.token_hex(4)
    row = TableRow(table_id, "swick", shard, {}, False, code, 0, "ended", [], None)
    assert await store.create(row)
    await store.save_replay(table_id, 1, pack_replay('{"frames":[]}'))
    await store.save_record(GameRecordRow(table_id, 1, "{}", ()))
    return table_id


async def test_replays_past_the_limit_are_refused_until_the_limit_refills(
    settings: Settings, store: TableStore
) -> None:
    table = await finished_table(store, settings.shards)
    app = gateway_app(settings, bus=MemoryBus(settings.topology), store=store)
    clock = Clock()
    async with app.router.lifespan_context(app):
        app.state.gateway.replay_rate = AddressRate(REPLAYS_PER_SECOND, REPLAY_BURST, clock=clock)

        async def ask(address: str) -> httpx.Response:
            transport = httpx.ASGITransport(app=app, client=(address, 40000))
            async with httpx.AsyncClient(transport=transport, base_url="http://gw") as http:
                return await http.get(f"/api/tables/{table}/games/1/replay")

        replies = [await ask("198.51.100.9") for _ in range(REPLAY_BURST)]
        assert [r.status_code for r in replies] == [200] * REPLAY_BURST
        assert all(r.text == '{"frames":[]}' for r in replies)
        refused = await ask("198.51.100.9")
        assert refused.status_code == 429 and "Too many replays" in refused.json()["detail"]
        assert refused.headers["retry-after"] == str(round(1 / REPLAYS_PER_SECOND))
        assert (await ask("198.51.100.10")).status_code == 200  # another address is not held up
        clock.now += 1 / REPLAYS_PER_SECOND  # one more replay's worth of time
        assert (await ask("198.51.100.9")).status_code == 200
        assert (await ask("198.51.100.9")).status_code == 429


def test_the_limits_table_of_addresses_is_bounded() -> None:
    clock = Clock()
    rate = AddressRate(1.0, 1, max_addresses=3, clock=clock)
    for n in range(10):
        assert rate.take(f"203.0.113.{n}")
    assert len(rate) == 3
    assert not rate.take("203.0.113.9") and rate.retry_after("203.0.113.9") == 1
