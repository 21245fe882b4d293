"""Every service answers its probes and shows its metrics; the operator page is guarded."""

from __future__ import annotations

import random

import httpx

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
