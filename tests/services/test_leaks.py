"""No frame a client receives holds a card its seat may not see (rules §4)."""

from __future__ import annotations

import json
import random
import re

import asyncpg

from shared.games.registry import game
from tests.services.client import Player, registered
from tests.services.cluster import Cluster
from tests.services.play import act, open_table, play

CARD = re.compile(r'"((?:10|[7-9JQKA])[CDHS])"')


async def test_every_frame_is_exactly_the_seats_own_view(cluster: Cluster) -> None:
    rng = random.Random(29)
    frames_checked = 0
    for seats in (3, 4, 6):
        players = [Player(cluster.base, f"Leak {seats} {i}") for i in range(seats)]
        for player in players:
            await player.sign_up()
            await player.connect()
        spectator = await registered(cluster.base, f"Watcher {seats}")
        await spectator.connect()
        table = await open_table(players)
        await spectator.request({"type": "watch", "table": table})
        await act(players[0], table, {"kind": "start_game"})
        await play(
            players, table, rng, lambda v: v["hand_no"] >= 4 and v["phase"] in ("ante", "ready")
        )
        states = await replay_states(cluster, table)
        for seat, player in enumerate([*players, spectator]):
            for frame in player.frames:
                if frame["type"] not in ("snapshot", "update") or frame["table"] != table:
                    continue
                expected = swick_view(states[frame["seq"]], None if player is spectator else seat)
                assert frame["view"] == expected, f"seat {seat} at #{frame['seq']}"
                visible = set(CARD.findall(json.dumps(expected)))
                assert set(CARD.findall(json.dumps(frame))) <= visible
                frames_checked += 1
        for player in [*players, spectator]:
            await player.close()
    print(f"leak test: {frames_checked} frames checked")
    assert frames_checked > 500


def swick_view(state: object, seat: int | None) -> object:
    swick = game("swick")
    return swick.dump_view(swick.view_for(state, seat))


async def replay_states(cluster: Cluster, table: str) -> dict[int, object]:
    """The table's state after each seq, rebuilt from its log."""
    conn = await asyncpg.connect(cluster.settings.database_url)
    try:
        config = json.loads(
            await conn.fetchval("SELECT config::text FROM tables.tables WHERE table_id = $1", table)
        )
        rows = await conn.fetch(
            "SELECT seq, events::text FROM tables.events WHERE table_id = $1 ORDER BY seq", table
        )
    finally:
        await conn.close()
    swick = game("swick")
    state = swick.new_table(swick.make_config(config))
    states: dict[int, object] = {0: state}
    for row in rows:
        for event in json.loads(row["events"]):
            state = swick.evolve(state, swick.load_event(event))
        states[row["seq"]] = state
    return states
