"""``swick up``: the whole system on this machine, one process per service.

It migrates the databases, then starts the ledger, ``--tables`` table workers, the bots service
and the gateway against the RabbitMQ and PostgreSQL named by the environment (the local ones by
default). Every output line is prefixed with its service; a service that dies is reported and
started again; Ctrl-C stops everything.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import time
from dataclasses import dataclass, field

from services.ledger.ledger import Ledger
from services.table.store import TableStore, connect_pool
from shared.bus import RabbitBus
from shared.settings import Settings, reachable

RESTART_PAUSE = 1.0


@dataclass
class Service:
    name: str
    args: list[str]
    process: asyncio.subprocess.Process | None = field(default=None, repr=False)
    restarts: int = 0


def services_reachable(settings: Settings) -> bool:
    """Whether to run against RabbitMQ and PostgreSQL: yes if the environment names them, or
    if both answer on their addresses."""
    if os.environ.get("SWICK_AMQP_URL") or os.environ.get("SWICK_DATABASE_URL"):
        return True
    return all(
        reachable(url, port)
        for url, port in ((settings.amqp_url, 5672), (settings.database_url, 5432))
    )


async def prepare(settings: Settings) -> None:
    """Migrations and the bus topology, once, before the services start."""
    pool = await connect_pool(settings.database_url, size=2)
    try:
        await TableStore(pool).migrate(settings.shards)
        await Ledger(pool, settings.starting_grant).migrate()
    finally:
        await pool.close()
    bus = await RabbitBus.connect(settings.amqp_url, settings.topology)
    await bus.close()


async def up(
    settings: Settings, *, tables: int, host: str, port: int, internal_port: int = 9102
) -> None:
    await prepare(settings)
    ledger_port = settings.ledger_url.rsplit(":", 1)[-1]
    services = [
        Service(
            "ledger", ["ledger", "--port", ledger_port, "--internal-port", str(internal_port + 1)]
        ),
        *(Service(f"table-{i + 1}", ["table", "--port", str(9110 + i)]) for i in range(tables)),
        Service("bots", ["bots", "--port", "9101"]),
        Service(
            "gateway",
            [
                *("gateway", "--host", host, "--port", str(port)),
                *("--internal-host", "127.0.0.1", "--internal-port", str(internal_port)),
            ],
        ),
    ]
    width = max(len(s.name) for s in services)
    async with asyncio.TaskGroup() as tasks:
        for service in services:
            tasks.create_task(supervise(service, width))
        address = "localhost" if host in ("0.0.0.0", "127.0.0.1") else host
        say("up", width, f"Swick Online is up: open http://{address}:{port}/")


def say(name: str, width: int, line: str) -> None:
    sys.stdout.write(f"{name:>{width}} | {line}\n")
    sys.stdout.flush()


async def supervise(service: Service, width: int) -> None:
    """Run ``service``, forward its output, and restart it whenever it dies."""
    command = [sys.executable, "-m", "services.cli", "serve", *service.args]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    try:
        while True:
            started = time.monotonic()
            service.process = await asyncio.create_subprocess_exec(
                *command, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT, env=env
            )
            assert service.process.stdout is not None
            async for raw in service.process.stdout:
                say(service.name, width, raw.decode(errors="replace").rstrip())
            code = await service.process.wait()
            service.restarts += 1
            say(service.name, width, f"exited with {code}: restarting (restart {service.restarts})")
            await asyncio.sleep(RESTART_PAUSE if time.monotonic() - started > 5 else 5.0)
    finally:
        process = service.process
        if process is not None and process.returncode is None:
            process.send_signal(signal.SIGTERM)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(process.wait(), 10)
            if process.returncode is None:
                process.kill()
