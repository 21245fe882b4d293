"""One socket's session: each message it sends, parsed, limited, checked, then answered or
sent on to its table.

A socket watches tables (a watched table's history, then its views), and sends its player's
joins, actions and chat to the tables it watches; too many messages are refused, and a flood of
them closes the socket.
"""

from __future__ import annotations

import json
import logging
import secrets
import time
from typing import Any

from pydantic import ValidationError

from services.gateway import protocol as p
from services.gateway.chat import clean_text
from services.gateway.finished_seat import SeatHeld, leave_finished_seat
from services.gateway.hub import Connection
from services.gateway.limits import Admission
from services.gateway.state import Gateway
from services.gateway.table_requests import new_request_id, send_to_table
from shared import messages as m
from shared.bus import BrokerUnavailable
from shared.token_bucket import TokenBucket

log = logging.getLogger("swick.gateway")

FLOOD_REFUSALS = 200  # refusals for rate before the socket is closed as a flood ...
FLOOD_FORGIVEN_PER_SECOND = 2  # ... of which this many a second are forgiven


class Session:
    """One socket's messages: parsed, limited, checked, then answered or sent on."""

    def __init__(self, gw: Gateway, conn: Connection, address: str = "") -> None:
        self.gw = gw
        self.conn = conn
        self.address = address
        self.admission = Admission(
            p.MESSAGES_PER_SECOND, p.MESSAGE_BURST, FLOOD_REFUSALS, FLOOD_FORGIVEN_PER_SECOND
        )
        self.chat_rate = TokenBucket(rate=0.5, burst=5)
        self.watching: set[str] = set()

    def reject(self, client_id: str | None, code: str, message: str) -> None:
        self.conn.send(p.Reject(id=client_id, code=code, message=message))

    def _within_rate(self, client_id: str | None) -> bool:
        if self.admission.admit():
            return True
        self.reject(client_id, "rate_limited", "Too many messages: slow down")
        if self.admission.exhausted():
            self.conn.close()
        return False

    def refuse_binary(self) -> None:
        """The protocol is JSON text: a binary frame is refused, and the socket stays open."""
        if self._within_rate(None):
            self.reject(None, "malformed", "Text frames only: a message is JSON in a text frame")

    async def handle(self, frame: str) -> None:
        if not self._within_rate(_client_id(frame)):
            return
        if len(frame.encode()) > p.MAX_FRAME:
            self.reject(_client_id(frame), "too_large", f"A message is at most {p.MAX_FRAME} bytes")
            return
        try:
            message = p.INCOMING.validate_json(frame)
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(part) for part in first["loc"])
            self.reject(_client_id(frame), "malformed", f"{where}: {first['msg']}")
            return
        try:
            await getattr(self, f"on_{message.type}")(message)
        except BrokerUnavailable:
            self.reject(
                message.id,
                "unavailable",
                "The tables cannot be reached for the moment: send it again shortly",
            )

    async def on_ping(self, message: p.Ping) -> None:
        self.conn.send(p.Ack(id=message.id))

    async def on_watch(self, message: p.Watch) -> None:
        store, player = self.gw.store, self.conn.player
        row = None
        if message.invite is not None:
            throttle = self.gw.guesses.invites
            if not throttle.admit(self.address):
                self.reject(
                    message.id, "rate_limited", "Too many wrong invite codes: wait a minute"
                )
                return
            row = await store.by_invite(message.invite)
            if row is not None and message.table not in (None, row.table_id):
                row = None
            # A wrong code counts unless it names a table that does not exist (yet): one still
            # being created is no guess, and a made-up table can't be opened by any code.
            if row is None and (
                message.table is None or await store.table(message.table) is not None
            ):
                throttle.failed(self.address)
        elif message.table is not None:
            row = await store.table(message.table)
            seat = await store.seat_of(player.id)
            if row is not None and row.private and (seat is None or seat[0] != row.table_id):
                row = None
        if row is None:
            self.reject(message.id, "no_table", "There is no such table (or the invite is wrong)")
            return
        # The history first: no view of the table reaches this socket before it.
        gw = self.gw
        history = await gw.history.frame(gw.store, gw.chat, row.table_id, player.id, message.seq)
        self.conn.send_text(history)
        await self.gw.hub.watch(self.conn, row.table_id)
        self.watching.add(row.table_id)
        self.conn.seen.pop(row.table_id, None)
        self.conn.send(p.Ack(id=message.id))
        await send_to_table(
            self.gw,
            m.Sync(
                table_id=row.table_id,
                request_id=new_request_id(player, "sync"),
                player_id=player.id,
            ),
        )

    async def on_unwatch(self, message: p.Unwatch) -> None:
        self.watching.discard(message.table)
        await self.gw.hub.unwatch(self.conn, message.table)
        self.conn.send(p.Ack(id=message.id))

    async def _watched(self, client_id: str, table_id: str) -> bool:
        if table_id in self.watching or self.conn in self.gw.hub.watchers.get(table_id, ()):
            return True
        self.reject(client_id, "not_watching", "Watch this table first")
        return False

    async def on_sync(self, message: p.Sync) -> None:
        if await self._watched(message.id, message.table):
            self.conn.send(p.Ack(id=message.id))
            await send_to_table(
                self.gw,
                m.Sync(
                    table_id=message.table,
                    request_id=new_request_id(self.conn.player, "sync"),
                    player_id=self.conn.player.id,
                ),
            )

    async def on_join(self, message: p.Join) -> None:
        if not await self._watched(message.id, message.table):
            return
        try:
            await leave_finished_seat(self.gw, self.conn.player, going_to=message.table)
        except SeatHeld as held:
            self.reject(message.id, held.code, held.message)
            return
        await self._ask(message, m.Join, name=self.conn.player.name, seat=message.seat)

    async def on_act(self, message: p.Act) -> None:
        await self._ask(message, m.Act, seq=message.seq, action=message.action)

    async def _ask(
        self, message: p.Join | p.Act, request: type[m.Join] | type[m.Act], **fields: Any
    ) -> None:
        """Send a watcher's ``message`` to its table as ``request`` (with ``fields``); the
        table's outcome answers the client's message."""
        if not await self._watched(message.id, message.table):
            return
        player = self.conn.player
        asked = request(
            table_id=message.table,
            request_id=f"{player.id}/{message.id}",
            player_id=player.id,
            **fields,
        )
        body = asked.model_dump_json().encode()
        await self.gw.hub.send(asked.request_id, self.conn, message.id, message.table, body)

    async def on_chat(self, message: p.Chat) -> None:
        if not await self._watched(message.id, message.table):
            return
        if not self.chat_rate.take():
            self.reject(message.id, "rate_limited", "You are chatting too fast")
            return
        text = clean_text(message.text)
        if not text:
            self.reject(message.id, "malformed", "Say something")
            return
        line = m.ChatLine(
            table_id=message.table,
            id=secrets.token_hex(8),
            player_id=self.conn.player.id,
            name=self.conn.player.name,
            text=text,
            at=int(time.time() * 1000),
        )
        try:
            await self.gw.chat.add(line)  # kept for pages that start watching later
        except Exception:
            log.warning("could not keep a chat line", extra={"table": message.table}, exc_info=True)
        await self.gw.bus.publish_updates([message.table], line.model_dump_json().encode())
        self.conn.send(p.Ack(id=message.id))


def _client_id(frame: str) -> str | None:
    """The ``id`` of a frame that failed validation, when it has a usable one."""
    try:
        data = json.loads(frame)
    except ValueError:
        return None
    value = data.get("id") if isinstance(data, dict) else None
    return value if isinstance(value, str) and 0 < len(value) <= 64 else None
