"""``swick up``: the whole system on this machine, one process per service.

It migrates the databases and sets up the broker's users (their passwords made once and kept
in ``.swick/broker.json``, readable by its owner only), then starts the ledger, ``--tables``
table workers, a bots service per built-in bot (one bot's failure or load never touches
another's; probes on 9120, 9121, 9122) and the gateway against the RabbitMQ and PostgreSQL
named by the environment (the local ones by default), each with its own broker user. Every
output line is prefixed with its service; a service that dies is reported and started again;
Ctrl-C stops everything.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from services import broker
from services.dependencies import database
from services.ledger.ledger import Ledger
from services.table.store import TableStore
from shared.broker import Administrator, administrator
from shared.settings import ROLE_URL_PREFIX, Settings, reachable, role_variable
from shared.startup import Startup

RESTART_PAUSE = 1.0
PASSWORDS = Path(".swick") / "broker.json"


@dataclass
class Service:
    name: str
    args: list[str]
    env: dict[str, str] = field(default_factory=dict)
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


async def prepare(
    settings: Settings,
    passwords: Mapping[str, str],
    admin: Administrator,
    document: dict[str, Any] | None = None,
) -> None:
    """Migrations, the broker's users and the topology, once, before the services start."""
    startup = Startup.from_env()
    pool = await startup.wait_for(database(settings, size=2))
    try:
        async with startup.step("migrating the database"):
            await TableStore(pool).migrate(settings.shards)
            await Ledger(pool, settings.starting_grant).migrate()
    finally:
        await pool.close()
    await broker.setup(settings, passwords, admin, document=document)


def own_env(urls: Mapping[str, str], *roles: str) -> dict[str, str]:
    """A service's broker URLs, and no other's: ``SWICK_AMQP_URL`` is its first role's; a
    service of several roles (the bots) also gets each one's ``SWICK_AMQP_URL_<ROLE>``."""
    env = {"SWICK_AMQP_URL": urls[role_variable(roles[0])]}
    if len(roles) > 1:
        env |= {role_variable(role): urls[role_variable(role)] for role in roles}
    return env


async def up(
    settings: Settings, *, tables: int, host: str, port: int, internal_port: int = 9102
) -> None:
    passwords = broker.kept_passwords(PASSWORDS)
    await prepare(settings, passwords, administrator(settings.rabbitmq_api))
    urls = broker.urls(settings, passwords)
    ledger_port = settings.ledger_url.rsplit(":", 1)[-1]
    services = [
        Service(
            "ledger",
            ["ledger", "--port", ledger_port, "--internal-port", str(internal_port + 1)],
            own_env(urls, "ledger"),
        ),
        *(
            Service(f"table-{i + 1}", ["table", "--port", str(9110 + i)], own_env(urls, "table"))
            for i in range(tables)
        ),
        *(
            Service(
                f"bots-{bot}",
                ["bots", "--only", bot, "--port", str(9120 + i)],
                own_env(urls, f"bot-{bot}"),
            )
            for i, bot in enumerate(broker.BUILT_IN_BOTS)
        ),
        Service(
            "gateway",
            [
                *("gateway", "--host", host, "--port", str(port)),
                *("--internal-host", "127.0.0.1", "--internal-port", str(internal_port)),
            ],
            own_env(urls, "gateway"),
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
    inherited = {k: v for k, v in os.environ.items() if not k.startswith(ROLE_URL_PREFIX)}
    env = {**inherited, **service.env, "PYTHONUNBUFFERED": "1"}
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
