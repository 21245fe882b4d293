"""The gateway: the lobby over HTTP, one WebSocket per player, and the web client's files.

Player actions become requests on the bus (to the shard that owns the table); what the tables
publish comes back through the hub, each socket receiving only its own view.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated

import httpx
from fastapi import (
    FastAPI,
    HTTPException,
    Query,
    WebSocket,
    WebSocketDisconnect,
)
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles
from prometheus_client import CollectorRegistry
from pydantic import ValidationError

from services.gateway import admin
from services.gateway import protocol as p
from services.gateway.chat import chat_for, clean_text
from services.gateway.guesses import client_address
from services.gateway.hub import REPLACED, Connection, Hub
from services.gateway.identity import Tokens
from services.gateway.limits import Admission
from services.gateway.metrics import GatewayMetrics
from services.gateway.proxies import Proxies, TrustedProxies
from services.gateway.records import Records
from services.gateway.replays import Replays
from services.gateway.routes_chips import add_chip_routes
from services.gateway.routes_games import add_game_routes
from services.gateway.routes_players import add_player_routes
from services.gateway.routes_tables import add_table_routes
from services.gateway.security import SecurityHeaders, allowed_origins, origin_allowed
from services.gateway.sessions import Sessions, versions_for
from services.gateway.state import Gateway, gateway_of
from services.gateway.table_requests import new_request_id, report_presence, send_to_table
from services.gateway.transport import CUT
from shared import messages as m
from shared.bus import BrokerUnavailable, Bus, RabbitBus
from shared.observability import add_probes
from shared.request_limits import limit_requests
from shared.settings import Settings
from shared.supervise import supervise
from shared.tables_read import OpenTableReads, TableReads
from shared.token_bucket import TokenBucket

log = logging.getLogger("swick.gateway")

WEB = Path(__file__).parent / "web"
RULES = Path(__file__).resolve().parents[2] / "SWICK_RULES.md"
FLOOD_REFUSALS = 200  # refusals for rate before the socket is closed as a flood ...
FLOOD_FORGIVEN_PER_SECOND = 2  # ... of which this many a second are forgiven


def create_app(
    settings: Settings | None = None,
    *,
    bus: Bus | None = None,
    store: TableReads | None = None,
    open_store: OpenTableReads | None = None,
    ledger: httpx.AsyncBaseTransport | None = None,
    also_exposes: Sequence[CollectorRegistry] = (),
) -> FastAPI:
    """The gateway's app; ``bus``, ``store`` and ``ledger`` (the ledger's app as a transport)
    are given when it runs embedded, and made from ``settings`` (RabbitMQ, the ledger's URL)
    otherwise, the tables' read model then opened by ``open_store`` (the table service's,
    given by whatever composes the services: the gateway never imports the table service).
    Its ``/metrics`` also shows ``also_exposes``: in embedded mode, the metrics of the services
    without a port."""
    settings = settings or Settings.from_env()
    metrics = GatewayMetrics()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with contextlib.AsyncExitStack() as owned:
            tables: TableReads | None = store
            messages = bus
            if tables is None:
                if open_store is None:
                    raise ValueError("the gateway needs the tables: give it store or open_store")
                tables = await owned.enter_async_context(open_store(settings, "swick-gateway"))
            if messages is None:
                messages = await RabbitBus.connect(settings.amqp_url, settings.topology)
                owned.push_async_callback(messages.close)
            hub = Hub(messages, metrics)
            chat = chat_for(tables)
            await chat.migrate()
            sessions = Sessions(versions_for(tables))
            await sessions.versions.migrate()
            app.state.gateway = Gateway(
                settings,
                messages,
                tables,
                hub,
                Tokens(
                    settings.secret,
                    settings.previous_secrets,
                    session_lifetime=settings.session_days * 86_400,
                ),
                {},
                Records(tables),
                ledger=ledger,
                chat=chat,
                replays=Replays(tables),
                sessions=sessions,
            )
            task = asyncio.create_task(hub.run())
            ready = asyncio.create_task(hub.ready.wait())
            await asyncio.wait([task, ready], return_when=asyncio.FIRST_COMPLETED)
            if task.done():  # it could not subscribe (say, the broker refused its user): say so
                ready.cancel()
                task.result()
            # Subscribed: from now on a lost subscription is taken again (supervised), and any
            # other failure of the hub ends the process (services/serve.py).
            subscribed = [task]

            async def hub_runs() -> None:
                await (subscribed.pop() if subscribed else hub.run())

            background = [
                asyncio.create_task(supervise("the updates hub", hub_runs, logger=log)),
                asyncio.create_task(supervise("the resender", hub.resend_overdue, logger=log)),
                asyncio.create_task(supervise("the sign-out sweep", sessions.run, logger=log)),
            ]
            app.state.background = background
            try:
                yield
            finally:
                for task in background:
                    task.cancel()
                for task in background:
                    with contextlib.suppress(BaseException):
                        await task

    # The API's documentation is on the internal listener (shared.observability.internal_app).
    app = FastAPI(
        title="Swick Online",
        version="1",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        openapi_url=None,
    )
    limit_requests(app)
    app.add_middleware(TrustedProxies, proxies=Proxies.parse(settings.trusted_proxies))
    app.add_middleware(SecurityHeaders)  # the outermost: on every answer, refusals included
    app.include_router(admin.router)

    async def ready() -> bool:
        gw: Gateway | None = getattr(app.state, "gateway", None)
        return gw is not None and gw.hub.ready.is_set() and gw.bus.connected

    add_probes(app, ready)
    app.state.registries = (metrics.registry, *also_exposes)
    add_player_routes(app)
    add_table_routes(app)
    add_game_routes(app)
    add_chip_routes(app)

    @app.get("/rules.md", include_in_schema=False)
    async def rules() -> FileResponse:
        if not RULES.is_file():
            raise HTTPException(404, "The rules are not shipped with this build")
        return FileResponse(RULES, media_type="text/markdown; charset=utf-8")

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(WEB / "index.html")

    @app.websocket("/ws")
    async def socket(websocket: WebSocket, token: Annotated[str, Query()] = "") -> None:
        await serve_socket(gateway_of(app), websocket, token)

    app.mount("/", StaticFiles(directory=WEB), name="web")  # last: it matches every path
    return app


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
        if await self._watched(message.id, message.table):
            player = self.conn.player
            await self._ask(
                message.id,
                m.Join(
                    table_id=message.table,
                    request_id=f"{player.id}/{message.id}",
                    player_id=player.id,
                    name=player.name,
                    seat=message.seat,
                ),
            )

    async def on_act(self, message: p.Act) -> None:
        if await self._watched(message.id, message.table):
            player = self.conn.player
            await self._ask(
                message.id,
                m.Act(
                    table_id=message.table,
                    request_id=f"{player.id}/{message.id}",
                    player_id=player.id,
                    seq=message.seq,
                    action=message.action,
                ),
            )

    async def _ask(self, client_id: str, request: m.Join | m.Act) -> None:
        """Send a request to its table; the table's outcome answers the client's message."""
        body = request.model_dump_json().encode()
        await self.gw.hub.send(request.request_id, self.conn, client_id, request.table_id, body)

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
