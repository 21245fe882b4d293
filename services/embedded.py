"""Every service in one process, for a machine without RabbitMQ or PostgreSQL.

The same gateway, table worker, bots and ledger code runs over the in-process bus and an
SQLite file instead of the broker and the database. One machine only: no second worker can
share the tables, and the file is the whole state. The process listens on the gateway's port,
and on this machine only on the internal one (metrics, API docs); the ledger has no port: the
table worker asks the ledger's storage directly, and the gateway asks the ledger's app in this
process.
"""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import httpx
import uvicorn

from services.bots.levels import LEVELS
from services.bots.service import BotService
from services.gateway.app import create_app as gateway_app
from services.gateway.transport import SOCKETS
from services.ledger.app import create_app as ledger_app
from services.ledger.ledger_sqlite import SqliteLedger
from services.local_wallets import LocalWallets
from services.table.store_sqlite import SqliteTableStore
from services.table.worker import TableWorker
from shared.memory_bus import MemoryBus
from shared.observability import QuietServer, internal_app, serve_in_task
from shared.settings import Settings
from shared.sqlite import Database
from shared.supervise import background

DATABASE_FILE = "swick.sqlite3"
INTERNAL_PORT = 9102


def check_port(host: str, port: int) -> None:
    """Stop at once, naming the port, if something already listens where the gateway would."""
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server will
        try:
            probe.bind((host, port))
        except OSError as error:
            raise SystemExit(
                f"Port {port} on {host} is in use ({error.strerror}): stop what listens there"
                " or choose another port with --port"
            ) from None


async def run_embedded(
    settings: Settings, *, host: str, port: int, data: Path, internal_port: int = INTERNAL_PORT
) -> None:
    await asyncio.to_thread(data.mkdir, parents=True, exist_ok=True)
    db = await Database.open(data / DATABASE_FILE)
    store = SqliteTableStore(db)
    await store.migrate(settings.shards)
    ledger = SqliteLedger(db, settings.starting_grant)
    await ledger.migrate()
    for name in LEVELS:
        await store.register_bot(name, "swick")
    # One bus, and a handle on it for each service as its own user, as on the broker.
    t = settings.topology
    bus = MemoryBus(t)
    worker = TableWorker(
        bus.as_user(t.user("table")),
        store,
        LocalWallets(ledger),
        bot_turn_ttl_ms=settings.bot_turn_ttl_ms,
        abandon_after=settings.abandon_seconds,
        host_tables=settings.host_tables,
    )
    bot_buses = {name: bus.as_user(t.bot_user(name)) for name in LEVELS}
    bots = BotService(bot_buses, LEVELS, think_ms=settings.bot_think_ms)
    books = ledger_app(settings, ledger=ledger, bus=bus.as_user(t.user("ledger")))
    gateway = gateway_app(
        settings,
        bus=bus.as_user(t.user("gateway")),
        store=store,
        ledger=httpx.ASGITransport(app=books),
        also_exposes=(worker.metrics.registry, bots.metrics.registry, *books.state.registries),
    )
    servers = [
        QuietServer(
            uvicorn.Config(
                gateway,
                host=host,
                port=port,
                **SOCKETS,
                log_level="warning",
            )
        ),
        # Metrics (of every service: one process) and the API docs, on this machine only.
        QuietServer(
            uvicorn.Config(
                internal_app(gateway),
                host="127.0.0.1",
                port=internal_port,
                log_level="warning",
                lifespan="off",
            )
        ),
    ]
    try:
        # The ledger's lifespan applies the postings from the bus; its HTTP API has no port.
        async with books.router.lifespan_context(books), asyncio.TaskGroup() as tasks:
            tasks.create_task(worker.run())
            tasks.create_task(bots.run())
            tasks.create_task(background(books.state.background))
            for server in servers:
                tasks.create_task(serve_in_task(server))
    finally:
        await db.close()
