"""The WebSocket protocol the gateway serves with: uvicorn's, a way to cut a socket at once,
and a way to write a frame at once.

A client that stops reading fills the kernel's send buffer, then uvicorn's; an ASGI
``websocket.close`` then waits behind that data until the keepalive gives up (half a minute,
with 1011). When the gateway gives up on such a reader, it wants the connection gone now: this
protocol offers the app a ``cut`` in the scope's extensions (``CUT``). It queues the close frame
and, if the client is not reading what was sent, resets the connection (``SO_LINGER`` 0, then
abort), so the unread data is dropped and the kernel's buffers are freed at once.

A frame for a socket that is taking what it is sent is written there and then (``write``):
not through the ASGI send, the gateway's queue and its writer task (twice the CPU). A socket
that is not keeping up gets its frames through the queue, which bounds what it may owe.

Each socket's kernel send buffer is also bounded (``SEND_BUFFER``; Linux would let it grow to
megabytes for a client that does not read): a table's frames are a few kilobytes, and a reader
that falls that far behind shows in the gateway's own queue within seconds.
"""

from __future__ import annotations

import contextlib
import socket
import struct
from asyncio import BaseTransport
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState
from websockets.http11 import Request

# scope["extensions"][CUT]: "cut": (code, reason) -> None; "write": (text) -> written or not
CUT = "swick.cut"
SEND_BUFFER = 64 * 1024  # bytes; the kernel doubles it for its bookkeeping


class CuttableWebSockets(WebSocketsSansIOProtocol):
    def connection_made(self, transport: BaseTransport) -> None:
        super().connection_made(transport)
        sock = transport.get_extra_info("socket")
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)  # builds the scope; the app starts later
        extension: dict[object, object] = {"cut": self.cut, "write": self.write_text}
        extensions = self.scope.get("extensions")
        if extensions is not None:
            extensions[CUT] = extension

    def write_text(self, text: str) -> bool:
        """Send a text frame now if the socket takes it without waiting; false if not (then
        send it the usual way)."""
        if (
            not self.handshake_complete
            or self.close_sent
            or self.disconnected
            or not self.writable.is_set()
            or self.transport.is_closing()
        ):
            return False
        self.conn.send_text(text.encode())
        self.transport.write(b"".join(self.conn.data_to_send()))
        return True

    def cut(self, code: int, reason: str) -> None:
        """Close with ``code`` now, without waiting for the client to read anything."""
        if self.disconnected or self.transport.is_closing():
            return
        if not self.close_sent:
            with contextlib.suppress(InvalidState):
                self.conn.send_close(code, reason)
                self.transport.write(b"".join(self.conn.data_to_send()))
            self.close_sent = True
        self.queue.put_nowait({"type": "websocket.disconnect", "code": code, "reason": reason})
        if self.writable.is_set():
            self.transport.close()  # the client keeps up: it gets the close frame
            return
        sock = self.transport.get_extra_info("socket")
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.transport.abort()


# How uvicorn serves the gateway's sockets (``uvicorn.Config(app, **SOCKETS)``); no
# permessage-deflate, by measurement (docs/performance.md). uvicorn's X-Forwarded-For handling
# is off: it believes the left-most entry, the client's own; the app's ``proxies`` decides.
SOCKETS: dict[str, Any] = {
    "proxy_headers": False,
    "ws": CuttableWebSockets,
    "ws_per_message_deflate": False,
    "ws_max_size": 65_536,
}
