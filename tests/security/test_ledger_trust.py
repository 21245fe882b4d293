"""The ledger trusts no message blindly, and chips cannot be farmed (docs/chips.md).

Against the real PostgreSQL and RabbitMQ: postings published by anyone but the tables' broker
user are dropped; forged postings from the tables' side (minting from the bank, draining a
stranger's wallet, another table's accounts, the house, 2**63) are dead-lettered and change
nothing, take no place in their table's order, and do not stop other tables; a conflicting
duplicate is recorded loudly and never applied. The ledger's HTTP API answers only holders of
its credentials. Sign-ups from one address bring at most the configured number of grants, and
bots are staked by the house, never minted.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import replace
from pathlib import Path

import aio_pika
import httpx
import pytest
from aio_pika.exceptions import ChannelClosed

from services.gateway.app import create_app as gateway_app
from services.gateway.signups import PostgresSignups, SignupLimit, SqliteSignups
from services.ledger.app import consume
from services.ledger.ledger import Ledger
from services.ledger.metrics import LedgerMetrics
from services.ledger.rules import BANK, wallet
from services.load.platform import Platform, isolated
from services.serve import refuse_public_defaults
from services.table.store import TableStore
from services.table.store_sqlite import SqliteTableStore
from shared.bus import RabbitBus, url_user
from shared.memory_bus import MemoryBus
from shared.messages import HOUSE, Leg, Posting
from shared.settings import (
    DEV_LEDGER_CLOSE_TOKEN,
    DEV_LEDGER_READ_TOKEN,
    DEV_LEDGER_TOKEN,
    Settings,
)
from shared.sqlite import Database
from tests.contract.conftest import leg, posting, sit, uid
from tests.postgres_ledger import fresh_ledger
from tests.services.client import registered

GRANT = 4000


async def eventually(check: Callable[[], Awaitable[bool]], within: float = 30.0) -> None:
    """Wait until ``check()`` holds (the consumer works in its own time)."""
    deadline = time.monotonic() + within
    while not await check():
        assert time.monotonic() < deadline, "the condition never held"
        await asyncio.sleep(0.05)


def handled(metrics: LedgerMetrics, outcome: str) -> float:
    value = metrics.registry.get_sample_value("swick_ledger_postings_total", {"outcome": outcome})
    return value or 0.0


# The ledger's consumer on a namespace (with its broker users) and books of their own.


@pytest.fixture(scope="session")
async def trust(service_urls: tuple[str, str]) -> AsyncIterator[Settings]:
    """A namespace whose postings no running ledger takes but this module's."""
    async with isolated(*service_urls, label="trust") as fresh:
        yield fresh


@pytest.fixture
async def books(settings: Settings) -> AsyncIterator[Ledger]:
    async with fresh_ledger(settings, GRANT, label="trust", pool_size=4) as ledger:
        yield ledger


@pytest.fixture
def metrics() -> LedgerMetrics:
    return LedgerMetrics()


@pytest.fixture
async def bus(trust: Settings, books: Ledger, metrics: LedgerMetrics) -> AsyncIterator[RabbitBus]:
    """The table workers' side of the bus (their broker user), with a ledger consuming the
    postings as its own user."""
    tables = await RabbitBus.connect(trust.amqp_url_for("table"), trust.topology)
    ledger = await RabbitBus.connect(trust.amqp_url_for("ledger"), trust.topology)
    consumer = asyncio.create_task(consume(ledger, books, metrics, trust.trusted_poster))
    try:
        yield tables
    finally:
        consumer.cancel()
        with contextlib.suppress(BaseException):
            await consumer
        await ledger.close()
        await tables.close()
        await purge(trust)


async def purge(settings: Settings) -> None:
    """Leave the next test an empty postings queue."""
    connection = await aio_pika.connect(settings.amqp_url)
    async with connection:
        channel = await connection.channel()
        queue = await channel.get_queue(settings.topology.postings)
        await queue.purge()


async def publish(bus: RabbitBus, *postings: Posting) -> None:
    """Publish as the tables do (with this connection's user, which the broker checks)."""
    for item in postings:
        await bus.publish_posting(item.model_dump_json().encode())


async def progress(ledger: Ledger, table: str) -> int:
    return int((await ledger.reconciliation(table))["postings_applied"])


async def balances(ledger: Ledger, *players: str) -> list[int | None]:
    return [await ledger.balance(p) for p in players]


async def test_postings_from_anyone_but_the_tables_user_are_dropped(
    trust: Settings, books: Ledger, bus: RabbitBus, metrics: LedgerMetrics
) -> None:
    table, ann = uid("t"), uid("ann")
    await sit(books, table, ann)
    forged = posting(table, 1, [leg(wallet(ann), f"pot:{table}", 3000, "ante")])
    body = forged.model_dump_json().encode()
    postings = trust.topology.postings
    # The other services' and the bots' users may not publish postings at all, whether as
    # themselves or naming the tables' user: the broker refuses.
    for role in ("gateway", "ledger", "bot-easy"):
        url = trust.amqp_url_for(role)
        for user in (url_user(url), trust.topology.user("table")):
            connection = await aio_pika.connect(url)
            async with connection:
                channel = await connection.channel()
                exchange = await channel.get_exchange(postings, ensure=False)
                with pytest.raises(ChannelClosed):
                    await exchange.publish(aio_pika.Message(body, user_id=user), postings)
    # An administrator may publish there, but is no table worker: dropped, logged, counted.
    dropped = handled(metrics, "forbidden")
    connection = await aio_pika.connect(trust.amqp_url)
    async with connection:
        channel = await connection.channel()
        exchange = await channel.get_exchange(postings, ensure=False)
        # As itself; and naming no user at all.
        for admin in (url_user(trust.amqp_url), None):
            await exchange.publish(aio_pika.Message(body, user_id=admin), postings)

    async def both_dropped() -> bool:
        return handled(metrics, "forbidden") >= dropped + 2

    await eventually(both_dropped)
    assert (await progress(books, table), await books.balance(ann)) == (0, GRANT)
    real = posting(table, 1, [leg(wallet(ann), f"pot:{table}", 10, "ante")])
    await publish(bus, real)

    async def applied() -> bool:
        return await progress(books, table) == 1

    await eventually(applied)
    assert await books.balance(ann) == GRANT - 10
    health = await books.check()
    assert (health.ok, health.conflicts, health.dead_letters) == (True, 0, 0)


async def test_in_one_process_too_the_ledger_takes_postings_only_from_the_tables(
    books: Ledger, metrics: LedgerMetrics
) -> None:
    """Embedded mode: each service's handle on the in-process bus stamps its own user."""
    own = Settings(namespace=f"embedded-{secrets.token_hex(4)}")
    t = own.topology
    bus = MemoryBus(t)
    ledger = bus.as_user(t.user("ledger"))
    consumer = asyncio.create_task(consume(ledger, books, metrics, own.trusted_poster))
    try:
        table, ann = uid("t"), uid("ann")
        await sit(books, table, ann)
        forged = posting(table, 1, [leg(wallet(ann), f"pot:{table}", 3000, "ante")])
        for handle in (bus, bus.as_user(t.user("gateway")), bus.as_user(t.bot_user("easy"))):
            await handle.publish_posting(forged.model_dump_json().encode())

        async def all_dropped() -> bool:
            return handled(metrics, "forbidden") == 3

        await eventually(all_dropped)
        assert (await progress(books, table), await books.balance(ann)) == (0, GRANT)
        real = posting(table, 1, [leg(wallet(ann), f"pot:{table}", 10, "ante")])
        await bus.as_user(t.user("table")).publish_posting(real.model_dump_json().encode())

        async def applied() -> bool:
            return await progress(books, table) == 1

        await eventually(applied)
        assert await books.balance(ann) == GRANT - 10
    finally:
        consumer.cancel()
        with contextlib.suppress(BaseException):
            await consumer


def forgeries(table: str, elsewhere: str, ann: str, victim: str) -> dict[str, Posting]:
    """The findings, each as a posting taking ``table``'s next number."""

    def at(*legs: Leg) -> Posting:
        return posting(table, 1, legs)

    return {
        "mints 1,000,000¢": at(leg(BANK, wallet(ann), 1_000_000, "grant")),
        "drains a stranger": at(leg(wallet(victim), f"pot:{table}", 10_000, "set_1")),
        "pays a stranger": at(leg(f"pot:{table}", wallet(victim), 1, "trick_payout")),
        "moves another table's pot": at(leg(f"pot:{elsewhere}", wallet(ann), 40, "trick_payout")),
        "takes from the house": at(leg(HOUSE, wallet(ann), 500, "stake")),
        "moves 2**63": at(leg(wallet(ann), f"carry:{table}", 2**63, "set_1")),
        "moves 0": at(leg(wallet(ann), f"pot:{table}", 0, "ante")),
        "names no table": posting("", 1, [leg(BANK, wallet(ann), 10**6, "grant")]).model_copy(
            update={"id": f"grant:{ann}-again"}
        ),
        "hand 2**40": posting(
            table, 1, [leg(wallet(ann), f"pot:{table}", 1, "ante")], hand_no=2**40
        ),
        "a NUL in a name": posting(
            table, 1, [leg(wallet(ann), f"pot:{table}", 1, "ante")], names={ann: "A\x00"}
        ),
        "a NUL in its table": posting(f"{table}\x00", 1, [leg(wallet(ann), "pot:t", 1, "ante")]),
        "renames a stranger": posting(
            table, 1, [leg(wallet(ann), f"pot:{table}", 1, "ante")], names={victim: "Mallory"}
        ),
    }


async def test_forged_postings_are_set_aside_and_change_nothing(
    books: Ledger, bus: RabbitBus
) -> None:
    table, elsewhere = uid("t"), uid("elsewhere")
    ann, bob, victim = uid("ann"), uid("bob"), uid("victim")
    await sit(books, table, ann, bob)
    await sit(books, elsewhere, victim)
    await books.apply(posting(elsewhere, 1, [leg(wallet(victim), f"pot:{elsewhere}", 40, "ante")]))
    before = (await balances(books, ann, bob, victim), await books.house())
    forged = forgeries(table, elsewhere, ann, victim)
    await publish(bus, *forged.values())

    async def all_set_aside() -> bool:
        return (await books.check()).dead_letters == len(forged)

    await eventually(all_set_aside)
    assert (await balances(books, ann, bob, victim), await books.house()) == before
    health = await books.check()
    assert health.ok and health.debits == health.credits and health.issued_outside_grants == 0
    assert table in health.blocked_tables  # its posting 1 so far is only a dead letter
    reasons = {d["reason"] for d in (await books.problems())["dead_letters"]}
    assert "a posting with a NUL character" in reasons
    assert any("never sat at table" in r for r in reasons)
    assert any("not 1 to 1000000000" in r for r in reasons)
    # The forgeries took no place: the table's real posting 1 applies.
    await publish(bus, posting(table, 1, [leg(wallet(bob), f"pot:{table}", 10, "ante")]))

    async def real_applied() -> bool:
        return await progress(books, table) == 1

    await eventually(real_applied)
    assert await balances(books, ann, bob) == [GRANT, GRANT - 10]
    assert table not in (await books.check()).blocked_tables


async def test_an_invalid_posting_blocks_its_table_loudly_and_no_other(
    books: Ledger, bus: RabbitBus
) -> None:
    stuck, busy, ann, bob = uid("stuck"), uid("busy"), uid("ann"), uid("bob")
    await sit(books, stuck, ann)
    await sit(books, busy, bob)
    await publish(
        bus,
        posting(stuck, 1, [leg(wallet(ann), f"pot:{stuck}", 2**63, "ante")]),
        posting(stuck, 2, [leg(wallet(ann), f"pot:{stuck}", 5, "ante")]),
        *(posting(busy, n, [leg(wallet(bob), f"pot:{busy}", n, "ante")]) for n in (1, 2, 3)),
    )

    async def busy_flowed() -> bool:
        health = await books.check()
        return await progress(books, busy) == 3 and health.blocked_tables == [stuck]

    await eventually(busy_flowed)
    assert (await progress(books, stuck), await books.balance(ann)) == (0, GRANT)
    assert await books.balance(bob) == GRANT - 6
    health = (await books.check()).as_dict()
    assert (health["ok"], health["attention"], health["dead_letters"]) == (True, True, 1)
    [dead] = (await books.problems())["dead_letters"]
    assert (dead["table_id"], dead["posting_no"]) == (stuck, 1)


async def test_a_conflicting_duplicate_is_loud_and_never_applied(
    books: Ledger, bus: RabbitBus, metrics: LedgerMetrics
) -> None:
    table, ann = uid("t"), uid("ann")
    await sit(books, table, ann)
    real = posting(table, 1, [leg(wallet(ann), f"pot:{table}", 10, "ante")])
    other = posting(table, 1, [leg(wallet(ann), f"pot:{table}", 3000, "ante")])
    conflicts = handled(metrics, "conflict")
    await publish(bus, real)

    async def applied() -> bool:
        return await progress(books, table) == 1

    await eventually(applied)
    await publish(bus, other, real)  # another body under number 1, and a plain redelivery

    async def counted() -> bool:
        return handled(metrics, "conflict") >= conflicts + 1 and handled(metrics, "duplicate") >= 1

    await eventually(counted)
    assert await books.balance(ann) == GRANT - 10
    health = await books.check()
    assert (health.ok, health.conflicts, health.as_dict()["attention"]) == (True, 1, True)
    [conflict] = (await books.problems())["conflicts"]
    assert conflict["posting_no"] == 1 and conflict["digest"] != conflict["applied_digest"]


# The ledger's HTTP API.


async def test_the_ledger_api_needs_its_credentials(cluster: Platform) -> None:
    s = cluster.settings
    reads = ["/players/p-1/balance", "/players/p-1/transfers", "/leaderboard"]
    reads += ["/tables/t-1/reconciliation", "/problems", "/house"]
    seat = ("/wallets/p-mallory/seat", {"name": "Mallory", "table_id": "t-1"})
    async with httpx.AsyncClient(base_url=s.ledger_url) as http:
        for headers in ({}, {"Authorization": "Bearer wrong"}, s.ledger_auth()):
            reply = await http.post(seat[0], json=seat[1], headers=headers)
            assert reply.status_code == 401, (headers, reply.text)
        # Closing a wallet takes the closing credential: neither the read nor the service one.
        closing = {"Authorization": f"Bearer {s.ledger_close_token}"}
        for headers in ({}, s.ledger_auth(), s.ledger_auth(write=True)):
            reply = await http.post("/wallets/p-mallory/close", json={}, headers=headers)
            assert reply.status_code == 401, (headers, reply.text)
        for path in [*reads, "/players/p-1/balance"]:
            for headers in ({}, {"Authorization": "Bearer wrong"}, closing):
                reply = await http.get(path, headers=headers)
                assert reply.status_code == 401, (path, headers)
        reply = await http.post(seat[0], json=seat[1], headers=closing)
        assert reply.status_code == 401  # the closing credential seats no one
        for path in reads:
            for headers in ({}, {"Authorization": "Bearer wrong"}, s.ledger_auth(write=True)):
                reply = await http.get(path, headers=headers)
                assert reply.status_code == 401, (path, headers)
            assert (await http.get(path, headers=s.ledger_auth())).status_code in (200, 404)
        assert (
            await http.get("/players/p-mallory/balance", headers=s.ledger_auth())
        ).status_code == 404  # the refused seat opened nothing
        health = await http.get("/health")
        assert health.status_code == 200
        assert not {"players", "balances", "names"} & set(health.json())
        for probe in ("/healthz", "/readyz"):
            assert (await http.get(probe)).status_code == 200


def test_no_service_starts_off_loopback_with_a_development_credential(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # The ledger's credentials are development ones; it is on another machine.
    dev = Settings(secret=secrets.token_hex(16), ledger_url="http://swick-ledger:8001")
    real = replace(
        dev,
        ledger_token=secrets.token_hex(16),
        ledger_read_token=secrets.token_hex(16),
        ledger_close_token=secrets.token_hex(16),
    )
    for service in ("ledger", "table", "gateway"):
        for host in ("127.0.0.1", "::1"):
            refuse_public_defaults(service, dev, host)
        refuse_public_defaults(service, real, "0.0.0.0")
        weak_ones: tuple[Settings, ...] = (
            dev,
            replace(real, ledger_token="", ledger_read_token=""),
        )
        if service != "table":  # the closing credential is the ledger's and the gateways'
            weak_ones += (replace(real, ledger_close_token=""),)
        for weak in weak_ones:
            with pytest.raises(SystemExit) as stopped:
                refuse_public_defaults(service, weak, "10.1.2.3")
            assert stopped.value.code == 2
            assert "SWICK_LEDGER" in capsys.readouterr().err
    # A gateway or table worker whose ledger is on loopback (swick up) needs no credential.
    for service in ("table", "gateway"):
        refuse_public_defaults(service, replace(dev, ledger_url="http://127.0.0.1:8001"), "::")
    assert len({DEV_LEDGER_TOKEN, DEV_LEDGER_READ_TOKEN, DEV_LEDGER_CLOSE_TOKEN}) == 3
    started = subprocess.run(
        [sys.executable, "-m", "services.cli", "serve", "ledger", "--host", "0.0.0.0"],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "SWICK_LEDGER_READ_TOKEN": "r" * 32},
        cwd=Path(__file__).resolve().parents[2],
    )
    assert started.returncode == 2
    assert (
        started.stderr.strip()
        .splitlines()[-1]
        .startswith("SWICK_LEDGER_TOKEN is a published development or placeholder value")
    )


# Grants.


async def test_two_hundred_sign_ups_from_one_address_bring_at_most_the_limit(
    settings: Settings, books: Ledger
) -> None:
    limited = replace(settings, grants_per_address=3, namespace=f"grants-{secrets.token_hex(4)}")
    store = TableStore(books.pool)
    await store.migrate(limited.shards)
    app = gateway_app(limited, bus=MemoryBus(limited.topology), store=store)
    async with app.router.lifespan_context(app):

        async def sign_up(address: str, name: str) -> httpx.Response:
            transport = httpx.ASGITransport(app=app, client=(address, 40000))
            async with httpx.AsyncClient(transport=transport, base_url="http://gw") as http:
                return await http.post("/api/players", json={"name": name})

        replies = await asyncio.gather(
            *(sign_up("198.51.100.7", f"Farmer {n}") for n in range(200))
        )
        assert sorted(r.status_code for r in replies) == [200] * 3 + [429] * 197
        refused = next(r for r in replies if r.status_code == 429)
        assert "at most 3 every 24 hours" in refused.json()["detail"]
        assert (await sign_up("198.51.100.8", "Neighbour")).status_code == 200
        assert (await sign_up("198.51.100.7", "x")).status_code == 422  # the name is checked first
    # Every player that got a token sits down: those are all the grants there can be.
    table = uid("farm")
    for reply in (r for r in replies if r.status_code == 200):
        await books.seat(reply.json()["id"], "", False, None, table)
    bank = await books.pool.fetchval("SELECT debits FROM ledger.accounts WHERE name = $1", BANK)
    assert bank == 3 * GRANT
    assert (await books.check()).ok


@pytest.mark.parametrize("backend", ["postgres", "sqlite"])
async def test_the_limit_is_per_period_and_holds_under_concurrency(
    backend: str, books: Ledger, tmp_path: Path
) -> None:
    now = [1_000_000.0]
    db = await Database.open(tmp_path / "signups.db")
    try:
        # The table store's migrations create the sign-ups' table.
        if backend == "postgres":
            await TableStore(books.pool).migrate(8)
        else:
            await SqliteTableStore(db).migrate(8)
        counter = PostgresSignups(books.pool) if backend == "postgres" else SqliteSignups(db)
        limit = SignupLimit(counter, 2, 3600.0, clock=lambda: now[0])
        address = f"203.0.113.{secrets.randbelow(250)}-{uid('a')}"
        admitted = await asyncio.gather(*(limit.admit(address) for _ in range(50)))
        assert admitted.count(True) == 2
        now[0] += 3599
        assert not await limit.admit(address)
        now[0] += 2  # the first two are more than an hour old now
        assert [await limit.admit(address) for _ in range(3)] == [True, True, False]
        assert await limit.admit(f"{address}-other")
    finally:
        await db.close()


# Bots.


async def test_bots_are_staked_by_the_house_never_minted(books: Ledger) -> None:
    table, ann = uid("t"), uid("ann")
    bots = [f"bot:{table}:{seat}" for seat in (1, 2)]
    await sit(books, table, ann)
    for bot in bots:
        assert await books.seat(bot, "Made-up bot", True, None, table) == GRANT
        assert await books.seat(bot, "Made-up bot", True, None, table) == GRANT  # once
    assert await books.house() == {
        "staked": 2 * GRANT,
        "returned": 0,
        "closed": 0,
        "balance": -2 * GRANT,
        "held_by_bots": 2 * GRANT,
        "result": 0,
    }
    pot = f"pot:{table}"
    antes = [leg(wallet(p), pot, 100, "ante") for p in (ann, *bots)]
    await books.apply(posting(table, 1, antes, bots=tuple(bots)))
    await books.apply(posting(table, 2, [leg(pot, wallet(ann), 300, "trick_payout")]))
    house = await books.house()
    assert (house["held_by_bots"], house["result"]) == (2 * GRANT - 200, -200)
    bank = await books.pool.fetchval("SELECT debits FROM ledger.accounts WHERE name = $1", BANK)
    assert bank == GRANT  # only Ann's grant
    health = await books.check()
    assert health.ok and health.debits == health.credits and health.issued_outside_grants == 0


async def test_quick_play_bots_come_from_the_house(cluster: Platform) -> None:
    player = await registered(cluster.base, "House guest")
    reply = await player.http("POST", "/api/quickplay")
    assert reply.status_code == 200, reply.text
    s = cluster.settings
    bot = f"bot:{reply.json()['id']}:1"
    async with httpx.AsyncClient(base_url=s.ledger_url, headers=s.ledger_auth()) as http:

        async def staked() -> bool:
            return (await http.get(f"/players/{bot}/balance")).status_code == 200

        await eventually(staked)
        house = (await http.get("/house")).json()
        assert house["staked"] >= 2 * s.starting_grant
        assert house["balance"] == house["returned"] + house["closed"] - house["staked"]
        health = (await http.get("/health")).json()
        assert health["ok"] and health["issued_outside_grants"] == 0
        history = (await http.get(f"/players/{bot}/transfers")).json()["transfers"]
        assert [t["code"] for t in history][-1] == "stake"
    admin = {"Authorization": f"Bearer {s.admin_token}"}
    async with httpx.AsyncClient(base_url=cluster.base, headers=admin) as http:
        status = (await http.get("/admin/status")).json()
    assert status["house"]["staked"] >= 2 * s.starting_grant
    assert set(status["ledger_problems"]) == {"dead_letters", "conflicts"}
    assert {"dead_letters", "conflicts", "blocked_tables"} <= set(status["ledger"])
