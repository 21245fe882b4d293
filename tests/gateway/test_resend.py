"""A person's request travels to its table transient and unconfirmed; the gateway sends it
again, unchanged, while it has no answer (the table applies a request id once), at once after
the broker connection comes back, and after a while tells the person it gave up. On a clock the
test moves, over the embedded (in-memory) bus."""

from __future__ import annotations

import json

from services.gateway import hub as h
from services.gateway.hub import Connection, Hub
from services.gateway.identity import Identity
from services.gateway.metrics import GatewayMetrics
from shared import messages as m
from shared.bus import Topology, shard_of
from shared.memory_bus import MemoryBus
from tests.clock import Clock

TABLE = "t-resend"


def rig() -> tuple[Hub, MemoryBus, Clock, str]:
    bus = MemoryBus(Topology("resend", 4))
    clock = Clock()
    hub = Hub(bus.as_user(bus.topology.user("gateway")), GatewayMetrics(), clock)
    return hub, bus, clock, bus.topology.shard_queue(shard_of(TABLE, 4))


def frames(conn: Connection) -> list[dict[str, object]]:
    sent = []
    while not conn.outbox.empty():
        frame = conn.outbox.get_nowait()
        assert frame is not None
        sent.append(json.loads(frame))
    return sent


async def test_an_unanswered_request_goes_again_until_answered() -> None:
    hub, bus, clock, queue = rig()
    conn = Connection(Identity("alice", "Alice"))
    await hub.send("alice/1", conn, "1", TABLE, b'{"the": "request"}')
    assert await bus.depth(queue) == 1
    clock.now += h.RESEND_AFTER - 0.1
    await hub.resend()
    assert await bus.depth(queue) == 1  # not overdue yet
    clock.now += 0.1
    await hub.resend()
    assert await bus.depth(queue) == 2  # the same request, again
    hub.dispatch(
        m.Refusal(
            table_id=TABLE,
            outcome=m.Outcome(request_id="alice/1", player_id="alice", ok=True),
        )
    )
    assert frames(conn) == [{"type": "ack", "id": "1"}]
    clock.now += h.RESEND_AFTER
    await hub.resend()
    await hub.resend(overdue_only=False)
    assert await bus.depth(queue) == 2  # answered: never sent again


async def test_after_a_reconnection_every_unanswered_request_goes_at_once() -> None:
    hub, bus, _, queue = rig()
    conn = Connection(Identity("bob", "Bob"))
    for n in range(3):
        await hub.send(f"bob/{n}", conn, str(n), TABLE, b"{}")
    await hub.resend(overdue_only=False)
    assert await bus.depth(queue) == 6


async def test_a_request_never_answered_is_given_up_and_the_person_told() -> None:
    hub, _, clock, _ = rig()
    conn = Connection(Identity("carol", "Carol"))
    await hub.send("carol/9", conn, "9", TABLE, b"{}")
    clock.now += h.GIVE_UP_AFTER
    await hub.resend()
    [reject] = frames(conn)
    assert (reject["type"], reject["id"], reject["code"]) == ("reject", "9", "unavailable")
    assert not hub.requests
