"""Every public route does bounded, authorized work, and the protocol takes its input strictly:
against the real services (``cluster``), as anyone on the internet could reach them."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
import websockets
from websockets.asyncio.client import connect

from services.load.platform import resident_bytes
from shared.games.swick.record import load_record
from tests.eventually import eventually
from tests.services.client import Player, registered, signed_up
from tests.services.cluster import Cluster
from tests.services.database import fetch, log_length, logged_events
from tests.services.play import act

MIB = 1 << 20
MARKER = "Zq7-secret-echo-marker"


pytestmark = pytest.mark.usefixtures("whole_platform")


@pytest.fixture
async def trio(cluster: Cluster) -> AsyncIterator[list[Player]]:
    async with signed_up(cluster.base, "Ava", "Ben", "Cy") as made:
        yield made


async def seated_table(players: list[Player], *, private: bool) -> tuple[str, str]:
    """The first player opens a table, the others join it (by invite if private): the table's
    id and invite code."""
    host = players[0]
    body = {"seats": len(players), "timer_seconds": 30, "private": private}
    reply = await host.http("POST", "/api/tables", json=body)
    assert reply.status_code == 200, reply.text
    table, code = reply.json()["id"], reply.json()["invite_code"]
    for player in players:
        for _ in range(100):
            answer = await player.request({"type": "watch", "invite": code})
            if answer["type"] == "ack":
                break
            await asyncio.sleep(0.1)
        await player.wait(lambda p=player: table in p.views)  # type: ignore[misc]
    for player in players[1:]:
        assert (await player.request({"type": "join", "table": table}))["type"] == "ack"
    await host.wait(
        lambda: sum(s["player"] is not None for s in host.views[table]["seats"]) == len(players)
    )
    return table, code


async def finished_game(players: list[Player], *, private: bool) -> tuple[str, str]:
    """A table whose first game was started and ended at once (between hands)."""
    table, code = await seated_table(players, private=private)
    host = players[0]
    assert (await act(host, table, {"kind": "start_game"}))["type"] == "ack"
    await host.wait(lambda: host.views[table]["phase"] == "ante")
    assert (await act(host, table, {"kind": "end_game"}))["type"] == "ack"
    return table, code


# Game 1's stored record and replay, as a table worker writes them when the game ends.
STORED = {
    "record": "SELECT record FROM tables.game_records WHERE table_id = $1 AND game_no = 1",
    "replay": "SELECT replay FROM tables.game_replays WHERE table_id = $1 AND game_no = 1",
}


async def stored(cluster: Cluster, table: str, what: str) -> Any:
    """Game 1's ``what`` ("record" or "replay") of ``table``, once it is stored."""

    async def found() -> Any:
        rows = await fetch(cluster.settings, STORED[what], table)
        return rows[0][0] if rows else None

    return await eventually(found, f"game 1's {what} stored", within=20.0, every=0.1)


async def stored_record(cluster: Cluster, table: str) -> str:
    return str(await stored(cluster, table, "record"))


# Request bodies.


async def raw_http(base: str, head: str, body: AsyncIterator[bytes] | None = None) -> bytes:
    """Send a request by hand: its head, then its body chunks for as long as the server takes
    them; the server's answer."""
    address = urlsplit(base)
    reader, writer = await asyncio.open_connection(address.hostname, address.port)

    async def send_body(chunks: AsyncIterator[bytes]) -> None:
        with contextlib.suppress(ConnectionError):
            async for chunk in chunks:
                writer.write(chunk)
                await writer.drain()

    writer.write(head.encode())
    sending = asyncio.create_task(send_body(body)) if body is not None else None
    try:
        return await asyncio.wait_for(read_answer(reader), 30)
    finally:
        if sending is not None:
            sending.cancel()
            with contextlib.suppress(BaseException):
                await sending
        writer.close()


async def read_answer(reader: asyncio.StreamReader) -> bytes:
    """One HTTP answer: its head, then as many body bytes as its Content-Length says."""
    head = await reader.readuntil(b"\r\n\r\n")
    length = next(
        int(line.split(b":", 1)[1])
        for line in head.lower().split(b"\r\n")
        if line.startswith(b"content-length:")
    )
    return head + await reader.readexactly(length)


async def chunks(total: int, size: int = 64 * 1024) -> AsyncIterator[bytes]:
    """``total`` bytes of a JSON-ish body in HTTP chunked encoding, made as they are sent."""
    block = b"x" * size
    sent = 0
    while sent < total:
        yield b"%x\r\n%s\r\n" % (size, block)
        sent += size
    yield b"0\r\n\r\n"


def gateway_pid(cluster: Cluster) -> int:
    (process,) = cluster.running("gateway")
    return process.pid


async def test_oversized_bodies_are_refused_before_they_are_read(cluster: Cluster) -> None:
    host = urlsplit(cluster.base).netloc
    before = resident_bytes(gateway_pid(cluster))
    declared = await raw_http(
        cluster.base,
        f"POST /api/players HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {64 * MIB}\r\n\r\n",
        None,
    )
    assert declared.startswith(b"HTTP/1.1 413"), declared[:200]
    streamed = await raw_http(
        cluster.base,
        f"POST /api/players HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
        "Transfer-Encoding: chunked\r\n\r\n",
        chunks(64 * MIB),
    )
    assert streamed.startswith(b"HTTP/1.1 413"), streamed[:200]
    for answer in (declared, streamed):
        assert len(answer) < 2048 and b"xxxx" not in answer
        assert b"over the limit of 65536 bytes" in answer
    # The gateway held no body in memory: far less growth than the 64 MiB offered.
    assert resident_bytes(gateway_pid(cluster)) - before < 16 * MIB
    # And it still serves.
    async with httpx.AsyncClient(base_url=cluster.base) as http:
        assert (await http.post("/api/players", json={"name": "Still Here"})).status_code == 200


async def test_the_ledger_caps_bodies_too(cluster: Cluster) -> None:
    ledger = cluster.settings.ledger_url
    host = urlsplit(ledger).netloc
    answer = await raw_http(
        ledger,
        f"POST /wallets/p-1/seat HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
        "Transfer-Encoding: chunked\r\n\r\n",
        chunks(1 * MIB),
    )
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]


@pytest.mark.parametrize(
    "body",
    [
        {"name": MARKER * 10},
        {"name": {"nested": MARKER}},
        {"nome": MARKER},
    ],
)
async def test_validation_errors_never_echo_the_input(
    cluster: Cluster, body: dict[str, Any]
) -> None:
    async with httpx.AsyncClient() as http:
        reply = await http.post(f"{cluster.base}/api/players", json=body)
        assert reply.status_code == 422
        assert MARKER not in reply.text
        problem = reply.json()["detail"][0]
        assert problem["loc"][0] == "body" and problem["msg"]
        seat = await http.post(
            f"{cluster.settings.ledger_url}/wallets/p-1/seat",
            json=body,
            headers=cluster.settings.ledger_auth(write=True),
        )
        assert seat.status_code == 422 and MARKER not in seat.text


async def test_a_bad_json_body_is_not_echoed(cluster: Cluster) -> None:
    async with httpx.AsyncClient(base_url=cluster.base) as http:
        reply = await http.post(
            "/api/players",
            content=f'{{"name": "{MARKER}"'.encode(),
            headers={"content-type": "application/json"},
        )
    assert reply.status_code == 422 and MARKER not in reply.text


# Security headers.


@pytest.mark.parametrize(
    "path", ["/", "/index.html", "/js/app.js", "/styles.css", "/api/tables", "/admin", "/nope"]
)
async def test_every_response_carries_the_security_headers(cluster: Cluster, path: str) -> None:
    async with httpx.AsyncClient(base_url=cluster.base) as http:
        reply = await http.get(path)
    policy = reply.headers["content-security-policy"]
    directives = {d.split()[0]: d.split()[1:] for d in policy.split("; ")}
    assert directives["script-src"] == ["'self'"]
    assert directives["frame-ancestors"] == ["'none'"]
    assert directives["connect-src"] == ["'self'"]
    assert "'unsafe-inline'" not in policy and "'unsafe-eval'" not in policy
    assert reply.headers["x-content-type-options"] == "nosniff"
    assert reply.headers["x-frame-options"] == "DENY"
    assert reply.headers["referrer-policy"] == "no-referrer"


async def test_pages_have_no_inline_script_or_style(cluster: Cluster) -> None:
    async with httpx.AsyncClient(base_url=cluster.base) as http:
        for path in ("/", "/admin"):
            page = (await http.get(path)).text
            assert "<style" not in page and " style=" not in page
            scripts = page.split("<script")[1:]
            assert scripts and all(' src="' in tag.split(">")[0] for tag in scripts), path
            assert " onclick=" not in page and " onload=" not in page


# The WebSocket's Origin.


async def test_websockets_from_other_origins_are_refused(
    cluster: Cluster, trio: list[Player]
) -> None:
    url = cluster.base.replace("http", "ws", 1) + f"/ws?token={trio[0].token}"
    with pytest.raises(websockets.InvalidStatus) as refused:
        async with connect(url, origin="https://evil.example"):  # type: ignore[arg-type]
            pass
    assert refused.value.response.status_code == 403
    for origin in (cluster.base, None):  # the same origin, and a client that is no page
        async with connect(url, origin=origin) as socket:  # type: ignore[arg-type]
            assert json.loads(await socket.recv())["type"] == "welcome"


# Internal routes.


async def test_metrics_and_docs_are_internal_only(cluster: Cluster) -> None:
    internal = {
        cluster.base: cluster.internal_base("gateway"),
        cluster.settings.ledger_url: cluster.internal_base("ledger"),
    }
    async with httpx.AsyncClient() as http:
        for public, private in internal.items():
            for path in ("/metrics", "/docs", "/redoc", "/openapi.json"):
                assert (await http.get(public + path)).status_code == 404, public + path
                assert (await http.get(private + path)).status_code == 200, private + path
            assert "# TYPE" in (await http.get(private + "/metrics")).text
            assert (await http.get(public + "/readyz")).status_code == 200
        schema = (await http.get(internal[cluster.base] + "/openapi.json")).json()
        assert "/api/tables/{table_id}/games/{game_no}/record" in schema["paths"]


# Game records.


async def test_a_private_tables_record_is_for_its_players_and_invite_holders(
    cluster: Cluster, trio: list[Player]
) -> None:
    table, code = await finished_game(trio, private=True)
    await stored_record(cluster, table)
    path = f"/api/tables/{table}/games/1/record"
    stranger = await registered(cluster.base, "Stranger")
    async with httpx.AsyncClient(base_url=cluster.base) as http:
        assert (await http.get(path)).status_code == 404
        assert (await http.get(path, params={"invite": "wrong-code"})).status_code == 404
        by_invite = await http.get(path, params={"invite": code})
    assert by_invite.status_code == 200
    assert (await stranger.http("GET", path)).status_code == 404
    for player in trio:
        reply = await player.http("GET", path)
        assert reply.status_code == 200 and reply.content == by_invite.content
    assert load_record(by_invite.json()).seed == trio[0].views[table]["seed"]


async def test_a_record_is_served_as_stored(cluster: Cluster, trio: list[Player]) -> None:
    table, _ = await finished_game(trio, private=False)
    text = await stored_record(cluster, table)  # what the table worker built at the game's end
    path = f"/api/tables/{table}/games/1/record"
    async with httpx.AsyncClient(base_url=cluster.base) as http:
        served = await http.get(path)
        assert served.status_code == 200
        assert served.content == text.encode()
        assert served.headers["content-type"] == "application/json"
        # The gateway parses no events: whatever is stored is what it serves.
        await fetch(
            cluster.settings,
            "UPDATE tables.game_records SET record = $2 WHERE table_id = $1",
            table,
            '{"stored": true}',
        )
        assert (await http.get(path)).content == b'{"stored": true}'
        # A game that ended before records were stored is built once on demand, the same.
        for stored in ("game_results", "game_records"):
            await fetch(cluster.settings, f"DELETE FROM tables.{stored} WHERE table_id = $1", table)
        rebuilt = await http.get(path)
        assert rebuilt.content == text.encode()
        assert await stored_record(cluster, table) == text
        assert (await http.get(f"/api/tables/{table}/games/2/record")).status_code == 404
        assert (await http.get(f"/api/tables/{table}/games/0/record")).status_code == 422


# Strict protocol input.


async def test_wrongly_typed_fields_are_malformed_and_change_nothing(
    cluster: Cluster, trio: list[Player]
) -> None:
    table, _ = await seated_table(trio, private=False)
    ada = trio[0]
    assert (await act(ada, table, {"kind": "start_game"}))["type"] == "ack"
    await ada.wait(lambda: ada.views[table]["phase"] == "ante")
    before = await log_length(cluster.settings, table)
    coerced: list[dict[str, Any]] = [
        {"kind": "knock", "knock": "no"},
        {"kind": "play", "card": 30},
        {"kind": "ante", "amount": "3"},
        {"kind": "ante", "amount": True},
        {"kind": "sit_out", "sitting_out": 0},
    ]
    for player in trio:
        for action in coerced:
            answer = await act(player, table, action)
            assert answer["type"] == "reject" and answer["code"] == "malformed", (action, answer)
            assert answer["message"]
    frame: dict[str, Any] = {"type": "join", "table": table, "seat": "1"}
    assert (await ada.request(frame))["code"] == "malformed"
    frame = {"type": "sync", "table": table, "seq": True}
    assert (await ada.request(frame))["code"] == "malformed"
    assert await log_length(cluster.settings, table) == before


async def test_a_binary_frame_is_refused_without_a_traceback(
    cluster: Cluster, trio: list[Player]
) -> None:
    ada = trio[0]
    assert ada.ws is not None
    rejects = sum(f["type"] == "reject" for f in ada.frames)
    await ada.ws.send(b"\x00\x01binary")
    await ada.wait(lambda: sum(f["type"] == "reject" for f in ada.frames) > rejects)
    refusal = [f for f in ada.frames if f["type"] == "reject"][-1]
    assert refusal["code"] == "malformed" and "Text frames only" in refusal["message"]
    assert (await ada.request({"type": "ping"}))["type"] == "ack"  # the socket stays open
    logs = "".join(path.read_text() for path in cluster.logs.glob("gateway-*.log"))
    assert "Traceback" not in logs


async def test_reconnect_churn_appends_a_bounded_number_of_presence_events(
    cluster: Cluster, trio: list[Player]
) -> None:
    table, _ = await seated_table(trio, private=False)
    ben = trio[1]
    window = 5.0  # services/table/presence.py WINDOW_SECONDS
    started = time.monotonic()
    for _ in range(50):
        await ben.close()
        await ben.connect()
    elapsed = time.monotonic() - started
    await ben.request({"type": "watch", "table": table})
    seats = trio[0].views[table]["seats"]
    seat = next(s["seat"] for s in seats if s["player"] and s["player"]["id"] == ben.id)

    async def back() -> bool:
        view = trio[0].views[table]
        return bool(view["seats"][seat]["connected"])

    await eventually(back, "the churner shown back", within=60, every=0.1)
    events = await logged_events(cluster.settings, table)
    changes = [event for event in events if event["kind"] == "connection_changed"]
    # At most one disconnect and one reconnect per window (of the time the churn took, plus
    # the last window, which may still apply one): not 100.
    assert len(changes) <= 2 * (int(elapsed // window) + 2), (len(changes), elapsed)


async def test_a_disconnect_within_the_window_is_applied_when_it_ends(
    cluster: Cluster, trio: list[Player]
) -> None:
    table, _ = await seated_table(trio, private=False)
    ada, ben = trio[0], trio[1]
    seats = ada.views[table]["seats"]
    seat = next(s["seat"] for s in seats if s["player"] and s["player"]["id"] == ben.id)

    def shown(connected: bool) -> Any:
        return lambda: ada.views[table]["seats"][seat]["connected"] is connected

    await ben.close()  # the first disconnect counts at once
    await ada.wait(shown(False))
    await ben.connect()  # a reconnect too
    await ada.wait(shown(True))
    await ben.close()  # the second disconnect within the window waits for its end...
    await ada.wait(shown(False), within=30.0)  # ...and then counts: the player is gone
    events = await logged_events(cluster.settings, table)
    changes = [event["connected"] for event in events if event["kind"] == "connection_changed"]
    assert changes == [False, True, False]
