"""A registered bot that floods cannot starve the tables: its actions go to its own bounded
queue (the broker refuses the excess), reach the shards only at its relay's rate, and what is
forbidden is counted and logged sampled, not line by line. A person's action at a table on the
same shard is applied meanwhile (no timing is asserted: only that it is)."""

from __future__ import annotations

import asyncio
import re
import secrets
import time
from pathlib import Path

import httpx

from services.benchmarks.flood import publish_flood
from services.broker import register_bot
from shared import messages as m
from shared.broker import administrator
from shared.bus import RabbitBus
from tests.services.client import registered
from tests.services.cluster import Cluster
from tests.services.play import act, watch_when_created

FLOOD = 20_000
FORBIDDEN_LINE = "dropped a request its sender may not make"


async def table_metric(cluster: Cluster, pattern: str) -> float:
    """The sum of a metric's samples matching ``pattern`` over every running table worker."""
    total = 0.0
    async with httpx.AsyncClient() as http:
        for process in cluster.running("table"):
            reply = await http.get(f"http://127.0.0.1:{cluster.probes[process.pid]}/metrics")
            for value in re.findall(pattern + r" ([0-9.e+]+)", reply.text):
                total += float(value)
    return total


def log_lines(logs: Path, text: str) -> int:
    return sum(path.read_text(errors="replace").count(text) for path in logs.glob("table-*.log"))


async def test_a_bots_flood_is_bounded_and_a_persons_action_still_applies(
    cluster: Cluster,
) -> None:
    s, t = cluster.settings, cluster.settings.topology
    name = f"flood-{secrets.token_hex(3)}"
    url = await register_bot(s, name, "Mallory", administrator(s.rabbitmq_api))
    alice = await registered(cluster.base, "Alice")
    await alice.connect()
    reply = await alice.http("POST", "/api/tables", json={"seats": 3, "bots": {"1": "easy"}})
    assert reply.status_code == 200, reply.text
    table = reply.json()["id"]
    await watch_when_created(alice, table)
    lines_before = log_lines(cluster.logs, FORBIDDEN_LINE)

    forged = [
        m.Act(
            table_id=table,
            request_id=f"forged-{k}",
            player_id=alice.id,
            seq=0,
            action={"kind": "sit_out", "sitting_out": True},
        )
        .model_dump_json()
        .encode()
        for k in range(FLOOD)
    ]
    # Confirmed publishes; one refused for anything but a full queue fails the test.
    taken, refused, _ = await publish_flood(url, t.bot_actions(name), forged)
    assert taken + refused == FLOOD
    # The bot's queue held what the relay had not yet taken, up to its bound; the broker
    # refused the rest, to this bot alone.
    assert refused > 0
    observer = await RabbitBus.connect(s.amqp_url, t, robust=False)
    try:
        assert await observer.depth(t.bot_actions(name)) <= t.bot_actions_limit
        shard_depths = [await observer.depth(t.shard_queue(k)) for k in range(t.shards)]
    finally:
        await observer.close()
    assert max(shard_depths) <= t.shard_limit
    assert max(shard_depths) < t.bot_actions_limit  # the flood never piled up in a shard

    # Meanwhile a person's action at that table is applied.
    answer = await act(alice, table, {"kind": "add_bot", "seat": 2, "bot": "easy"}, within=60)
    assert answer["type"] == "ack", answer
    assert not any(a.get("id", "").startswith("forged") for a in alice.answers.values())

    # What reached the table was relayed at a bounded rate and dropped as forbidden: counted
    # each, logged a few times.
    relayed = f'swick_bot_actions_total{{bot="{name}",outcome="relayed"}}'
    deadline = time.monotonic() + 60
    while (forwarded := await table_metric(cluster, re.escape(relayed))) < 100:
        assert time.monotonic() < deadline, f"only {forwarded} of the bot's actions relayed"
        await asyncio.sleep(0.2)
    assert forwarded <= taken
    forbidden = await table_metric(cluster, re.escape('swick_commands_total{outcome="forbidden"}'))
    assert forbidden >= 100
    lines = log_lines(cluster.logs, FORBIDDEN_LINE) - lines_before
    assert lines <= 2 * len(cluster.running("table")) * 10, lines  # sampled, not one per drop
    view = await alice.until(table, lambda v: v["seats"][2] is not None)
    assert not view["seats"][0]["sitting_out"]
    await alice.close()
