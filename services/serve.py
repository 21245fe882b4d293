"""``swick serve SERVICE``: run one service in this process until Ctrl-C or SIGTERM."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Coroutine, Mapping
from typing import Any

import uvicorn

from services.bots.levels import LEVELS
from services.bots.service import BotService
from services.bots.strategy import StrategyFactory
from services.gateway.app import create_app as gateway_app
from services.ledger.app import create_app as ledger_app
from services.table.store import TableStore, connect_pool
from services.table.wallets import LedgerWallets
from services.table.worker import TableWorker
from shared.bus import Bus
from shared.settings import Settings

LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s %(message)s"


def serve(service: str, *, host: str = "127.0.0.1", port: int = 8000) -> int:
    logging.basicConfig(level=logging.INFO, format=LOG_FORMAT)
    logging.getLogger("httpx").setLevel(logging.WARNING)  # a line per request is noise
    settings = Settings.from_env()
    if service in ("gateway", "ledger"):
        app = gateway_app(settings) if service == "gateway" else ledger_app(settings)
        uvicorn.run(app, host=host, port=port, ws_max_size=65_536, log_level="warning")
        return 0
    runners = {"table": run_table, "bots": run_bots}
    asyncio.run(until_stopped(runners[service](settings)))
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
    settings: Settings, factories: Mapping[str, StrategyFactory] | None = None
) -> None:
    bus = await Bus.connect(settings.amqp_url, settings.topology)
    try:
        await BotService(bus, factories or LEVELS, think_ms=settings.bot_think_ms).run()
    finally:
        await bus.close()


async def run_table(settings: Settings) -> None:
    pool = await connect_pool(settings.database_url)
    store = TableStore(pool)
    await store.migrate(settings.shards)
    bus = await Bus.connect(settings.amqp_url, settings.topology, robust=False)
    wallets = LedgerWallets(settings.ledger_url)
    try:
        await TableWorker(bus, store, wallets).run()
    finally:
        await wallets.close()
        await bus.close()
        await pool.close()
