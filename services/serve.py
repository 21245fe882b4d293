"""``swick serve SERVICE``: run one service in this process until Ctrl-C or SIGTERM."""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import sys
from collections.abc import Coroutine, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import uvicorn
import uvloop
from fastapi import FastAPI

from services.bots.levels import LEVELS
from services.bots.service import BotService
from services.bots.strategy import StrategyFactory
from services.broker import passwords_from
from services.dependencies import available, broker, database
from services.gateway import proxies
from services.gateway.app import create_app as gateway_app
from services.gateway.transport import SOCKETS
from services.ledger.app import create_app as ledger_app
from services.table.store import TableStore, open_table_store
from services.table.wallets import LedgerWallets
from services.table.worker import TableWorker
from services.up import prepare
from shared.broker import BrokerSetupError, administrator
from shared.observability import (
    QuietServer,
    configure_logging,
    internal_app,
    serve_in_task,
    serve_probes,
)
from shared.secrets import is_loopback, refuse_unsafe
from shared.settings import Settings
from shared.startup import EXIT_CONFIGURATION, EXIT_FAILED, Startup
from shared.supervise import background

PORTS = {"gateway": 8000, "ledger": 8001, "table": 9100, "bots": 9101}
# The operators' listener (metrics, API docs) of the services with an HTTP API.
INTERNAL_PORTS = {"gateway": 9102, "ledger": 9103}


def refuse_public_defaults(service: str, settings: Settings, host: str) -> None:
    """Stop before listening on ``host`` if the secrets that ``service`` signs or checks with
    are development defaults or placeholders (see ``shared.secrets``). The ledger's
    credentials count for a gateway or table worker only when the ledger it calls is on
    another machine: one on loopback (``swick up``) is out of strangers' reach."""
    ledger_is_remote = not is_loopback(urlparse(settings.ledger_url).hostname or "")
    if service == "gateway":
        required = [("SWICK_SECRET", settings.secret)]
        if ledger_is_remote:
            required.append(("SWICK_LEDGER_READ_TOKEN", settings.ledger_read_token))
            required.append(("SWICK_LEDGER_CLOSE_TOKEN", settings.ledger_close_token))
        refuse_unsafe(
            host,
            required=required,
            optional=[
                ("SWICK_ADMIN_TOKEN", settings.admin_token),
                *(("SWICK_SECRET_PREVIOUS", old) for old in settings.previous_secrets),
            ],
        )
        untrusted = proxies.refusal(host, settings.trusted_proxies)
        if untrusted is not None:
            print(untrusted, file=sys.stderr, flush=True)
            raise SystemExit(2)
    elif service == "ledger":
        refuse_unsafe(
            host,
            required=[
                ("SWICK_LEDGER_TOKEN", settings.ledger_token),
                ("SWICK_LEDGER_READ_TOKEN", settings.ledger_read_token),
                ("SWICK_LEDGER_CLOSE_TOKEN", settings.ledger_close_token),
            ],
        )
    elif service == "table" and ledger_is_remote:
        refuse_unsafe(host, required=[("SWICK_LEDGER_TOKEN", settings.ledger_token)])


def serve(
    service: str,
    *,
    host: str = "127.0.0.1",
    port: int | None = None,
    internal_host: str | None = None,
    internal_port: int | None = None,
    only: str | None = None,
) -> int:
    configure_logging()
    settings = Settings.from_env()
    refuse_public_defaults(service, settings, host)
    startup = Startup.from_env()
    port = port or PORTS[service]
    if service in ("gateway", "ledger"):
        app = (
            gateway_app(settings, open_store=open_table_store)
            if service == "gateway"
            else ledger_app(settings)
        )
        public = uvicorn.Config(
            app,
            host=host,
            port=port,
            **SOCKETS,
            log_level="warning",
            lifespan="off",
        )
        internal = uvicorn.Config(
            internal_app(app),
            host=internal_host or host,
            port=internal_port or INTERNAL_PORTS[service],
            log_level="warning",
            lifespan="off",
        )
        uvloop.run(until_stopped(serve_started(service, app, settings, startup, public, internal)))
        return 0
    if service == "table":
        uvloop.run(until_stopped(run_table(settings, host=host, port=port, startup=startup)))
        return 0
    try:
        factories = built_in_bots(only)
    except ValueError as error:
        print(f"swick serve bots: {error}", file=sys.stderr)
        return EXIT_CONFIGURATION
    uvloop.run(until_stopped(run_bots(settings, factories, host=host, port=port, startup=startup)))
    return 0


def built_in_bots(only: str | None) -> dict[str, StrategyFactory]:
    """The built-in bots named by ``only`` (``"hard"``, ``"easy,medium"``), or all of them."""
    if not only:
        return dict(LEVELS)
    names = [name.strip() for name in only.split(",") if name.strip()]
    unknown = [name for name in names if name not in LEVELS]
    if unknown or not names:
        raise ValueError(f"--only takes some of {', '.join(LEVELS)}; got {only!r}")
    return {name: LEVELS[name] for name in names}


async def serve_both(public: uvicorn.Config, internal: uvicorn.Config) -> None:
    """The public listener and the internal one, until stopped (both gracefully)."""
    async with asyncio.TaskGroup() as tasks:
        tasks.create_task(serve_in_task(QuietServer(public)))
        tasks.create_task(serve_in_task(QuietServer(internal)))


async def serve_started(
    service: str,
    app: FastAPI,
    settings: Settings,
    startup: Startup,
    public: uvicorn.Config,
    internal: uvicorn.Config,
) -> None:
    """``serve_both`` once the dependencies answer and the app has started: its lifespan runs
    here rather than in uvicorn, whose failure would be a traceback and its own exit code."""
    await available(startup, settings)
    async with contextlib.AsyncExitStack() as running:
        async with startup.step(f"starting the {service}"):
            await running.enter_async_context(app.router.lifespan_context(app))
        async with asyncio.TaskGroup() as tasks:
            tasks.create_task(serve_both(public, internal))
            tasks.create_task(background(getattr(app.state, "background", ())))


def migrate(definitions: Path | None = None) -> int:
    """Migrate the databases and set up the broker's users and topology, then stop (a deploy's
    first step). The users' passwords come from their URLs (``SWICK_AMQP_URL_<ROLE>``)."""
    configure_logging()
    settings = Settings.from_env()
    document = None if definitions is None else json.loads(definitions.read_text())
    try:
        passwords, admin = passwords_from(settings), administrator(settings.rabbitmq_api)
    except BrokerSetupError as error:
        print(f"swick migrate: {error}", file=sys.stderr)
        return EXIT_CONFIGURATION
    try:
        asyncio.run(prepare(settings, passwords, admin, document))
    except BrokerSetupError as error:
        print(f"swick migrate: {error}", file=sys.stderr)
        return EXIT_FAILED
    return 0


async def until_stopped(main: Coroutine[Any, Any, None]) -> None:
    """Run ``main`` until it ends or the process is asked to stop."""
    loop = asyncio.get_running_loop()
    task = asyncio.ensure_future(main)
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, task.cancel)
    with contextlib.suppress(asyncio.CancelledError):
        await task


async def run_bots(
    settings: Settings,
    factories: Mapping[str, StrategyFactory] | None = None,
    *,
    host: str = "127.0.0.1",
    port: int = PORTS["bots"],
    startup: Startup | None = None,
) -> None:
    factories = factories or LEVELS
    startup = startup or Startup.from_env()
    # One connection per bot name, as that bot's broker user.
    buses = {name: await startup.wait_for(broker(settings, f"bot-{name}")) for name in factories}
    service = BotService(buses, factories, think_ms=settings.bot_think_ms)

    async def ready() -> bool:
        return service.ready() and all(bus.connected for bus in buses.values())

    try:
        async with asyncio.TaskGroup() as tasks:
            tasks.create_task(serve_probes(ready, host, port, service.metrics.registry))
            tasks.create_task(service.run())
    finally:
        for bus in buses.values():
            await bus.close()


async def run_table(
    settings: Settings,
    *,
    host: str = "127.0.0.1",
    port: int = PORTS["table"],
    startup: Startup | None = None,
) -> None:
    startup = startup or Startup.from_env()
    pool = await startup.wait_for(database(settings, application="swick-table"))
    store = TableStore(pool)
    async with startup.step("migrating the database"):
        await store.migrate(settings.shards)
    bus = await startup.wait_for(broker(settings, robust=False))
    wallets = LedgerWallets(settings.ledger_url, settings.ledger_token)
    worker = TableWorker(
        bus,
        store,
        wallets,
        bot_turn_ttl_ms=settings.bot_turn_ttl_ms,
        abandon_after=settings.abandon_seconds,
        host_tables=settings.host_tables,
    )

    async def ready() -> bool:
        return worker.ready.is_set() and bus.connected

    try:
        async with asyncio.TaskGroup() as tasks:
            tasks.create_task(serve_probes(ready, host, port, worker.metrics.registry))
            tasks.create_task(worker.run())
    finally:
        await wallets.close()
        await bus.close()
        await pool.close()
