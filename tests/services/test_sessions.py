"""Reconnecting, absent players, spectators and chat."""

from __future__ import annotations

import random
import time

from tests.services.client import Player, signed_up
from tests.services.cluster import Cluster
from tests.services.database import logged_events
from tests.services.lobby import new_table
from tests.services.play import open_table, play, started


async def test_reconnect_mid_hand_restores_seat_and_cards(
    cluster: Cluster, players: list[Player]
) -> None:
    alice, bob, _ = players
    table = await started(players)
    rng = random.Random(3)
    await play(players, table, rng, lambda v: v["phase"] in ("knock", "draw", "tricks"))
    before = bob.views[table]
    await bob.close()
    await alice.wait(lambda: not alice.views[table]["seats"][before["seat"]]["connected"])
    again = Player(cluster.base, "Bob")
    again.token, again.id = bob.token, bob.id
    welcome = await again.connect()
    assert welcome["seated"] == table
    view = await again.wait(lambda: again.views.get(table))
    assert view["seat"] == before["seat"]
    assert view["hand"] == before["hand"] or view["seq"] > before["seq"]
    await again.wait(lambda: again.views[table]["seats"][before["seat"]]["connected"])
    players[1] = again
    await play(
        players,
        table,
        rng,
        lambda v: v["hand_no"] >= before["hand_no"] + 1 and v["phase"] in ("ante", "ready"),
    )
    await again.close()


async def test_a_disconnected_player_never_stalls_the_table(
    cluster: Cluster, players: list[Player]
) -> None:
    alice, bob, _ = players
    table = await started(players)
    await play(
        players,
        table,
        random.Random(8),
        lambda v: v["phase"] == "knock" and v["to_act"] == [bob.views[table]["seat"]],
    )
    seq = alice.views[table]["seq"]
    left_at = time.monotonic()
    await bob.close()  # gone on their knock turn: after the grace the table passes for them
    await alice.wait(lambda: alice.views[table]["seq"] > seq + 1, within=20)
    print(f"absent player decided for after {time.monotonic() - left_at:.1f} s")
    seat = bob.views[table]["seat"]
    events = await logged_events(cluster.settings, table, after=seq)
    timed_out = events.index({"kind": "timed_out", "seat": seat})
    assert {"kind": "knocked", "seat": seat, "knock": False} in events[timed_out:]
    assert {"kind": "connection_changed", "seat": seat, "connected": False} in events[:timed_out]


async def test_spectators_see_no_hands_and_private_tables_need_the_code(
    cluster: Cluster, players: list[Player]
) -> None:
    table = await started(players)
    async with signed_up(cluster.base, "Watcher", "Private host") as (watcher, host):
        await watcher.request({"type": "watch", "table": table})
        await play(players, table, random.Random(1), lambda v: v["phase"] == "knock")
        view = await watcher.wait(lambda: watcher.views.get(table))
        assert view["seat"] is None and view["hand"] == [] and view["options"] == []
        private = await new_table(host, {"private": True, "timer_seconds": None})
        answer = await watcher.request({"type": "watch", "table": private["id"]})
        assert answer["code"] == "no_table"
        lobby = await watcher.http("GET", "/api/tables")
        assert private["id"] not in {t["id"] for t in lobby.json()}
        await play_later(watcher, private["invite_code"])


async def play_later(watcher: Player, code: str) -> None:
    for _ in range(50):
        answer = await watcher.request({"type": "watch", "invite": code})
        if answer["type"] == "ack":
            return
    raise AssertionError("the invite code does not open the table")


async def test_chat_reaches_only_that_table(cluster: Cluster, players: list[Player]) -> None:
    alice, bob, _ = players
    table = await open_table(players)
    async with signed_up(cluster.base, "Elsewhere") as (other,):
        elsewhere = await other.http("POST", "/api/tables", json={})
        await other.request({"type": "watch", "table": elsewhere.json()["id"]})
        answer = await alice.request({"type": "chat", "table": table, "text": "  good   luck  "})
        assert answer["type"] == "ack"
        line = await bob.wait(lambda: bob.chat and bob.chat[-1])
        assert line["text"] == "good luck" and line["name"] == "Alice"
        assert other.chat == []
        answers = [
            await alice.request({"type": "chat", "table": table, "text": "spam"}) for _ in range(8)
        ]
        assert "rate_limited" in {a.get("code") for a in answers}
