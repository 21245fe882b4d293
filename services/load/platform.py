"""The whole platform as real processes in a namespace and database of its own: start, find,
kill, restart, and measure what each process costs.

The load test, the chaos run and the integration tests all drive the services through this.
"""

from __future__ import annotations

import asyncio
import os
import random
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from urllib.parse import urlparse

import aio_pika
import asyncpg
import httpx

from services import broker
from services.table.store import TableStore
from shared.broker import administrator
from shared.postgres import connect_pool
from shared.settings import ROLE_URL_PREFIX, Settings, role_variable

APPLICATION_PREFIX = "swick-"  # each service's database connections say which service it is

SERVICES = ("ledger", "table", "bots", "gateway")
BUILT_IN = broker.BUILT_IN_BOTS
# How long a service may take to start before it counts as hung: far above any slow start, so
# a loaded machine is only slower, never failed (a process that exits fails the wait at once).
STARTUP_BACKSTOP = 600.0
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
PAGE_BYTES = os.sysconf("SC_PAGE_SIZE")


# The ports a test platform's services listen on come from below the kernel's ephemeral range
# (32768 and up on Linux), which outgoing connections draw from: a port found free there can be
# taken by one of the platform's own connections before the service binds it.
LISTEN_PORTS = range(20_000, 32_768)
_port_picker = random.Random()


def free_port() -> int:
    for port in _port_picker.sample(LISTEN_PORTS, 200):
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue  # in use
            return port
    raise RuntimeError(f"no free port in {LISTEN_PORTS}")


@asynccontextmanager
async def fresh_database(dsn: str, label: str = "test") -> AsyncIterator[str]:
    """A new empty database on the server of ``dsn``; its DSN, dropped afterwards."""
    name = f"swick_{label}_{secrets.token_hex(4)}"
    admin = await asyncpg.connect(dsn)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
        try:
            yield urlparse(dsn)._replace(path=f"/{name}").geturl()
        finally:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await admin.close()


@asynccontextmanager
async def isolated(
    amqp_url: str,
    database_url: str,
    *,
    shards: int = 8,
    bot_think_ms: int = 50,
    label: str = "run",
    grants_per_address: int = 1_000_000,
    database_pool: int = 4,
) -> AsyncIterator[Settings]:
    """Settings for a fresh database and bus namespace (with ledger credentials of their own),
    removed again afterwards. Sign-ups are limited per address only as ``grants_per_address``
    says: a load test signs everyone up from one address. Each service process holds at most
    ``database_pool`` connections, so several platforms fit in one server's connection limit.

    The namespace's broker users (one per service kind and built-in bot, with new passwords)
    are made first: ``amqp_url`` stays the administrator's, and ``amqp_url_for(role)`` gives
    each service its own. They are deleted afterwards, with the users of the bots registered
    meanwhile (``SWICK_RABBITMQ_API`` names the management API if ``rabbitmqctl`` is not here).
    """
    async with fresh_database(database_url, label) as dsn:
        settings = Settings(
            amqp_url=amqp_url,
            database_url=dsn,
            namespace=f"{label}-{secrets.token_hex(4)}",
            shards=shards,
            secret=secrets.token_hex(16),
            ledger_url=f"http://127.0.0.1:{free_port()}",
            bot_think_ms=bot_think_ms,
            admin_token=secrets.token_hex(16),
            ledger_token=secrets.token_hex(16),
            ledger_read_token=secrets.token_hex(16),
            ledger_close_token=secrets.token_hex(16),
            grants_per_address=grants_per_address,
            database_pool=database_pool,
            rabbitmq_api=os.environ.get("SWICK_RABBITMQ_API", ""),
        )
        admin = administrator(settings.rabbitmq_api)
        passwords = broker.new_passwords()
        try:
            await broker.setup(settings, passwords, admin)
            yield replace(settings, amqp_urls=broker.urls(settings, passwords))
        finally:
            await delete_topology(settings)
            await admin.delete_users(await users_of(settings))


async def users_of(settings: Settings) -> list[str]:
    """The broker users of a namespace: its services' and its registered bots'."""
    bots = await registered(settings)
    return [broker.user_of(settings.topology, role) for role in broker.roles(bots)]


async def delete_topology(settings: Settings) -> None:
    t = settings.topology
    connection = await aio_pika.connect(settings.amqp_url)
    async with connection:
        channel = await connection.channel()
        names = [t.shard_queue(k) for k in range(t.shards)]
        bots = await registered(settings)
        names += [t.postings] + [t.bot_queue(bot) for bot in bots]
        names += [t.bot_actions(bot) for bot in bots]
        for queue in names:
            await channel.queue_delete(queue)
        for exchange in (t.requests, t.updates, t.bots, t.postings, *map(t.bot_actions, bots)):
            await channel.exchange_delete(exchange)


async def registered(settings: Settings) -> list[str]:
    pool = await connect_pool(settings.database_url, size=1)
    try:
        return [account.name for account in await TableStore(pool).bot_accounts()]
    finally:
        await pool.close()


def application_name(service: str) -> str:
    """The name a service's database connections carry (``pg_stat_activity.application_name``):
    the chaos run finds a service's connections by it to cut them."""
    return f"{APPLICATION_PREFIX}{service}"


def named(dsn: str, service: str) -> str:
    """``dsn`` whose connections carry ``service``'s application name."""
    parsed = urlparse(dsn)
    name = f"application_name={application_name(service)}"
    return parsed._replace(query=f"{parsed.query}&{name}" if parsed.query else name).geturl()


def at_address(url: str, where: str) -> str:
    """``url`` (its credentials, its virtual host) at the host and port of ``where``."""
    parsed, there = urlparse(url), urlparse(where)
    credentials = parsed.netloc.rpartition("@")[0]
    address = there.netloc.rpartition("@")[2]
    return parsed._replace(netloc=f"{credentials}@{address}" if credentials else address).geturl()


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a live process (0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def resident_bytes(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE_BYTES
    except OSError:
        return 0


def processes_named(*names: str) -> list[int]:
    """Live processes whose command name is one of ``names`` (the broker's, the database's)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() in names:
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


async def answering(
    base: str,
    path: str,
    accept: tuple[int, ...] = (200,),
    within: float = STARTUP_BACKSTOP,
    process: subprocess.Popen[bytes] | None = None,
) -> None:
    """Wait until ``base``/``path`` answers with a status in ``accept``. A ``process`` that
    exits first fails the wait at once; ``within`` seconds only stop a hang, so a slow or busy
    machine waits as long as it needs."""
    deadline = time.monotonic() + within
    async with httpx.AsyncClient(base_url=base) as http:
        while True:
            try:
                if (await http.get(path)).status_code in accept:
                    return
            except httpx.TransportError:
                pass
            if process is not None and process.poll() is not None:
                raise RuntimeError(f"{base} exited with {process.returncode} before answering")
            if time.monotonic() > deadline:
                raise TimeoutError(f"{base}{path} did not answer in {within:.0f} s")
            await asyncio.sleep(0.2)


@dataclass
class Platform:
    settings: Settings
    logs: Path
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)
    roles: dict[int, str] = field(default_factory=dict)  # pid -> service
    probes: dict[int, int] = field(default_factory=dict)  # pid -> health and metrics port
    internal: dict[int, int] = field(default_factory=dict)  # pid -> gateway's, ledger's internal
    base: str = ""
    # CPU seconds of the processes this platform stopped or killed, by service.
    cpu_of_the_dead: dict[str, float] = field(default_factory=dict)
    # Bots services of registered bots (``bot-<name>``): the strategy each one runs.
    strategies: dict[str, str] = field(default_factory=dict)

    def env(self, service: str) -> dict[str, str]:
        """A service's environment: its own broker user, and no other's."""
        s = self.settings
        inherited = {k: v for k, v in os.environ.items() if not k.startswith(ROLE_URL_PREFIX)}
        if service == "bots":
            bots = {role_variable(f"bot-{b}"): s.amqp_url_for(f"bot-{b}") for b in BUILT_IN}
            own = {"SWICK_AMQP_URL": next(iter(bots.values())), **bots}
        elif service.startswith("bot-"):  # one registered bot's service: its user only
            url = s.amqp_url_for(service)
            own = {"SWICK_AMQP_URL": url, role_variable(service): url}
        else:
            own = {"SWICK_AMQP_URL": s.amqp_url_for(service)}
        return {
            **inherited,
            **own,
            "SWICK_DATABASE_URL": named(s.database_url, service),
            "SWICK_DATABASE_POOL": str(s.database_pool),
            "SWICK_NAMESPACE": s.namespace,
            "SWICK_SHARDS": str(s.shards),
            "SWICK_SECRET": s.secret,
            "SWICK_LEDGER_URL": s.ledger_url,
            "SWICK_BOT_THINK_MS": str(s.bot_think_ms),
            "SWICK_BOT_TURN_TTL_MS": str(s.bot_turn_ttl_ms),
            "SWICK_ADMIN_TOKEN": s.admin_token,
            "SWICK_LEDGER_TOKEN": s.ledger_token,
            "SWICK_LEDGER_READ_TOKEN": s.ledger_read_token,
            "SWICK_LEDGER_CLOSE_TOKEN": s.ledger_close_token,
            "SWICK_GRANTS_PER_ADDRESS": str(s.grants_per_address),
            "SWICK_GRANT_PERIOD_HOURS": str(s.grant_period_hours),
            "SWICK_ABANDON_SECONDS": str(s.abandon_seconds),
            "SWICK_HOST_TABLES": str(s.host_tables),
            "PYTHONUNBUFFERED": "1",
        }

    async def start(
        self, workers: int = 2, bots: int = 2, gateway_amqp_url: str | None = None
    ) -> None:
        """The standard lineup: a ledger, ``workers`` table workers, bot services, a gateway."""
        await self.start_ledger()
        for _ in range(workers):
            self.start_worker()
        for _ in range(bots):
            self.start_bots()
        await self.start_gateway(gateway_amqp_url)
        await self.settled(workers=workers)

    def spawn(
        self, name: str, *args: str, env: dict[str, str] | None = None, command: str = "serve"
    ) -> subprocess.Popen[bytes]:
        self.logs.mkdir(parents=True, exist_ok=True)
        log = (self.logs / f"{name}-{len(self.processes)}.log").open("wb")
        process = subprocess.Popen(
            [sys.executable, "-m", "services.cli", command, *args],
            env=self.env(name) | (env or {}),
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        self.processes.append(process)
        self.roles[process.pid] = name
        return process

    def internal_base(self, service: str) -> str:
        """The internal listener (metrics, API docs) of the running ``service`` (gateway or
        ledger)."""
        (process,) = self.running(service)
        return f"http://127.0.0.1:{self.internal[process.pid]}"

    def running(self, service: str | None = None) -> list[subprocess.Popen[bytes]]:
        return [
            p
            for p in self.processes
            if (service is None or self.roles[p.pid] == service) and p.poll() is None
        ]

    def start_bots(self) -> subprocess.Popen[bytes]:
        return self._with_probes("bots")

    async def register_bot(self, name: str, strategy: str, owner: str = "swick-load") -> None:
        """A bot account ``name`` (its broker user, its turns queue) whose service runs
        ``strategy`` (``package.module:Class``) when started with ``start_bot``."""
        url = await broker.register_bot(
            self.settings, name, owner, administrator(self.settings.rabbitmq_api)
        )
        role = f"bot-{name}"
        self.settings = replace(
            self.settings, amqp_urls={**self.settings.amqp_urls, role_variable(role): url}
        )
        self.strategies[role] = strategy

    def start_bot(self, name: str, env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
        """The bots service of the registered bot ``name`` (``swick bots``)."""
        role, port = f"bot-{name}", free_port()
        think = str(self.settings.bot_think_ms)
        process = self.spawn(
            role,
            *("--strategy", self.strategies[role], "--name", name),
            *("--think-ms", think, "--port", str(port)),
            env=env,
            command="bots",
        )
        self.probes[process.pid] = port
        return process

    def start_worker(self) -> subprocess.Popen[bytes]:
        return self._with_probes("table")

    def _with_probes(self, service: str) -> subprocess.Popen[bytes]:
        port = free_port()
        process = self.spawn(service, service, "--port", str(port))
        self.probes[process.pid] = port
        return process

    async def start_ledger(self) -> subprocess.Popen[bytes]:
        port, internal = int(self.settings.ledger_url.rsplit(":", 1)[1]), free_port()
        process = self.spawn(
            "ledger", "ledger", "--port", str(port), "--internal-port", str(internal)
        )
        self.internal[process.pid] = internal
        await answering(self.settings.ledger_url, "/health", accept=(200, 503), process=process)
        return process

    async def start_gateway(self, amqp_url: str | None = None) -> str:
        """``amqp_url``: where this gateway finds the broker, if not where the others do (a
        proxy that can cut its connection); it signs in as the gateway's user all the same."""
        port, internal = free_port(), free_port()
        own = self.settings.amqp_url_for("gateway")
        env = {"SWICK_AMQP_URL": at_address(own, amqp_url)} if amqp_url else None
        process = self.spawn(
            "gateway", "gateway", "--port", str(port), "--internal-port", str(internal), env=env
        )
        self.internal[process.pid] = internal
        self.base = f"http://127.0.0.1:{port}"
        await answering(self.base, "/api/tables", process=process)
        return self.base

    def kill(self, process: subprocess.Popen[bytes], sig: int = signal.SIGKILL) -> None:
        self._bury(process)
        process.send_signal(sig)
        process.wait()

    async def leases(self) -> dict[int, tuple[str, int]]:
        """Live leases: shard -> (owner, epoch)."""
        conn = await asyncpg.connect(self.settings.database_url)
        try:
            rows = await conn.fetch(
                "SELECT shard, owner, epoch FROM tables.leases WHERE expires_at > now()"
            )
        finally:
            await conn.close()
        return {row["shard"]: (row["owner"], row["epoch"]) for row in rows}

    async def settled(
        self, workers: int, within: float = STARTUP_BACKSTOP
    ) -> dict[int, tuple[str, int]]:
        """Wait until every shard is leased, spread over ``workers`` owners (a worker that dies
        starting is replaced; ``within`` only stops a hang)."""
        deadline = time.monotonic() + within
        while True:
            try:
                leases = await self.leases()
            except asyncpg.UndefinedTableError:
                leases = {}
            owners = {owner for owner, _ in leases.values()}
            if len(leases) == self.settings.shards and len(owners) == workers:
                return leases
            if len(self.running("table")) < workers:
                self.start_worker()  # one died starting (its probe port was taken meanwhile)
            if time.monotonic() > deadline:
                raise TimeoutError(f"shards not settled: {leases}")
            await asyncio.sleep(0.2)

    async def restore(self, workers: int = 2, bots: int = 2) -> None:
        """Bring back the standard lineup, whatever was stopped."""
        if not self.running("ledger"):
            await self.start_ledger()
        if not self.running("gateway"):
            await self.start_gateway()
        for _ in range(bots - len(self.running("bots"))):
            self.start_bots()
        missing = workers - len(self.running("table"))
        for _ in range(missing):
            self.start_worker()
        if missing > 0:
            await self.settled(workers=workers)

    def cpu_by_service(self) -> dict[str, float]:
        """CPU time of every service process this platform ran, live or gone, by service."""
        spent = dict(self.cpu_of_the_dead)
        for process in self.running():
            service = self.roles[process.pid]
            spent[service] = spent.get(service, 0.0) + cpu_seconds(process.pid)
        return spent

    def _bury(self, process: subprocess.Popen[bytes]) -> None:
        """Keep the CPU time of a process about to stop (``/proc`` forgets it)."""
        service = self.roles[process.pid]
        self.cpu_of_the_dead[service] = self.cpu_of_the_dead.get(service, 0.0) + cpu_seconds(
            process.pid
        )

    def resident_bytes(self) -> int:
        return sum(resident_bytes(p.pid) for p in self.running())

    def stop(self) -> None:
        for process in self.running():
            self._bury(process)
            process.send_signal(signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
