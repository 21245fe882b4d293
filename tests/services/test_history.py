"""What a socket that starts watching a table is sent before its snapshot: the table's recent
chat and the watcher's own views of its recent commands (a reload, another gateway)."""

from __future__ import annotations

import json
import random
from typing import Any

from tests.services.client import Player, registered
from tests.services.cluster import Cluster
from tests.services.play import act, open_table, play


async def fresh_socket(cluster: Cluster, player: Player) -> Player:
    """The same player on a new connection (a reloaded page)."""
    again = Player(cluster.base, player.name)
    again.token, again.id = player.token, player.id
    await again.connect()
    return again


async def history_on_watch(player: Player, table: str, seq: int = 0) -> dict[str, Any]:
    """The ``history`` frame a watch is sent: before its ``ack``, and before any view of the
    table unless the player sits there (a seated player's socket is sent a snapshot as it
    opens)."""
    seated = any(f["type"] == "welcome" and f["seated"] == table for f in player.frames)
    answer = await player.request({"type": "watch", "table": table, "seq": seq})
    assert answer["type"] == "ack", answer
    await player.wait(lambda: table in player.views)
    frames = [f for f in player.frames if f.get("table") == table or f is answer]
    kinds = [f["type"] for f in frames]
    assert "history" in kinds, kinds
    assert kinds.index("history") < frames.index(answer)
    if not seated:
        assert kinds.index("history") < kinds.index("snapshot")
    frame: dict[str, Any] = frames[kinds.index("history")]
    return frame


def live_views(player: Player, table: str) -> dict[int, dict[str, Any]]:
    """Every view of ``table`` the player was sent, by seq."""
    return {
        f["seq"]: f["view"]
        for f in player.frames
        if f["type"] in ("snapshot", "update") and f["table"] == table
    }


def private_cards(view: dict[str, Any]) -> set[str]:
    """The card codes in a view outside what every watcher sees (trump card, tricks, result)."""
    public = {"trump_card", "trick", "played", "result"}
    text = json.dumps({key: value for key, value in view.items() if key not in public})
    ranks, suits = ("7", "8", "9", "10", "J", "Q", "K", "A"), "CDHS"
    return {f"{r}{s}" for r in ranks for s in suits if f'"{r}{s}"' in text}


async def test_a_fresh_socket_watching_gets_the_recent_chat(
    cluster: Cluster, players: list[Player]
) -> None:
    alice, bob, _ = players
    table = await open_table(players)
    for who, text in ((alice, "good luck"), (bob, "you too"), (alice, "  deal  them  ")):
        answer = await who.request({"type": "chat", "table": table, "text": text})
        assert answer["type"] == "ack", answer
    await bob.wait(lambda: len(bob.chat) == 3)
    live = bob.chat
    assert all(line["id"] for line in live) and len({line["id"] for line in live}) == 3

    # Bob reloads: his new socket is sent the lines, as they were sent live.
    again = await fresh_socket(cluster, bob)
    history = await history_on_watch(again, table)
    assert history["chat"] == live
    assert [line["text"] for line in history["chat"]] == ["good luck", "you too", "deal them"]

    # A spectator's first watch: the same lines; then the live ones as before.
    dave = await registered(cluster.base, "Dave")
    await dave.connect()
    assert (await history_on_watch(dave, table))["chat"] == live
    await alice.request({"type": "chat", "table": table, "text": "hello Dave"})
    line = await dave.wait(lambda: dave.chat and dave.chat[-1])
    assert line["text"] == "hello Dave" and line["id"] not in {x["id"] for x in live}

    # Another table's watchers hear none of it.
    elsewhere = await dave.http("POST", "/api/tables", json={})
    other = elsewhere.json()["id"]
    assert (await history_on_watch(dave, other))["chat"] == []
    for player in (again, dave):
        await player.close()


async def test_replayed_views_are_what_each_seat_was_sent_and_no_other_card(
    cluster: Cluster, players: list[Player]
) -> None:
    table = await open_table(players)
    await act(players[0], table, {"kind": "start_game"})
    rng = random.Random(11)
    # Into the tricks of the second hand: the replay spans the last hand and this one.
    await play(players, table, rng, lambda v: v["hand_no"] >= 2 and len(v["played"]) >= 1)
    seen = {p.id: live_views(p, table) for p in players}
    # Each player's last socket stays open to the end: closing it would disconnect the seat,
    # and the table's deferred presence check would add a view in the middle of a replay.
    sockets: list[Player] = []
    for player in players:
        others = [p for p in players if p is not player]
        again = await fresh_socket(cluster, player)
        views = (await history_on_watch(again, table))["views"]
        assert len(views) > 10
        seqs = [view["seq"] for view in views]
        assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
        now = players[0].views[table]["hand_no"]
        assert {view["hand_no"] for view in views} >= {now - 1, now}
        for view in views:
            sent = seen[player.id].get(view["seq"])
            if sent is not None:
                assert view == sent  # exactly what the seat was sent then
            mine = set(private_cards(view))
            assert mine <= {c for c in view["hand"] if c} | set(view["discarded"]) | {
                o["action"].get("card") for o in view["options"]
            } | {c for o in view["options"] for c in o["action"].get("discards", [])}
            for other in others:
                theirs = seen[other.id].get(view["seq"])
                if theirs is not None:
                    assert not mine & {c for c in theirs["hand"] if c}, (view["seq"], mine)
        # Having seen up to a seq: only the views after it.
        later = await fresh_socket(cluster, player)
        after = seqs[len(seqs) // 2]
        replay = (await history_on_watch(later, table, seq=after))["views"]
        assert [view["seq"] for view in replay] == [s for s in seqs if s > after]
        sockets += [again, later]

    # A spectator's replay is the spectators' views: no hand, no options.
    dave = await registered(cluster.base, "Dave")
    await dave.connect()
    views = (await history_on_watch(dave, table))["views"]
    assert views and all(v["seat"] is None and not v["hand"] and not v["options"] for v in views)
    assert all(not private_cards(v) for v in views)
    for socket in (*sockets, dave):
        await socket.close()
