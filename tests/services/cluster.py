"""The services as real processes, for integration tests: start, find, kill, restart."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import asyncpg
import httpx

from shared.settings import Settings
from tests.conftest import free_port


@dataclass
class Cluster:
    settings: Settings
    logs: Path
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)
    roles: dict[int, str] = field(default_factory=dict)  # pid -> service
    probes: dict[int, int] = field(default_factory=dict)  # pid -> health and metrics port
    base: str = ""

    def env(self) -> dict[str, str]:
        s = self.settings
        return {
            **os.environ,
            "SWICK_AMQP_URL": s.amqp_url,
            "SWICK_DATABASE_URL": s.database_url,
            "SWICK_NAMESPACE": s.namespace,
            "SWICK_SHARDS": str(s.shards),
            "SWICK_SECRET": s.secret,
            "SWICK_LEDGER_URL": s.ledger_url,
            "SWICK_BOT_THINK_MS": str(s.bot_think_ms),
            "SWICK_ADMIN_TOKEN": s.admin_token,
            "PYTHONUNBUFFERED": "1",
        }

    def spawn(self, name: str, *args: str) -> subprocess.Popen[bytes]:
        log = (self.logs / f"{name}-{len(self.processes)}.log").open("wb")
        process = subprocess.Popen(
            [sys.executable, "-m", "services.cli", "serve", *args],
            env=self.env(),
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        self.processes.append(process)
        self.roles[process.pid] = name
        return process

    def running(self, service: str) -> list[subprocess.Popen[bytes]]:
        return [p for p in self.processes if self.roles[p.pid] == service and p.poll() is None]

    def start_bots(self) -> subprocess.Popen[bytes]:
        return self._with_probes("bots")

    def start_worker(self) -> subprocess.Popen[bytes]:
        return self._with_probes("table")

    def _with_probes(self, service: str) -> subprocess.Popen[bytes]:
        port = free_port()
        process = self.spawn(service, service, "--port", str(port))
        self.probes[process.pid] = port
        return process

    async def start_ledger(self) -> subprocess.Popen[bytes]:
        port = int(self.settings.ledger_url.rsplit(":", 1)[1])
        process = self.spawn("ledger", "ledger", "--port", str(port))
        await self._answering(self.settings.ledger_url, "/health", accept=(200, 503))
        return process

    async def start_gateway(self) -> str:
        port = free_port()
        self.spawn("gateway", "gateway", "--port", str(port))
        self.base = f"http://127.0.0.1:{port}"
        await self._answering(self.base, "/api/tables")
        return self.base

    async def _answering(self, base: str, path: str, accept: tuple[int, ...] = (200,)) -> None:
        deadline = time.monotonic() + 30
        async with httpx.AsyncClient(base_url=base) as http:
            while True:
                try:
                    if (await http.get(path)).status_code in accept:
                        return
                except httpx.TransportError:
                    pass
                if time.monotonic() > deadline:
                    raise TimeoutError(f"{base} did not start")
                await asyncio.sleep(0.2)

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

    async def settled(self, workers: int, within: float = 30.0) -> dict[int, tuple[str, int]]:
        """Wait until every shard is leased, spread over ``workers`` owners."""
        deadline = time.monotonic() + within
        while True:
            try:
                leases = await self.leases()
            except asyncpg.UndefinedTableError:
                leases = {}
            owners = {owner for owner, _ in leases.values()}
            if len(leases) == self.settings.shards and len(owners) == workers:
                return leases
            if time.monotonic() > deadline:
                raise TimeoutError(f"shards not settled: {leases}")
            await asyncio.sleep(0.2)

    def stop(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
