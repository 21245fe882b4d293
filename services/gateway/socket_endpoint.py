"""The ``/ws`` endpoint: one player's socket, from its handshake to its close.

The origin and the token are checked first; then the socket replaces any other of the same
player, is welcomed (with the player's seat, whose table it watches at once), and hands each
frame it receives to its ``Session``. Its frames go out from its own writer task, so that a
slow reader holds up no one else.
"""

from __future__ import annotations

import asyncio
import contextlib

from fastapi import WebSocket, WebSocketDisconnect

from services.gateway import protocol as p
from services.gateway.guesses import client_address
from services.gateway.hub import REPLACED, Connection
from services.gateway.security import allowed_origins, origin_allowed
from services.gateway.socket_session import Session
from services.gateway.state import Gateway
from services.gateway.table_requests import new_request_id, report_presence, send_to_table
from services.gateway.transport import CUT
from shared import messages as m


async def serve_socket(gw: Gateway, websocket: WebSocket, token: str) -> None:
    origin, host = websocket.headers.get("origin"), websocket.headers.get("host")
    if not origin_allowed(origin, host, allowed_origins(gw.settings.allowed_origins)):
        # Closed before the handshake is accepted: the client gets an HTTP 403.
        await websocket.close(code=4403, reason="origin not allowed")
        return
    claims = await gw.signed_in(token)
    await websocket.accept()
    if claims is None:
        # Closed after the handshake, so that a browser sees the code (it sees 1006 otherwise)
        # and signs in again instead of reconnecting forever.
        await websocket.close(code=4401, reason="sign in again")
        return
    player = claims.identity
    extension = websocket.scope.get("extensions", {}).get(CUT, {})
    conn = Connection(player, cut=extension.get("cut"), write=extension.get("write"))
    gw.sessions.opened(conn, claims)  # closed if the player signs out everywhere
    previous = gw.sockets.get(player.id)
    if previous is not None:
        previous.close(REPLACED, "opened elsewhere")  # one socket per player: the newer wins
    gw.sockets[player.id] = conn
    gw.hub.metrics.connected.set(len(gw.sockets))
    writer = asyncio.create_task(_write(websocket, conn))
    seat = await gw.store.seat_of(player.id)
    conn.send(
        p.Welcome(player={"id": player.id, "name": player.name}, seated=seat[0] if seat else None)
    )
    if seat is not None:
        await gw.hub.watch(conn, seat[0])
        if previous is None:  # a socket replacing an open one changes no one's presence
            await report_presence(gw, player, seat[0], connected=True)
        await send_to_table(
            gw,
            m.Sync(
                table_id=seat[0], request_id=new_request_id(player, "sync"), player_id=player.id
            ),
        )
    session = Session(gw, conn, client_address(websocket.client))
    try:
        while not conn.closed:
            received = await websocket.receive()
            if received["type"] == "websocket.disconnect":
                break
            frame = received.get("text")
            if frame is None:
                session.refuse_binary()
            else:
                await session.handle(frame)
    except WebSocketDisconnect:
        pass
    finally:
        conn.close()
        with contextlib.suppress(TimeoutError, asyncio.CancelledError):
            await asyncio.wait_for(writer, 2)  # flush what is queued, such as the last refusals
        if gw.sockets.get(player.id) is conn:
            del gw.sockets[player.id]
            gw.hub.metrics.connected.set(len(gw.sockets))
            seat = await gw.store.seat_of(player.id)
            if seat is not None:
                with contextlib.suppress(Exception):
                    await report_presence(gw, player, seat[0], connected=False)
        gw.sessions.closed(conn)
        await gw.hub.forget(conn)
        with contextlib.suppress(Exception):
            await websocket.close()


async def _write(websocket: WebSocket, conn: Connection) -> None:
    with contextlib.suppress(Exception):
        while (frame := await conn.outbox.get()) is not None:
            conn.sending = True
            await websocket.send_text(frame)
            conn.sending = False
    with contextlib.suppress(Exception):
        await websocket.close(code=conn.close_code, reason=conn.close_reason)
