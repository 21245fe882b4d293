"""Bots on the real services: a table of bots plays on its own, and two bots services share
the turns so that losing one loses no turn."""

from __future__ import annotations

from typing import Any

from services.load.platform import answering
from tests.services.client import Player
from tests.services.cluster import Cluster
from tests.services.database import timeouts
from tests.services.play import act, bots_playing
from tests.services.test_game_play import check_log
from tests.services.test_ledger_service import ledger_agrees


async def test_a_table_of_bots_plays_on_and_survives_losing_a_bots_service(
    cluster: Cluster,
) -> None:
    bots = {"1": "medium", "2": "easy", "3": "medium"}
    async with bots_playing(cluster.base, bots, timer_seconds=120) as (host, table):
        assert all(view["view"]["seats"][0]["status"] == "" for view in frames(host, table))
        [first, _] = cluster.running("bots")
        cluster.kill(first)
        try:
            hand = host.views[table]["hand_no"]
            view = await host.until(table, lambda v: v["hand_no"] >= hand + 3, within=300)
            assert not await timeouts(cluster.settings, table), "a bot turn was lost"
            # The bots play on meanwhile: the log holds at least what the host saw.
            await check_log(cluster, table, view["seq"], growing=True)
            # The host comes back: the next hand waits for them (to ready up, or to set the
            # ante when the deal comes to them), so the table holds still.
            sit_in = await act(host, table, {"kind": "sit_out", "sitting_out": False})
            assert sit_in["type"] == "ack"
            await host.until(
                table, lambda v: v["phase"] in ("ante", "ready") and 0 in v["to_act"], within=300
            )
            await ledger_agrees(cluster, table, [host], within=120)
        finally:
            # The next test finds the cluster as it was: two bots services, both answering.
            replacement = cluster.start_bots()
            probe = f"http://127.0.0.1:{cluster.probes[replacement.pid]}"
            await answering(probe, "/readyz", process=replacement)


def frames(player: Player, table: str) -> list[dict[str, Any]]:
    return [f for f in player.frames if f["type"] in ("snapshot", "update") and f["table"] == table]
