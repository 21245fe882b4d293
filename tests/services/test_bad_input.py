"""Bad input gets a clear refusal and changes nothing; the server stays up."""

from __future__ import annotations

import asyncio
import itertools
import json
from typing import Any

import pytest
import websockets

from tests.services.client import Player, registered, signed_up
from tests.services.cluster import Cluster
from tests.services.database import log_length
from tests.services.play import act, started


async def anteing(players: list[Player]) -> str:
    """A started table, waiting for its first dealer's ante."""
    alice = players[0]
    table = await started(players)
    await alice.wait(lambda: alice.views[table]["phase"] == "ante")
    return table


async def raw(player: Player, text: str) -> dict[str, Any]:
    """Send a raw frame and wait for the next reject."""
    assert player.ws is not None
    before = len([f for f in player.frames if f["type"] == "reject"])
    await player.ws.send(text)
    frame: dict[str, Any] = await player.wait(
        lambda: (
            (rejects := [f for f in player.frames if f["type"] == "reject"])[before:]
            and rejects[before]
        )
    )
    return frame


BAD_FRAMES = [
    ("not json", "malformed"),
    ("[1, 2, 3]", "malformed"),
    ('{"type": "teleport", "id": "x1", "seq": 0}', "malformed"),
    ('{"type": "act", "id": "x2", "seq": -1, "table": "t", "action": {}}', "malformed"),
    ('{"type": "act", "id": "", "seq": 0, "table": "t", "action": {}}', "malformed"),
    (
        '{"type": "chat", "id": "x3", "seq": 0, "table": "t", "text": "' + "a" * 300 + '"}',
        "malformed",
    ),
    ('{"type": "act", "id": "x4", "seq": 0, "action": {}}', "malformed"),
    ('{"type": "ping", "id": "x5", "seq": 0, "extra": 1}', "malformed"),
    ('{"type": "ping", "id": "x6", "seq": "0"}', "malformed"),
    ('{"type": "join", "id": "x7", "seq": 0, "table": "t", "seat": true}', "malformed"),
]


async def test_bad_frames_are_refused(cluster: Cluster, players: list[Player]) -> None:
    alice = players[0]
    table = await anteing(players)
    before = await log_length(cluster.settings, table)
    for text, code in BAD_FRAMES:
        frame = await raw(alice, text)
        assert frame["code"] == code, (text, frame)
        assert frame["message"]
    big = json.dumps({"type": "chat", "id": "big", "seq": 0, "table": table, "text": "x" * 5000})
    assert (await raw(alice, big))["code"] == "too_large"
    assert await log_length(cluster.settings, table) == before
    assert (await alice.request({"type": "ping"}))["type"] == "ack"


@pytest.mark.parametrize(
    ("action", "code", "by_dealer"),
    [
        ({"kind": "play", "card": "AS"}, "wrong_phase", False),
        ({"kind": "ante", "amount": 4}, "bad_ante", True),
        ({"kind": "ante", "amount": 30}, "bad_ante", True),
        ({"kind": "ante", "amount": "lots"}, "malformed", True),
        ({"kind": "knock", "knock": True}, "wrong_phase", True),
        ({"kind": "play", "card": "1Z"}, "malformed", False),
        ({"kind": "take_seat", "seat": 1}, "not_allowed", False),
        ({"kind": "timeout"}, "not_allowed", False),
        ({"kind": "set_connected", "seat": 1, "connected": False}, "not_allowed", False),
        ({"kind": "start_game"}, "not_host", False),
        ({"kind": "fly"}, "malformed", False),
        ({"kind": "knock", "knock": "no"}, "malformed", False),  # not coerced to a pass
        ({"kind": "play", "card": 30}, "malformed", False),  # not K♠
        ({"kind": "ante", "amount": 3.0}, "malformed", True),
    ],
)
async def test_illegal_actions_change_nothing(
    cluster: Cluster, players: list[Player], action: dict[str, Any], code: str, by_dealer: bool
) -> None:
    alice = players[0]
    table = await anteing(players)
    dealer = alice.views[table]["dealer"]
    actor = next(
        p
        for p in players
        if (p.views[table]["seat"] == dealer) == by_dealer and (by_dealer or p is not alice)
    )
    before = await log_length(cluster.settings, table)
    seq = actor.views[table]["seq"]
    answer = await act(actor, table, action)
    assert answer["type"] == "reject" and answer["code"] == code, answer
    assert answer["message"]
    assert await log_length(cluster.settings, table) == before
    assert actor.views[table]["seq"] == seq


async def test_acting_out_of_turn_stale_and_replayed(
    cluster: Cluster, players: list[Player]
) -> None:
    alice = players[0]
    table = await anteing(players)
    view = alice.views[table]
    dealer = next(p for p in players if p.views[table]["seat"] == view["dealer"])
    other = next(p for p in players if p is not dealer)
    # Another seat sends the dealer's decision: it is not theirs to make.
    answer = await act(other, table, {"kind": "ante", "amount": 3})
    assert answer["code"] == "not_your_turn"
    # A sequence number the table has not reached.
    ahead = await dealer.request(
        {
            "type": "act",
            "table": table,
            "seq": view["seq"] + 5,
            "action": {"kind": "ante", "amount": 3},
        }
    )
    assert ahead["code"] == "bad_seq"
    before = await log_length(cluster.settings, table)
    # The dealer's ante, then the very same message again: it takes effect once.
    message = {
        "type": "act",
        "id": "ante-once",
        "table": table,
        "seq": view["seq"],
        "action": {"kind": "ante", "amount": 3},
    }
    assert (await dealer.request(dict(message)))["type"] == "ack"
    dealer.answers.pop("ante-once")
    again = await dealer.request(dict(message))
    assert again["type"] == "reject" and again["code"] in ("duplicate", "wrong_phase"), again
    assert await log_length(cluster.settings, table) == before + 1
    # A decision on the seq seen before the ante (now stale) is refused.
    await dealer.wait(lambda: dealer.views[table]["phase"] == "ready")
    ready = next(p for p in players if p.my_turn(table))
    stale = await ready.request(
        {"type": "act", "table": table, "seq": view["seq"], "action": {"kind": "ready"}}
    )
    assert stale["code"] == "stale", stale


async def test_flooding_is_refused_and_then_cut(cluster: Cluster) -> None:
    flooder = await registered(cluster.base, "Flooder")
    await flooder.connect()
    assert flooder.ws is not None
    # However slowly the gateway reads them, a flood is cut after so many refusals: send until
    # it is (the last few may be refused unread).
    for i in itertools.count():
        try:
            await flooder.ws.send(json.dumps({"type": "ping", "id": f"f{i}", "seq": 0}))
        except websockets.ConnectionClosed:
            break
        assert i < 20_000, "the flood was never cut"
        if i % 100 == 0:
            await asyncio.sleep(0)  # let the client read what comes back
    await asyncio.wait_for(flooder.ws.wait_closed(), 30)
    codes = {f.get("code") for f in flooder.frames if f["type"] == "reject"}
    assert codes == {"rate_limited"}
    assert sum(f["type"] == "ack" for f in flooder.frames) >= 30  # a burst goes through first
    await flooder.close()
    async with signed_up(cluster.base, "Calm") as (calm,):
        assert (await calm.request({"type": "ping"}))["type"] == "ack"


async def test_bad_tokens_and_tables(cluster: Cluster, players: list[Player]) -> None:
    url = cluster.base.replace("http", "ws", 1)
    async with websockets.connect(f"{url}/ws?token=forged.token") as ws:  # accepted, then:
        with pytest.raises(websockets.ConnectionClosed) as refused:
            await ws.recv()
    assert refused.value.rcvd is not None and refused.value.rcvd.code == 4401
    alice = players[0]
    answer = await alice.request({"type": "watch", "table": "t-nope"})
    assert answer["code"] == "no_table"
    answer = await alice.request(
        {"type": "act", "table": "t-nope", "seq": 0, "action": {"kind": "leave"}}
    )
    assert answer["code"] == "not_watching"
