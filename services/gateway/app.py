"""The gateway: the lobby over HTTP, one WebSocket per player, and the web client's files.

Player actions become requests on the bus (to the shard that owns the table); what the tables
publish comes back through the hub, each socket receiving only its own view.

This module only composes its parts, each one concept, sharing one ``Gateway`` (``state.py``:
its services, its sockets and its limits):

- ``routes_players.py``, ``routes_account.py``, ``routes_tables.py``, ``routes_games.py``,
  ``routes_chips.py``: the lobby's routes (signing up, one's account and devices, the tables,
  finished games' records and replays, the chips); ``signing_in.py``: a device signing in;
  ``routes_passkeys.py``: adding passkeys and signing in with one;
- ``models.py``: their request and response bodies; ``signed_in.py``: who a token is;
- ``opening.py``: opening a table (and quick play); ``table_requests.py``: requests to tables;
- ``ledger_proxy.py``: the ledger's read-only answers;
- ``socket_endpoint.py``: one socket from its handshake to its close; ``socket_session.py``:
  each message it sends, checked, then answered or sent on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated

import httpx
from fastapi import FastAPI, HTTPException, Query, WebSocket
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles
from prometheus_client import CollectorRegistry

from services.gateway import admin, deleting
from services.gateway.accounts import accounts_for
from services.gateway.chat import chat_for
from services.gateway.devices import devices_for
from services.gateway.hub import Hub
from services.gateway.identity import Tokens
from services.gateway.metrics import GatewayMetrics
from services.gateway.passkeys import passkeys_for
from services.gateway.proxies import Proxies, TrustedProxies
from services.gateway.records import Records
from services.gateway.replays import Replays
from services.gateway.routes_account import add_account_routes
from services.gateway.routes_chips import add_chip_routes
from services.gateway.routes_codes import add_code_routes
from services.gateway.routes_games import add_game_routes
from services.gateway.routes_history import add_history_routes
from services.gateway.routes_passkeys import add_passkey_routes
from services.gateway.routes_players import add_player_routes
from services.gateway.routes_ratings import add_rating_routes
from services.gateway.routes_tables import add_table_routes
from services.gateway.security import SecurityHeaders
from services.gateway.sessions import Sessions, versions_for
from services.gateway.socket_endpoint import serve_socket
from services.gateway.state import Gateway, gateway_of
from shared.bus import Bus, given_or_connected
from shared.observability import add_probes, public_app
from shared.settings import Settings
from shared.supervise import supervise
from shared.tables_read import OpenTableReads, TableReads

log = logging.getLogger("swick.gateway")

WEB = Path(__file__).parent / "web"
RULES = Path(__file__).resolve().parents[2] / "SWICK_RULES.md"


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
            if tables is None:
                if open_store is None:
                    raise ValueError("the gateway needs the tables: give it store or open_store")
                tables = await owned.enter_async_context(open_store(settings, "swick-gateway"))
            messages = await given_or_connected(bus, settings.amqp_url, settings.topology, owned)
            hub = Hub(messages, metrics)
            chat = chat_for(tables)
            await chat.migrate()
            sessions = Sessions(versions_for(tables), devices_for(tables))
            await sessions.versions.migrate()
            accounts = accounts_for(tables)
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
                accounts=accounts,
                passkeys=passkeys_for(tables),
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

    app = public_app("Swick Online", lifespan)
    app.add_middleware(TrustedProxies, proxies=Proxies.parse(settings.trusted_proxies))
    app.add_middleware(SecurityHeaders)  # the outermost: on every answer, refusals included
    app.include_router(admin.router)
    app.include_router(deleting.router)

    async def ready() -> bool:
        gw: Gateway | None = getattr(app.state, "gateway", None)
        return gw is not None and gw.hub.ready.is_set() and gw.bus.connected

    add_probes(app, ready)
    app.state.registries = (metrics.registry, *also_exposes)
    add_player_routes(app)
    add_account_routes(app)
    add_passkey_routes(app)
    add_code_routes(app)
    add_table_routes(app)
    add_game_routes(app)
    add_history_routes(app)
    add_rating_routes(app)
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
