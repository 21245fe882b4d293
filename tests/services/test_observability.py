"""Every service answers its probes and shows its metrics; the operator page is guarded."""

from __future__ import annotations

import asyncio
import random
import signal
import time

import httpx
from prometheus_client.parser import text_string_to_metric_families

from services.bots.metrics import BotMetrics
from services.gateway.metrics import GatewayMetrics
from services.ledger.metrics import LedgerMetrics
from services.table.metrics import TableMetrics
from shared.observability import ServiceMetrics
from tests.services.client import Player
from tests.services.cluster import Cluster
from tests.services.play import act, open_table, play


async def test_probes_and_metrics(cluster: Cluster, players: list[Player]) -> None:
    table = await open_table(players)
    await act(players[0], table, {"kind": "start_game"})
    await play(players, table, random.Random(2), lambda v: v["hand_no"] >= 2)
    # The gateway and the ledger: probes on their port, metrics on their internal one.
    probed = [
        f"http://127.0.0.1:{port}"
        for pid, port in cluster.probes.items()
        if any(p.pid == pid and p.poll() is None for p in cluster.processes)
    ]
    internal = [cluster.internal_base("gateway"), cluster.internal_base("ledger")]
    exposed = ""
    async with httpx.AsyncClient() as http:
        for base in [cluster.base, cluster.settings.ledger_url, *probed]:
            assert (await http.get(f"{base}/healthz")).status_code == 200, base
            assert (await http.get(f"{base}/readyz")).status_code == 200, base
        for base in [*internal, *probed]:
            reply = await http.get(f"{base}/metrics")
            assert reply.status_code == 200 and "# TYPE" in reply.text
            exposed += reply.text
    for metric in (
        "swick_connected_players",
        "swick_gateway_command_to_view_seconds_bucket",
        "swick_commands_total",
        "swick_command_seconds_bucket",
        "swick_shards_owned",
        "swick_tables_loaded",
        "swick_ledger_postings_total",
        "swick_ledger_invariants_ok",
        "swick_bot_turns_total",
    ):
        assert metric in exposed, metric


OWN_METRICS: dict[str, type[ServiceMetrics]] = {
    "gateway": GatewayMetrics,
    "table": TableMetrics,
    "ledger": LedgerMetrics,
    "bots": BotMetrics,
}


async def test_each_service_shows_only_its_own_metrics(cluster: Cluster) -> None:
    """The ledger's invariants gauge only on the ledger, and so on: an alert on a metric that
    no ledger shows (``absent(swick_ledger_invariants_ok)``) can fire, and no other process
    pages with a gauge it never sets."""
    bases: dict[str, list[str]] = {
        "gateway": [cluster.internal_base("gateway")],
        "ledger": [cluster.internal_base("ledger")],
    }
    for process in cluster.running():
        if process.pid in cluster.probes:
            role = cluster.roles[process.pid]
            bases.setdefault(role, []).append(f"http://127.0.0.1:{cluster.probes[process.pid]}")
    assert set(bases) == set(OWN_METRICS)
    async with httpx.AsyncClient() as http:
        for role, urls in bases.items():
            own = {family.name for family in OWN_METRICS[role]().registry.collect()}
            for base in urls:
                reply = await http.get(f"{base}/metrics")
                assert reply.status_code == 200, base
                shown = {
                    family.name
                    for family in text_string_to_metric_families(reply.text)
                    if family.name.startswith("swick_") and not family.name.endswith("_created")
                }
                assert shown == own, (role, base, shown ^ own)
                assert "process_cpu_seconds" in reply.text  # and what every process shows


async def test_a_shard_queue_depth_comes_only_from_its_owner(cluster: Cluster) -> None:
    """Shards move to a third worker: the workers that gave them up stop showing their queues'
    depths, or a depth from before the move would keep ``SwickQueueBacklog`` firing."""
    async with httpx.AsyncClient() as http:
        await each_worker_shows_the_queues_it_owns(cluster, http)  # every depth measured once
        third = cluster.start_worker()
        try:
            await cluster.settled(workers=3)
            await each_worker_shows_the_queues_it_owns(cluster, http)
        finally:
            cluster.kill(third, signal.SIGTERM)
            await cluster.settled(workers=2)


async def each_worker_shows_the_queues_it_owns(
    cluster: Cluster, http: httpx.AsyncClient, within: float = 60.0
) -> None:
    deadline = time.monotonic() + within
    while True:
        shown, owned = await shown_and_owned_queues(cluster, http)
        if shown == owned:
            return
        assert time.monotonic() < deadline, {"shown": shown, "owned": owned}
        await asyncio.sleep(0.5)


async def shown_and_owned_queues(
    cluster: Cluster, http: httpx.AsyncClient
) -> tuple[dict[int, set[str]], dict[int, set[str]]]:
    """By table worker (pid): the shard queues whose depth its /metrics shows, and those of
    the shards it holds the lease of."""
    shown: dict[int, set[str]] = {}
    for process in cluster.running("table"):
        reply = await http.get(f"http://127.0.0.1:{cluster.probes[process.pid]}/metrics")
        shown[process.pid] = {
            sample.labels["queue"]
            for family in text_string_to_metric_families(reply.text)
            if family.name == "swick_queue_depth"
            for sample in family.samples
        }
    owned: dict[int, set[str]] = {pid: set() for pid in shown}
    for shard, (owner, _) in (await cluster.leases()).items():
        pid = int(owner.rsplit("-", 2)[1])  # a worker is "host-pid-suffix"
        owned.setdefault(pid, set()).add(cluster.settings.topology.shard_queue(shard))
    return shown, owned


async def test_the_operator_page_needs_the_admin_token(cluster: Cluster) -> None:
    async with httpx.AsyncClient(base_url=cluster.base) as http:
        assert (await http.get("/admin")).status_code == 200
        assert (await http.get("/admin/status")).status_code == 401
        wrong = await http.get("/admin/status", headers={"authorization": "Bearer nope"})
        assert wrong.status_code == 401
        token = cluster.settings.admin_token
        status = await http.get("/admin/status", headers={"authorization": f"Bearer {token}"})
        assert status.status_code == 200
        body = status.json()
        assert {"tables", "shards", "workers", "players_online", "ledger"} <= set(body)
        assert len(body["shards"]) == cluster.settings.shards
        assert body["ledger"]["ok"] is True
