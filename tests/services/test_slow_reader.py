"""A socket that stops reading is cut as soon as the gateway gives up on it: reset at once with
its buffers dropped, recorded as 1008, not left to linger until the keepalive gives up."""

from __future__ import annotations

import asyncio
import itertools
import json
import socket
import time
from pathlib import Path

import httpx
from websockets.client import ClientProtocol
from websockets.http11 import Response
from websockets.uri import parse_uri

from tests.services.client import Player, registered
from tests.services.cluster import Cluster
from tests.services.play import open_table

WITHIN = 300.0  # generous: the machine may be busy
SYNCS_PER_SECOND = 25  # under the gateway's 30 a second: no flood, only a reader that never reads


def handshake(base: str, token: str) -> tuple[socket.socket, ClientProtocol]:
    """A raw WebSocket with a tiny receive buffer, past its handshake."""
    url = base.replace("http", "ws", 1) + f"/ws?token={token}"
    protocol = ClientProtocol(parse_uri(url))
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    uri = parse_uri(url)
    sock.connect((uri.host, uri.port))
    sock.settimeout(10)
    protocol.send_request(protocol.connect())
    sock.sendall(b"".join(protocol.data_to_send()))
    while not any(isinstance(e, Response) for e in protocol.events_received()):
        protocol.receive_data(sock.recv(1024))
    assert protocol.handshake_exc is None
    return sock, protocol


async def online(cluster: Cluster) -> list[str]:
    headers = {"authorization": f"Bearer {cluster.settings.admin_token}"}
    async with httpx.AsyncClient(base_url=cluster.base, headers=headers) as http:
        names: list[str] = (await http.get("/admin/status")).json()["players_online"]
        return names


def gateway_log(cluster: Cluster) -> str:
    return "".join(path.read_text(errors="replace") for path in cluster.logs.glob("gateway-*.log"))


def how_it_ended(sock: socket.socket, protocol: ClientProtocol) -> str:
    """Read what is left: ``"reset"``, the close code the server sent, ``"eof"`` (the stream
    ended without one), or ``"open"`` if the connection lingers."""
    deadline = time.monotonic() + WITHIN
    while time.monotonic() < deadline:
        try:
            data = sock.recv(65536)
        except ConnectionResetError:
            return "reset"
        except TimeoutError:
            continue
        if not data:
            return "eof"
        protocol.receive_data(data)
        if protocol.close_rcvd is not None:
            return str(protocol.close_rcvd.code)
    return "open"


async def test_a_socket_that_never_reads_is_cut_with_1008(
    cluster: Cluster, players: list[Player], tmp_path: Path
) -> None:
    table = await open_table(players)
    slow = await registered(cluster.base, "Never Reads")
    sock, protocol = await asyncio.to_thread(handshake, cluster.base, slow.token)
    try:
        ids = itertools.count()

        def send(message: dict[str, str]) -> None:
            protocol.send_text(json.dumps(message).encode())
            sock.sendall(b"".join(protocol.data_to_send()))

        await asyncio.to_thread(send, {"type": "watch", "table": table, "id": "w"})
        # Ask for the table again and again, under the rate limit (this is no flood): every
        # answer is a whole snapshot, and none of them is ever read.
        deadline = time.monotonic() + WITHIN
        while slow.name not in await online(cluster):
            assert time.monotonic() < deadline
            await asyncio.sleep(0.1)
        started, sent = time.monotonic(), 0
        while slow.name in await online(cluster):
            assert time.monotonic() < deadline, "the gateway never gave up on the slow reader"
            # As many as the rate allows since the start, however long this loop took.
            due = min(int((time.monotonic() - started) * SYNCS_PER_SECOND) - sent, 50)
            try:
                for _ in range(max(due, 0)):
                    message = {"type": "sync", "table": table, "id": f"s{next(ids)}"}
                    await asyncio.to_thread(send, message)
                    sent += 1
            except OSError:
                pass  # the server reset the connection: the loop's condition confirms it
            await asyncio.sleep(0.1)
        assert "reads too slowly: cutting the connection with 1008" in gateway_log(cluster)
        # The connection is over, whichever way it reached the client: a reset (the usual
        # way, its buffers dropped), the 1008 close frame, or the end of the stream when the
        # close frame could not be queued behind what the socket still held. What matters is
        # that the server let go of it at once (the loop above), recorded as 1008 (its log).
        ending = await asyncio.to_thread(how_it_ended, sock, protocol)
        assert ending in ("reset", "1008", "eof"), ending
    finally:
        sock.close()
