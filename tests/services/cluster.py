"""The services as real processes, for integration tests (the platform the load test drives)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

from services.load.platform import Platform as Cluster
from services.load.platform import isolated

__all__ = ["Cluster", "own_platform"]


@asynccontextmanager
async def own_platform(
    service_urls: tuple[str, str], logs: Path, label: str, workers: int, bots: int, **changes: Any
) -> AsyncIterator[Cluster]:
    """A platform on a database and bus namespace of its own (its settings changed as
    ``changes`` says), started with ``workers`` table workers and ``bots`` bot services, for a
    module whose tests must not share the session's; stopped after the block."""
    async with isolated(*service_urls, label=label) as settings:
        running = Cluster(replace(settings, **changes), logs)
        try:
            await running.start(workers=workers, bots=bots)
            yield running
        finally:
            running.stop()
