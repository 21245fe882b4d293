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

import uvicorn
import uvloop

from services.bots.levels import LEVELS
from services.bots.service import BotService
from services.bots.strategy import StrategyFactory
from services.broker import passwords_from
from services.gateway.app import create_app as gateway_app
from services.ledger.app import create_app as ledger_app
from services.table.store import TableStore, connect_pool
from services.table.wallets import LedgerWallets
from services.table.worker import TableWorker
from services.up import prepare
from shared.broker import BrokerSetupError, administrator
from shared.bus import RabbitBus
from shared.observability import (
    QuietServer,
    configure_logging,
    internal_app,
    serve_in_task,
    serve_probes,
)
from shared.secrets import refuse_unsafe
from shared.settings import Settings

PORTS = {"gateway": 8000, "ledger": 8001, "table": 9100, "bots": 9101}
# The operators' listener (metrics, API docs) of the services with an HTTP API.
INTERNAL_PORTS = {"gateway": 9102, "ledger": 9103}


def refuse_public_defaults(service: str, settings: Settings, host: str) -> None:
    """Stop before listening on ``host`` if the secrets that ``service`` signs or checks with
    are development defaults or placeholders (see ``shared.secrets``)."""
    if service == "gateway":
        refuse_unsafe(
            host,
            required=[("SWICK_SECRET", settings.secret)],
            optional=[
                ("SWICK_ADMIN_TOKEN", settings.admin_token),
                *(("SWICK_SECRET_PREVIOUS", old) for old in settings.previous_secrets),
            ],
        )


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
    port = port or PORTS[service]
    if service in ("gateway", "ledger"):
        app = gateway_app(settings) if service == "gateway" else ledger_app(settings)
        public = uvicorn.Config(app, host=host, port=port, ws_max_size=65_536, log_level="warning")
        internal = uvicorn.Config(
            internal_app(app),
            host=internal_host or host,
            port=internal_port or INTERNAL_PORTS[service],
            log_level="warning",
            lifespan="off",
        )
        uvloop.run(until_stopped(serve_both(public, internal)))
        return 0
    if service == "table":
        uvloop.run(until_stopped(run_table(settings, host=host, port=port)))
        return 0
    try:
        factories = built_in_bots(only)
    except ValueError as error:
        print(f"swick serve bots: {error}", file=sys.stderr)
        return 2
    uvloop.run(until_stopped(run_bots(settings, factories, host=host, port=port)))
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


def migrate(definitions: Path | None = None) -> int:
    """Migrate the databases and set up the broker's users and topology, then stop (a deploy's
    first step). The users' passwords come from their URLs (``SWICK_AMQP_URL_<ROLE>``)."""
    configure_logging()
    settings = Settings.from_env()
    document = None if definitions is None else json.loads(definitions.read_text())
    try:
        passwords = passwords_from(settings)
        asyncio.run(prepare(settings, passwords, administrator(settings.rabbitmq_api), document))
    except BrokerSetupError as error:
        print(f"swick migrate: {error}", file=sys.stderr)
        return 1
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
) -> None:
    factories = factories or LEVELS
    # One connection per bot name, as that bot's broker user.
    buses = {
        name: await RabbitBus.connect(settings.amqp_url_for(f"bot-{name}"), settings.topology)
        for name in factories
    }
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
    settings: Settings, *, host: str = "127.0.0.1", port: int = PORTS["table"]
) -> None:
    pool = await connect_pool(settings.database_url)
    store = TableStore(pool)
    await store.migrate(settings.shards)
    bus = await RabbitBus.connect(settings.amqp_url, settings.topology, robust=False)
    wallets = LedgerWallets(settings.ledger_url)
    worker = TableWorker(bus, store, wallets, bot_turn_ttl_ms=settings.bot_turn_ttl_ms)

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
