"""``swick serve SERVICE``: run one service in this process until Ctrl-C or SIGTERM."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
from collections.abc import Coroutine, Mapping
from typing import Any

import uvicorn
import uvloop

from services.bots.levels import LEVELS
from services.bots.service import BotService
from services.bots.strategy import StrategyFactory
from services.gateway.app import create_app as gateway_app
from services.ledger.app import create_app as ledger_app
from services.table.store import TableStore, connect_pool
from services.table.wallets import LedgerWallets
from services.table.worker import TableWorker
from services.up import prepare
from shared.bus import RabbitBus
from shared.observability import configure_logging, serve_probes
from shared.settings import Settings

PORTS = {"gateway": 8000, "ledger": 8001, "table": 9100, "bots": 9101}


def serve(service: str, *, host: str = "127.0.0.1", port: int | None = None) -> int:
    configure_logging()
    settings = Settings.from_env()
    port = port or PORTS[service]
    refusal = settings.refusal(service, host)
    if refusal is not None:
        sys.stderr.write(refusal + "\n")
        return 2
    if service in ("gateway", "ledger"):
        app = gateway_app(settings) if service == "gateway" else ledger_app(settings)
        uvicorn.run(app, host=host, port=port, ws_max_size=65_536, log_level="warning")
        return 0
    runner = run_table if service == "table" else run_bots
    uvloop.run(until_stopped(runner(settings, host=host, port=port)))
    return 0


def migrate() -> int:
    """Migrate the databases and declare the bus topology, then stop (a deploy's first step)."""
    configure_logging()
    asyncio.run(prepare(Settings.from_env()))
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
    bus = await RabbitBus.connect(settings.amqp_url, settings.topology)
    service = BotService(bus, factories or LEVELS, think_ms=settings.bot_think_ms)

    async def ready() -> bool:
        return bus.connected

    try:
        async with asyncio.TaskGroup() as tasks:
            tasks.create_task(serve_probes(ready, host, port))
            tasks.create_task(service.run())
    finally:
        await bus.close()


async def run_table(
    settings: Settings, *, host: str = "127.0.0.1", port: int = PORTS["table"]
) -> None:
    pool = await connect_pool(settings.database_url)
    store = TableStore(pool)
    await store.migrate(settings.shards)
    bus = await RabbitBus.connect(settings.amqp_url, settings.topology, robust=False)
    wallets = LedgerWallets(settings.ledger_url, settings.ledger_token)
    worker = TableWorker(bus, store, wallets)

    async def ready() -> bool:
        return worker.ready.is_set() and bus.connected

    try:
        async with asyncio.TaskGroup() as tasks:
            tasks.create_task(serve_probes(ready, host, port))
            tasks.create_task(worker.run())
    finally:
        await wallets.close()
        await bus.close()
        await pool.close()
