"""Whole games over real WebSockets, RabbitMQ and PostgreSQL."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from shared.games.registry import game
from shared.games.swick.record import load_record, verify
from tests.services.client import Player
from tests.services.cluster import Cluster
from tests.services.database import fetch
from tests.services.play import act, between_hands, play, started
from tests.services.test_ledger_service import ledger_agrees

STACK = 4000


async def test_a_game_from_start_to_end(cluster: Cluster, players: list[Player]) -> None:
    alice, bob, carol = players
    table = await started(players)
    seen_free_ride = False

    def goal(view: dict[str, object]) -> bool:
        nonlocal seen_free_ride
        seen_free_ride = seen_free_ride or bool(view["free_ride"])
        between = view["phase"] in ("ante", "ready")
        enough = isinstance(view["hand_no"], int) and view["hand_no"] >= 3
        return seen_free_ride and between and view["carry"] == 0 and enough

    await play(players, table, random.Random(7), goal)
    ended = await act(alice, table, {"kind": "end_game"})
    assert ended["type"] == "ack", ended
    for player in players:
        view = await player.until(table, lambda v: v["phase"] == "ended")
        assert view["seed"], "the seed is revealed when the game ends"
        assert len(view["standings"]) == 3
        assert sum(s["stack"] for s in view["seats"]) == 3 * STACK
        assert sum(s["net"] for s in view["standings"]) == 0
    assert alice.views[table]["seq"] == bob.views[table]["seq"] == carol.views[table]["seq"]
    await check_log(cluster, table, alice.views[table]["seq"])
    await ledger_agrees(cluster, table, players)


async def check_log(cluster: Cluster, table: str, seq: int, *, growing: bool = False) -> None:
    """The table's log holds every accepted command once, in order, and replays to ``seq``.

    ``growing``: the table plays on (bots), so the log may already hold more than ``seq``:
    it is checked up to whatever it holds, at least ``seq``."""
    rows = await fetch(
        cluster.settings,
        "SELECT seq, action_id, events::text FROM tables.events WHERE table_id = $1 ORDER BY seq",
        table,
    )
    if growing:
        assert len(rows) >= seq
        seq = len(rows)
    assert [row["seq"] for row in rows] == list(range(1, seq + 1))
    assert len({row["action_id"] for row in rows}) == len(rows)
    swick = game("swick")
    state = swick.new_table(swick.make_config({"seats": 3, "timer_ms": 30_000}))
    for row in rows:
        for event in json.loads(row["events"]):
            state = swick.evolve(state, swick.load_event(event))
    assert swick.seq(state) == seq


def no_carry_after(hand_no: int) -> Callable[[dict[str, Any]], bool]:
    """Between hands once hand ``hand_no`` was played, with no pot carried into the next."""
    return lambda view: between_hands(hand_no)(view) and view["carry"] == 0


async def end_after_two_hands(players: list[Player], table: str) -> None:
    """Play a started table on past its second hand, to a clean break, and end its game there."""
    await play(players, table, random.Random(4), no_carry_after(2))
    assert (await act(players[0], table, {"kind": "end_game"}))["type"] == "ack"


async def test_a_finished_game_can_be_verified(cluster: Cluster, players: list[Player]) -> None:
    alice = players[0]
    table = await started(players)
    reply = await alice.http("GET", f"/api/tables/{table}/games/1/record")
    assert reply.status_code == 404  # the seed stays secret while the game runs
    await end_after_two_hands(players, table)
    reply = await alice.http("GET", f"/api/tables/{table}/games/1/record")
    assert reply.status_code == 200, reply.text
    record = load_record(reply.json())
    assert record.fingerprint == alice.views[table]["fingerprint"]
    verdict = verify(record)
    assert verdict.ok and verdict.hands >= 2
    # The record names who sat in each seat, and no account's id.
    seated = [s["player"]["name"] for s in alice.views[table]["seats"]]
    assert sorted(seated) == sorted(p.name for p in players)
    assert reply.json()["players"] == [{"name": name, "bot": None} for name in seated]
    page = await alice.http("GET", "/")
    assert page.status_code == 200 and "Swick" in page.text
