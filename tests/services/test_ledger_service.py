"""The ledger beside live tables: it agrees with them, survives being stopped, and never
applies a posting twice."""

from __future__ import annotations

import asyncio
import random
import signal

import aio_pika
import httpx

from shared.bus import url_user
from tests.services.client import Player, registered
from tests.services.cluster import Cluster
from tests.services.ledger_books import caught_up, ledger_client
from tests.services.lobby import new_table
from tests.services.play import act, between_hands, open_table, play, started, watch_when_created

STARTING_GRANT = 4000


async def ledger_agrees(
    cluster: Cluster, table: str, players: list[Player], within: float = 30
) -> None:
    """Wait until the ledger applied every posting of ``table``; then its wallets must equal
    the table's stacks and its invariants hold."""
    postings, report = await caught_up(cluster.settings, table, within)
    assert report["postings_applied"] >= postings, f"the ledger applied {report} of {postings}"
    assert report["matches"], report
    async with ledger_client(cluster.settings) as ledger:
        view = players[0].views[table]
        for seat in view["seats"]:
            if seat["player"] is None:
                continue
            balance = (await ledger.get(f"/players/{seat['player']['id']}/balance")).json()
            assert balance["balance"] == seat["stack"], (seat, balance)
        health = await ledger.get("/health")
        assert health.status_code == 200, health.json()
        assert health.json()["balanced"]


async def test_the_ledger_agrees_with_the_table(cluster: Cluster, players: list[Player]) -> None:
    table = await started(players)
    await play(players, table, random.Random(21), between_hands(4))
    await ledger_agrees(cluster, table, players)
    async with ledger_client(cluster.settings) as ledger:
        history = (
            await ledger.get(f"/players/{players[0].id}/transfers", params={"limit": 5})
        ).json()
        assert history["transfers"] and history["transfers"][-1]["code"]
        board = (await ledger.get("/leaderboard", params={"days": 1})).json()
        assert {"player_id", "name", "net"} <= set(board["players"][0])


async def test_the_ledger_catches_up_after_a_stop(cluster: Cluster, players: list[Player]) -> None:
    table = await started(players)
    rng = random.Random(22)
    await play(players, table, rng, between_hands(1))
    [ledger] = cluster.running("ledger")
    ledger.send_signal(signal.SIGKILL)
    await asyncio.to_thread(ledger.wait)
    await play(players, table, rng, between_hands(4))
    await cluster.start_ledger()
    await ledger_agrees(cluster, table, players)


async def test_postings_delivered_twice_apply_once(cluster: Cluster, players: list[Player]) -> None:
    table = await open_table(players)  # sitting down needs the ledger's balance
    [ledger] = cluster.running("ledger")
    ledger.send_signal(signal.SIGTERM)
    await asyncio.to_thread(ledger.wait)
    await act(players[0], table, {"kind": "start_game"})
    await play(players, table, random.Random(23), between_hands(3))
    doubled = await double_every_posting(cluster)
    assert doubled > 0
    await cluster.start_ledger()
    await ledger_agrees(cluster, table, players)


async def double_every_posting(cluster: Cluster) -> int:
    """Take every posting waiting in the queue (as an administrator) and put it back twice, as
    the table workers publish it: as their broker user, to the postings exchange."""
    s = cluster.settings
    bodies = []
    connection = await aio_pika.connect(s.amqp_url)
    async with connection:
        channel = await connection.channel()
        queue = await channel.get_queue(s.topology.postings)
        while (message := await queue.get(no_ack=True, fail=False)) is not None:
            bodies.append(message.body)
    tables = await aio_pika.connect(s.amqp_url_for("table"))
    async with tables:
        channel = await tables.channel()
        exchange = await channel.get_exchange(s.topology.postings, ensure=False)
        for body in bodies:
            for _ in range(2):
                again = aio_pika.Message(
                    body,
                    delivery_mode=aio_pika.DeliveryMode.PERSISTENT,
                    user_id=url_user(s.amqp_url_for("table")),
                )
                await exchange.publish(again, routing_key=s.topology.postings)
    return len(bodies)


async def test_sitting_down_again_waits_for_the_last_tables_postings(
    cluster: Cluster, players: list[Player]
) -> None:
    """A player who leaves mid-hand is settled when the hand ends; another table seats them
    only with the ledger's answer, once it has applied that settlement."""
    alice, bob, carol = players
    table = await started(players)
    rng = random.Random(24)
    await play(players, table, rng, lambda v: v["phase"] in ("knock", "draw", "tricks"))
    seat = bob.views[table]["seat"]
    # The other table opens while the ledger answers: its host sits down with their balance.
    other = await registered(cluster.base, "Other host")
    await other.connect()
    elsewhere = (await new_table(other, {"seats": 3}))["id"]
    assert (await act(bob, table, {"kind": "leave"}))["type"] == "ack"
    [ledger] = cluster.running("ledger")
    ledger.send_signal(signal.SIGTERM)
    await asyncio.to_thread(ledger.wait)
    await play([alice, carol, bob], table, rng, lambda v: v["seats"][seat]["player"] is None)
    await watch_when_created(bob, elsewhere)
    refused = await bob.request({"type": "join", "table": elsewhere}, within=20)
    assert refused["type"] == "reject" and refused["code"] == "cashier", refused
    await cluster.start_ledger()
    joined = await bob.request({"type": "join", "table": elsewhere}, within=20)
    assert joined["type"] == "ack", joined
    view = await bob.until(elsewhere, lambda v: v["seat"] is not None)
    async with ledger_client(cluster.settings) as http:
        balance = (await http.get(f"/players/{bob.id}/balance")).json()["balance"]
    assert view["seats"][view["seat"]]["stack"] == balance
    await ledger_agrees(cluster, table, [alice])
    async with httpx.AsyncClient(
        base_url=cluster.settings.ledger_url, headers=cluster.settings.ledger_auth(write=True)
    ) as http:
        ahead = {"name": "Bob", "after": {"table_id": table, "posting_no": 10**6}}
        pending = await http.post(f"/wallets/{bob.id}/seat", json=ahead)
        assert pending.status_code == 409  # postings not applied yet: no balance to sit with
    await other.close()
