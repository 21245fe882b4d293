"""Least privilege on the bus, proved with real connections as each broker user.

A bot's user may read its own turns and write the bots' actions exchange, nothing else: it
cannot watch a table's updates, read another bot's turns, publish a posting, a request or
straight into a shard queue, or stamp its messages with another user. And what it may send,
the table takes only for the seats of its own bot name: the attack of a bots process that
reads a person's hand and then acts in their name fails, and the table stays as it was.
"""

from __future__ import annotations

import asyncio
import secrets
import stat
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import aio_pika
import asyncpg
import pytest
from aio_pika.abc import AbstractChannel, AbstractConnection
from aiormq.exceptions import ChannelAccessRefused

from services.broker import (
    BUILT_IN_BOTS,
    kept_passwords,
    passwords_from,
    register_bot,
    roles,
    setup,
)
from shared import messages as m
from shared.broker import BrokerSetupError, administrator, definitions, users_of
from shared.bus import RabbitBus, Topology, shard_of
from shared.settings import Settings, role_variable, with_credentials
from tests.services.client import Player, registered
from tests.services.cluster import Cluster
from tests.services.play import act, watch_when_created


@pytest.fixture(scope="module")
async def spy(cluster: Cluster) -> tuple[str, str]:
    """A third-party bot account, as an operator registers it: (name, broker URL)."""
    settings = cluster.settings
    name = f"spy-{secrets.token_hex(3)}"
    url = await register_bot(settings, name, "Mallory", administrator(settings.rabbitmq_api))
    return name, url


@pytest.fixture
async def connection(spy: tuple[str, str]) -> AsyncIterator[AbstractConnection]:
    """The spy's own connection, as its bots process would open it."""
    connection = await aio_pika.connect(spy[1])
    try:
        yield connection
    finally:
        await connection.close()


async def refused(
    connection: AbstractConnection, attempt: Callable[[AbstractChannel], Awaitable[Any]]
) -> None:
    """``attempt`` on a channel of its own is refused by the broker (403)."""
    channel = await connection.channel(publisher_confirms=True)
    with pytest.raises(ChannelAccessRefused):
        await attempt(channel)


def message(body: bytes = b"{}", **properties: Any) -> aio_pika.Message:
    return aio_pika.Message(body, delivery_mode=aio_pika.DeliveryMode.PERSISTENT, **properties)


async def test_a_bot_cannot_watch_a_tables_updates(
    cluster: Cluster, spy: tuple[str, str], connection: AbstractConnection
) -> None:
    t = cluster.settings.topology
    name, _ = spy

    async def bind_own_queue(channel: AbstractChannel) -> None:
        queue = await channel.get_queue(t.bot_queue(name), ensure=True)
        await queue.bind(t.updates, routing_key="table.#")

    async def declare_a_queue(channel: AbstractChannel) -> None:
        await channel.declare_queue(exclusive=True)

    async def declare_a_gateway_queue(channel: AbstractChannel) -> None:
        await channel.declare_queue(t.gateway_queue("mine"), exclusive=True)

    for attempt in (bind_own_queue, declare_a_queue, declare_a_gateway_queue):
        await refused(connection, attempt)


async def test_a_bot_cannot_publish_postings_requests_or_into_a_shard(
    cluster: Cluster, connection: AbstractConnection
) -> None:
    t = cluster.settings.topology

    def to_exchange(name: str, key: str) -> Callable[[AbstractChannel], Awaitable[Any]]:
        async def publish(channel: AbstractChannel) -> None:
            exchange = await channel.get_exchange(name, ensure=False)
            await exchange.publish(message(), routing_key=key)

        return publish

    def to_queue(queue: str) -> Callable[[AbstractChannel], Awaitable[Any]]:
        async def publish(channel: AbstractChannel) -> None:
            await channel.default_exchange.publish(message(), routing_key=queue)

        return publish

    for attempt in (
        to_exchange(t.postings, t.postings),
        to_queue(t.postings),
        to_exchange(t.requests, "0"),
        to_queue(t.shard_queue(0)),
        to_exchange(t.updates, "table.t-x"),
        to_exchange(t.bots, "easy"),
        to_exchange(t.bot_actions("easy"), ""),  # another bot's actions
        to_queue(t.bot_actions("easy")),
    ):
        await refused(connection, attempt)


async def test_a_bot_cannot_read_another_bots_turns(
    cluster: Cluster, spy: tuple[str, str], connection: AbstractConnection
) -> None:
    t = cluster.settings.topology

    async def consume(queue_name: str) -> Callable[[AbstractChannel], Awaitable[Any]]:
        async def attempt(channel: AbstractChannel) -> None:
            queue = await channel.get_queue(queue_name, ensure=True)
            await queue.get(fail=False)

        return attempt

    for other in ("easy", "hard"):
        await refused(connection, await consume(t.bot_queue(other)))
    await refused(connection, await consume(t.shard_queue(0)))
    await refused(connection, await consume(t.postings))
    own = await connection.channel()
    queue = await own.get_queue(t.bot_queue(spy[0]), ensure=True)
    await queue.get(fail=False)  # its own turns: allowed


async def test_no_user_can_stamp_its_messages_with_another(
    cluster: Cluster, spy: tuple[str, str], connection: AbstractConnection
) -> None:
    t = cluster.settings.topology
    channel = await connection.channel(publisher_confirms=True)
    exchange = await channel.get_exchange(t.bot_actions(spy[0]), ensure=False)
    with pytest.raises(aio_pika.exceptions.ChannelPreconditionFailed):
        await exchange.publish(message(user_id=t.user("gateway")), routing_key="0")


async def test_the_other_services_users_are_scoped_too(cluster: Cluster) -> None:
    s = cluster.settings
    t = s.topology

    async def publish_to(name: str, key: str) -> Callable[[AbstractChannel], Awaitable[Any]]:
        async def attempt(channel: AbstractChannel) -> None:
            exchange = await channel.get_exchange(name, ensure=False)
            await exchange.publish(message(), routing_key=key)

        return attempt

    async def read(queue_name: str) -> Callable[[AbstractChannel], Awaitable[Any]]:
        async def attempt(channel: AbstractChannel) -> None:
            queue = await channel.get_queue(queue_name, ensure=True)
            await queue.get(fail=False)

        return attempt

    gateway = await aio_pika.connect(s.amqp_url_for("gateway"))
    ledger = await aio_pika.connect(s.amqp_url_for("ledger"))
    table = await aio_pika.connect(s.amqp_url_for("table"))
    try:
        await refused(gateway, await publish_to(t.postings, t.postings))
        await refused(gateway, await publish_to(t.bot_actions("easy"), ""))
        await refused(gateway, await read(t.shard_queue(0)))
        await refused(gateway, await read(t.bot_queue("easy")))
        await refused(ledger, await publish_to(t.postings, t.postings))
        await refused(ledger, await read(t.shard_queue(0)))
        await refused(table, await publish_to(t.bot_actions("easy"), ""))
        await refused(table, await read(t.postings))
        await refused(table, await read(t.bot_queue("easy")))
    finally:
        for connection in (gateway, ledger, table):
            await connection.close()


# The demo: a bots process reads a person's hand, then acts in their name.


async def next_turn(
    queue: aio_pika.abc.AbstractQueue, alice: Player, table: str, within: float = 60.0
) -> tuple[m.BotTurn, aio_pika.abc.AbstractIncomingMessage]:
    """The spy's next turn; meanwhile Alice plays whatever falls to her."""
    deadline = time.monotonic() + within
    while True:
        got = await queue.get(fail=False, no_ack=True)
        if got is not None:
            return m.BotTurn.model_validate_json(got.body), got
        if alice.my_turn(table):
            option = next(o["action"] for o in alice.views[table]["options"] if o["legal"])
            await act(alice, table, option)
        assert time.monotonic() < deadline, "the spy's turn never came"
        await asyncio.sleep(0.05)


async def logged_action_ids(settings: Settings, table: str) -> list[str]:
    conn = await asyncpg.connect(settings.database_url)
    try:
        rows = await conn.fetch(
            "SELECT action_id FROM tables.events WHERE table_id = $1 ORDER BY seq", table
        )
    finally:
        await conn.close()
    return [row["action_id"] for row in rows]


async def until_logged(settings: Settings, table: str, action_id: str) -> list[str]:
    deadline = time.monotonic() + 30
    while action_id not in (logged := await logged_action_ids(settings, table)):
        assert time.monotonic() < deadline, f"{action_id} was never applied"
        await asyncio.sleep(0.1)
    return logged


async def test_a_bot_sees_its_own_seat_only_and_cannot_act_in_a_persons_name(
    cluster: Cluster, spy: tuple[str, str], connection: AbstractConnection
) -> None:
    s, t = cluster.settings, cluster.settings.topology
    name, _ = spy
    alice = await registered(cluster.base, "Alice")
    await alice.connect()
    reply = await alice.http(
        "POST",
        "/api/tables",
        json={"seats": 3, "timer_seconds": 60, "bots": {"1": name, "2": "easy"}, "start": True},
    )
    assert reply.status_code == 200, reply.text
    table = reply.json()["id"]
    await watch_when_created(alice, table)

    channel = await connection.channel(publisher_confirms=True)
    turns = await channel.get_queue(t.bot_queue(name), ensure=True)
    turn, delivered = await next_turn(turns, alice, table)
    # What the bot is given: its own seat's view, which holds its own hand and no other.
    assert turn.table_id == table and turn.seat == 1 and turn.bot == name
    assert turn.view["seat"] == 1
    assert len(turn.view["hand"]) == turn.view["seats"][1]["cards"]
    assert delivered.expiration is not None  # a turn nobody takes expires
    # Reading the person's view off the updates is refused (above); acting in their name:
    before = await logged_action_ids(s, table)
    actions = await channel.get_exchange(t.bot_actions(name), ensure=False)
    key = str(shard_of(table, t.shards))
    forged = [
        m.Act(
            table_id=table,
            request_id=f"forged-{k}",
            player_id=player,
            seq=turn.seq,
            action={"kind": "sit_out", "sitting_out": True},
        )
        for k, player in enumerate((alice.id, f"bot:{table}:2"))  # a person, another bot
    ]
    stamped = {"user_id": t.bot_user(name)}  # without it, the table takes nothing from anyone
    for request in forged:
        body = request.model_dump_json().encode()
        await actions.publish(message(body, **stamped), routing_key=key)
    # A gateway does not act for a bot's seat either.
    gateway = await RabbitBus.connect(s.amqp_url_for("gateway"), t)
    try:
        by_gateway = m.Act(
            table_id=table,
            request_id="forged-by-gateway",
            player_id=turn.player_id,
            seq=turn.seq,
            action={"kind": "sit_out", "sitting_out": True},
        )
        await gateway.request(table, by_gateway.model_dump_json().encode())
    finally:
        await gateway.close()
    # Then the spy's one legitimate act, for its own seat: once it is applied, the table has
    # handled everything sent before it on the same shard queue.
    legal = next(o["action"] for o in turn.view["options"] if o["legal"])
    own = m.Act(
        table_id=table,
        request_id=f"{turn.player_id}/turn-{turn.seq}",
        player_id=turn.player_id,
        seq=turn.seq,
        action=legal,
    )
    await actions.publish(message(own.model_dump_json().encode(), **stamped), routing_key=key)
    logged = await until_logged(s, table, own.request_id)
    assert [a for a in logged if a.startswith("forged")] == []
    assert logged[: len(before)] == before
    view = await alice.until(table, lambda v: v["seq"] >= len(logged))
    assert not view["seats"][0]["sitting_out"]
    assert not any(a.get("id", "").startswith("forged") for a in alice.answers.values())
    await alice.close()


async def test_tables_refuse_bot_names_nobody_registered(cluster: Cluster) -> None:
    host = await registered(cluster.base, "Hosty")
    reply = await host.http(
        "POST", "/api/tables", json={"seats": 3, "bots": {"1": "made-up", "2": "easy"}}
    )
    assert reply.status_code == 422
    assert "No bot named made-up" in reply.json()["detail"]
    assert (await host.http("GET", "/api/me")).json()["seated"] is None
    # Through the table's own add_bot too.
    await host.connect()
    reply = await host.http("POST", "/api/tables", json={"seats": 3})
    table = reply.json()["id"]
    await watch_when_created(host, table)
    answer = await act(host, table, {"kind": "add_bot", "seat": 1, "bot": "made-up"})
    assert answer["type"] == "reject" and answer["code"] == "unknown_bot", answer
    assert (await act(host, table, {"kind": "add_bot", "seat": 1, "bot": "easy"}))["type"] == "ack"
    await host.close()


async def test_a_bot_nobody_serves_leaves_no_growing_queue(cluster: Cluster) -> None:
    """Turns carry a time to live: those of a bot whose service is down expire."""
    s, t = cluster.settings, cluster.settings.topology
    name = f"idle-{secrets.token_hex(3)}"
    await register_bot(s, name, "Nobody", administrator(s.rabbitmq_api))
    table = await RabbitBus.connect(s.amqp_url_for("table"), t, robust=False)
    try:
        for seq in range(5):
            await table.publish_bot_turn(name, b"{}", ttl_ms=200 + seq)
        deadline = time.monotonic() + 30
        while (waiting := await table.depth(t.bot_queue(name))) > 0:
            assert time.monotonic() < deadline, f"{waiting} turns still wait"
            await asyncio.sleep(0.1)
    finally:
        await table.close()


# Setting up: the definitions file, the passwords, the bot accounts.


async def test_setup_loads_a_definitions_file_of_its_namespace_only(cluster: Cluster) -> None:
    s, t = cluster.settings, cluster.settings.topology
    admin = administrator(s.rabbitmq_api)
    passwords = passwords_from(s)  # the ones the running services use: loading is idempotent
    other = Topology("swick", 32)
    shipped = definitions(other, users=users_of(other, BUILT_IN_BOTS), bot_queues=BUILT_IN_BOTS)
    with pytest.raises(BrokerSetupError, match="not those of namespace"):
        await setup(s, passwords, admin, document=shipped)
    own = definitions(t, users=users_of(t, BUILT_IN_BOTS), bot_queues=BUILT_IN_BOTS)
    await setup(s, passwords, admin, document=own)
    connection = await aio_pika.connect(s.amqp_url_for("gateway"))
    await connection.close()
    with pytest.raises(BrokerSetupError, match="SWICK_AMQP_URL_GATEWAY"):
        passwords_from(Settings())


async def test_a_bot_name_is_registered_once_and_well_formed(
    cluster: Cluster, spy: tuple[str, str]
) -> None:
    s = cluster.settings
    admin = administrator(s.rabbitmq_api)
    for name, reason in ((spy[0], "is taken"), ("easy", "is taken"), ("Bad Name", "a bot name")):
        with pytest.raises(BrokerSetupError, match=reason):
            await register_bot(s, name, "Mallory", admin)
    connection = await aio_pika.connect(spy[1])  # the first registration's password still works
    await connection.close()


def test_setup_takes_each_password_from_its_own_users_url(settings: Settings) -> None:
    assert set(passwords_from(settings)) == set(roles())
    wrong = with_credentials(settings.amqp_url, "gateway", "secret")
    misnamed = replace(settings, amqp_urls={**settings.amqp_urls, role_variable("gateway"): wrong})
    with pytest.raises(BrokerSetupError, match=f"sign in as the user {settings.namespace}-gateway"):
        passwords_from(misnamed)


def test_swick_up_keeps_its_passwords_for_its_owner_only(tmp_path: Path) -> None:
    path = tmp_path / ".swick" / "broker.json"
    made = kept_passwords(path)
    assert set(made) == set(roles()) and len(set(made.values())) == len(made)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    path.chmod(0o644)
    assert kept_passwords(path) == made  # the next run signs in with the same ones
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
