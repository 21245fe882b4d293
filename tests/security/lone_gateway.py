"""A real gateway (its app under uvicorn, with the servers' own socket settings) on a port of its
own, over the in-process bus, with its tables and sessions in the test session's PostgreSQL
database or in an SQLite file: for tests that need a gateway configured their own way (trusted
proxies, a sign-up limit, an admin token) and no table worker."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from fastapi import FastAPI

from services.gateway.app import create_app
from services.gateway.state import Gateway
from services.gateway.transport import SOCKETS
from services.load.platform import free_port
from shared.memory_bus import MemoryBus
from shared.observability import QuietServer, serve_in_task
from shared.settings import Settings
from tests.security.store_database import store_database

STORES = ("postgres", "sqlite")


@dataclasses.dataclass
class LoneGateway:
    base: str
    app: FastAPI

    @property
    def gateway(self) -> Gateway:
        gw: Gateway = self.app.state.gateway
        return gw

    def http(self, address: str = "127.0.0.1", **headers: str) -> httpx.AsyncClient:
        """A client speaking from ``address`` (all of 127/8 reaches 127.0.0.1)."""
        return httpx.AsyncClient(
            base_url=self.base,
            transport=httpx.AsyncHTTPTransport(local_address=address),
            headers=headers,
        )


@contextlib.asynccontextmanager
async def lone_gateway(
    settings: Settings, kind: str, folder: Path, **changes: Any
) -> AsyncIterator[LoneGateway]:
    """A gateway with ``settings`` and ``changes``, storing in ``kind`` (``STORES``)."""
    settings = dataclasses.replace(settings, **changes)
    async with contextlib.AsyncExitStack() as owned:
        store = await owned.enter_async_context(store_database(kind, settings, folder))
        assert store is not None, f"a lone gateway keeps its tables in a database: {kind}"
        await store.migrate(settings.shards)
        bus = MemoryBus(settings.topology)
        app = create_app(settings, bus=bus.as_user(settings.topology.user("gateway")), store=store)
        port = free_port()
        server = QuietServer(
            uvicorn.Config(app, host="127.0.0.1", port=port, **SOCKETS, log_level="warning")
        )
        serving = asyncio.create_task(serve_in_task(server))

        async def stop() -> None:
            serving.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await serving

        owned.push_async_callback(stop)
        while not server.started:
            if serving.done():
                serving.result()  # it failed to start: say why
            await asyncio.sleep(0.01)
        yield LoneGateway(f"http://127.0.0.1:{port}", app)


@contextlib.asynccontextmanager
async def two_gateways(
    settings: Settings, folder: Path, **changes: Any
) -> AsyncIterator[tuple[LoneGateway, LoneGateway]]:
    """Two gateways over the one PostgreSQL database, as a deployment runs several."""
    async with (
        lone_gateway(settings, "postgres", folder, **changes) as here,
        lone_gateway(settings, "postgres", folder, **changes) as there,
    ):
        yield here, there


def gateway_fixture(**changes: Any) -> Any:
    """A test module's ``gateway`` fixture: a lone gateway with ``changes``, once on each of
    ``STORES``."""

    @pytest.fixture(params=STORES)
    async def gateway(
        request: pytest.FixtureRequest, settings: Settings, tmp_path: Path
    ) -> AsyncIterator[LoneGateway]:
        async with lone_gateway(settings, request.param, tmp_path, **changes) as running:
            yield running

    return gateway
