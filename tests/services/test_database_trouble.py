"""The services ride out PostgreSQL's trouble: their connections killed under them (what a
restart or a failover does) and the database refusing connections for a while.

The PostgreSQL server is shared, so it is never restarted here: a restart is simulated on this
run's database alone, by terminating its backends (``pg_terminate_backend``) and by refusing new
connections for a moment (``ALLOW_CONNECTIONS false``)."""

from __future__ import annotations

import asyncio
import random
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from urllib.parse import urlparse

import aio_pika
import asyncpg
import httpx

from shared.bus import RabbitBus
from shared.messages import Leg, Posting
from tests.eventually import eventually
from tests.services.client import Player
from tests.services.cluster import Cluster
from tests.services.database import fetch, fetchval
from tests.services.ledger_books import ledger_client
from tests.services.play import between_hands, open_table, play, seen_at_least, started
from tests.services.test_game_play import check_log
from tests.services.test_ledger_service import ledger_agrees

TABLES = 10
POSTINGS_PER_TABLE = 30  # 300 in all
ROUNDS = 3
WITHIN = 90.0  # seconds for what the services do in their own time


def database_name(cluster: Cluster) -> str:
    return urlparse(cluster.settings.database_url).path.lstrip("/")


@asynccontextmanager
async def server(cluster: Cluster) -> AsyncIterator[asyncpg.Connection]:
    """A connection to the server's maintenance database, from where this run's database is
    troubled (a connection to it would be terminated and refused along with the services')."""
    url = urlparse(cluster.settings.database_url)._replace(path="/postgres").geturl()
    conn = await asyncpg.connect(url)
    try:
        yield conn
    finally:
        await conn.close()


async def terminate(admin: asyncpg.Connection, cluster: Cluster, application: str) -> int:
    """Terminate the backends of ``application`` (a service's pool) on this run's database."""
    killed: int = await admin.fetchval(
        "SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
        " WHERE datname = $1 AND application_name = $2) AS t",
        database_name(cluster),
        application,
    )
    return killed


@asynccontextmanager
async def books_held(cluster: Cluster) -> AsyncIterator[None]:
    """The ledger's postings table locked against writes (reads go on) until the block ends."""
    conn = await asyncpg.connect(cluster.settings.database_url)
    try:
        async with conn.transaction():
            await conn.execute("LOCK TABLE ledger.postings IN SHARE MODE")
            yield
    finally:
        await conn.close()


async def ledger_waiting(admin: asyncpg.Connection, cluster: Cluster) -> bool:
    """Whether one of the ledger's connections is waiting for a lock (in a posting's
    transaction)."""
    waiting: int = await admin.fetchval(
        "SELECT count(*) FROM pg_stat_activity WHERE datname = $1 AND application_name = $2"
        " AND wait_event_type = 'Lock'",
        database_name(cluster),
        "swick-ledger",
    )
    return waiting > 0


@asynccontextmanager
async def refusing_connections(
    admin: asyncpg.Connection, cluster: Cluster, application: str
) -> AsyncIterator[None]:
    """The database down for ``application``: its connections gone, new ones refused."""
    name = database_name(cluster)
    await admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
    try:
        await terminate(admin, cluster, application)
        yield
    finally:
        await admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')


def posting(table: str, number: int) -> bytes:
    """The table's posting ``number``: ``number`` chips from its player p to its player q
    through the pot, so that their balances tell whether each was applied exactly once."""
    body = Posting(
        id=f"{table}:{number}",
        table_id=table,
        posting_no=number,
        hand_no=number,
        legs=(
            Leg(debit=f"wallet:{table}-p", credit=f"pot:{table}", amount=number, code="ante"),
            Leg(debit=f"pot:{table}", credit=f"wallet:{table}-q", amount=number, code="win"),
        ),
        stacks={},
        names={},
    )
    return body.model_dump_json().encode()


async def seat_players(cluster: Cluster, tables: list[str]) -> None:
    """Seat each table's players p and q with the ledger: only seated players' wallets may
    appear in a table's postings."""
    async with httpx.AsyncClient(
        base_url=cluster.settings.ledger_url, headers=cluster.settings.ledger_auth(write=True)
    ) as ledger:
        for table in tables:
            for player in (f"{table}-p", f"{table}-q"):
                reply = await ledger.post(
                    f"/wallets/{player}/seat", json={"name": player, "table_id": table}
                )
                assert reply.status_code == 200, reply.text


async def applied(cluster: Cluster, tables: list[str]) -> int:
    sql = "SELECT count(*) FROM ledger.postings WHERE table_id = ANY($1::text[])"
    return int(await fetchval(cluster.settings, sql, tables))


async def consumers(cluster: Cluster, queue: str) -> int:
    connection = await aio_pika.connect(cluster.settings.amqp_url)
    async with connection:
        channel = await connection.channel()
        declared = await channel.declare_queue(queue, passive=True)
        return int(declared.declaration_result.consumer_count or 0)


async def status(base: str, path: str) -> int:
    async with httpx.AsyncClient(base_url=base) as client:
        try:
            return (await client.get(path)).status_code
        except httpx.TransportError:
            return 0


async def each_applied_once_in_order(cluster: Cluster, tables: list[str], per_table: int) -> None:
    """Every table's postings applied once each, in order, and the books' invariants hold."""
    rows = await fetch(
        cluster.settings,
        "SELECT table_id, count(*) AS n, count(DISTINCT posting_no) AS numbers,"
        " max(posting_no) AS last FROM ledger.postings WHERE table_id = ANY($1::text[])"
        " GROUP BY table_id",
        tables,
    )
    progress = await fetch(
        cluster.settings,
        "SELECT table_id, posting_no FROM ledger.table_progress WHERE table_id = ANY($1::text[])",
        tables,
    )
    assert {r["table_id"]: (r["n"], r["numbers"], r["last"]) for r in rows} == dict.fromkeys(
        tables, (per_table, per_table, per_table)
    )
    assert {r["table_id"]: r["posting_no"] for r in progress} == dict.fromkeys(tables, per_table)
    moved = per_table * (per_table + 1) // 2
    grant = cluster.settings.starting_grant
    async with ledger_client(cluster.settings) as ledger:
        for table in tables:
            for player, balance in ((f"{table}-p", grant - moved), (f"{table}-q", grant + moved)):
                reply = (await ledger.get(f"/players/{player}/balance")).json()
                assert reply["balance"] == balance, (player, reply)
        health = await ledger.get("/health")
        assert health.status_code == 200, health.json()


async def test_the_ledger_applies_every_posting_once_while_its_connections_are_killed(
    cluster: Cluster,
) -> None:
    run = secrets.token_hex(3)
    tables = [f"trouble-{run}-{k}" for k in range(TABLES)]
    await seat_players(cluster, tables)
    bus = await RabbitBus.connect(
        cluster.settings.amqp_url_for("table"), cluster.settings.topology, robust=False
    )
    kills = 0
    try:
        async with server(cluster) as admin:
            per_round = POSTINGS_PER_TABLE // ROUNDS
            for round_no in range(ROUNDS):
                numbers = range(round_no * per_round + 1, (round_no + 1) * per_round + 1)
                # The round's postings queue up behind a lock on the books, so that the first
                # kill finds the ledger in the middle of applying one, however fast it is.
                async with books_held(cluster):
                    for number in numbers:
                        for table in tables:
                            await bus.publish_posting(posting(table, number))
                    await eventually(
                        lambda: ledger_waiting(admin, cluster),
                        "the ledger waiting on the books",
                        WITHIN,
                    )
                    kills += await terminate(admin, cluster, "swick-ledger")
                target = len(tables) * numbers[-1]
                # Kill the ledger's connections while it applies the round, again after each
                # step of progress, until the round is in.
                while (done := await applied(cluster, tables)) < target:
                    kills += await terminate(admin, cluster, "swick-ledger")

                    async def progressed(before: int = done) -> bool:
                        return await applied(cluster, tables) > before

                    await eventually(
                        progressed, f"the ledger applying past {done} of {target}", WITHIN
                    )
    finally:
        await bus.close()
    assert kills >= ROUNDS  # the ledger's connections were killed in every round
    await each_applied_once_in_order(cluster, tables, POSTINGS_PER_TABLE)
    assert await status(cluster.settings.ledger_url, "/readyz") == 200
    assert await consumers(cluster, cluster.settings.topology.postings) >= 1


async def test_the_ledger_is_not_ready_while_its_database_refuses_it_and_then_catches_up(
    cluster: Cluster,
) -> None:
    run = secrets.token_hex(3)
    tables = [f"refused-{run}-{k}" for k in range(3)]
    await seat_players(cluster, tables)
    ledger = cluster.settings.ledger_url

    async def ready() -> bool:
        return await status(ledger, "/readyz") == 200

    async def not_ready() -> bool:
        return await status(ledger, "/readyz") == 503

    await eventually(ready, "the ledger ready", WITHIN)
    bus = await RabbitBus.connect(
        cluster.settings.amqp_url_for("table"), cluster.settings.topology, robust=False
    )
    try:
        async with server(cluster) as admin:
            async with refusing_connections(admin, cluster, "swick-ledger"):
                for number in range(1, 11):
                    for table in tables:
                        await bus.publish_posting(posting(table, number))
                await eventually(not_ready, "/readyz saying 503 while the database refuses", WITHIN)

            async def all_applied() -> bool:
                return await applied(cluster, tables) == 10 * len(tables)

            await eventually(all_applied, "the postings published meanwhile applied", WITHIN)
    finally:
        await bus.close()
    await eventually(ready, "the ledger ready again", WITHIN)
    await each_applied_once_in_order(cluster, tables, 10)
    assert await consumers(cluster, cluster.settings.topology.postings) >= 1


async def test_a_posting_that_keeps_failing_is_dead_lettered_and_the_rest_go_on(
    cluster: Cluster,
) -> None:
    """A valid posting the database refuses every time (here a trigger refuses its table's
    postings) is dead-lettered with its reason after a few attempts, counted on /health and
    listed by /problems, while other tables' postings are applied."""
    run = secrets.token_hex(3)
    poison_table, good_table = f"poison-{run}", f"good-{run}"
    await seat_players(cluster, [poison_table, good_table])
    conn = await asyncpg.connect(cluster.settings.database_url)
    await conn.execute(
        "CREATE FUNCTION ledger.refuse_poison() RETURNS trigger LANGUAGE plpgsql AS"
        " $$BEGIN RAISE EXCEPTION 'refused by the test'; END$$"
    )
    await conn.execute(
        "CREATE TRIGGER refuse_poison BEFORE INSERT ON ledger.postings FOR EACH ROW"
        f" WHEN (NEW.table_id = '{poison_table}') EXECUTE FUNCTION ledger.refuse_poison()"
    )
    bus = await RabbitBus.connect(
        cluster.settings.amqp_url_for("table"), cluster.settings.topology, robust=False
    )
    try:
        async with ledger_client(cluster.settings) as ledger:
            dead_before = (await ledger.get("/health")).json()["dead_letters"]
            await bus.publish_posting(posting(poison_table, 1))
            for number in range(1, 6):
                await bus.publish_posting(posting(good_table, number))

            async def good_applied() -> bool:
                return await applied(cluster, [good_table]) == 5

            async def dead_lettered() -> bool:
                health = (await ledger.get("/health")).json()
                return bool(health["dead_letters"] > dead_before and health["attention"])

            await eventually(good_applied, "the other table's postings applied", WITHIN)
            await eventually(dead_lettered, "the failing posting dead-lettered", WITHIN)
            problems = (await ledger.get("/problems")).json()["dead_letters"]
            reasons = [p["reason"] for p in problems if p["table_id"] == poison_table]
            assert len(reasons) == 1 and "failed 5 times" in reasons[0], problems
            assert "refused by the test" in reasons[0], reasons
            assert await applied(cluster, [poison_table]) == 0
    finally:
        await bus.close()
        # Leave the shared books as they were: no trigger, no dead letter to look at.
        await conn.execute("DROP TRIGGER refuse_poison ON ledger.postings")
        await conn.execute("DROP FUNCTION ledger.refuse_poison()")
        await conn.execute("DELETE FROM ledger.dead_postings WHERE table_id = $1", poison_table)
        await conn.close()
    assert await status(cluster.settings.ledger_url, "/readyz") == 200
    assert await consumers(cluster, cluster.settings.topology.postings) >= 1


async def test_lobby_requests_succeed_while_the_gateways_connections_are_killed(
    cluster: Cluster, players: list[Player]
) -> None:
    """Lobby reads keep answering while the gateway's connections are killed under them (a
    read cut short is asked again on a fresh connection), and table creation works after."""
    statuses: list[int] = []
    stop = asyncio.Event()

    async def browse(player: Player) -> None:
        while not stop.is_set():
            statuses.append((await player.http("GET", "/api/tables")).status_code)

    async with server(cluster) as admin, asyncio.TaskGroup() as tasks:
        for player in players:
            tasks.create_task(browse(player))
        try:
            for _ in range(10):
                seen = len(statuses)

                async def browsed(before: int = seen) -> bool:
                    return len(statuses) >= before + 10

                await eventually(browsed, "the lobby answering", WITHIN)
                assert await terminate(admin, cluster, "swick-gateway") >= 1
        finally:
            stop.set()
    assert statuses and set(statuses) == {200}, sorted(set(statuses))
    await open_table(players[:1], seats=3)  # the lobby's table creation writes to it


async def test_a_game_goes_on_while_the_table_workers_connections_are_killed(
    cluster: Cluster, players: list[Player]
) -> None:
    """The workers' lease and append connections killed again and again during play: the game
    goes on, its log has every command once with no gap, the ledger agrees with the table, and
    no worker died of it."""
    workers = cluster.running("table")
    alice = players[0]
    table = await started(players)
    rng = random.Random(11)
    async with server(cluster) as admin:
        for _ in range(8):
            seq = alice.views[table]["seq"]
            await play(players, table, rng, seen_at_least(seq + 4), within=30)
            assert await terminate(admin, cluster, "swick-table") >= 1
    await play(players, table, rng, between_hands(2), within=30)
    await check_log(cluster, table, alice.views[table]["seq"])
    await ledger_agrees(cluster, table, players)
    assert [worker.poll() for worker in workers] == [None] * len(workers)
