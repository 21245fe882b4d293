"""The services as real processes, for integration tests (the platform the load test drives)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from services.load.platform import Platform as Cluster
from services.load.platform import isolated

__all__ = ["Cluster", "own_platform", "platform_of_its_own"]


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


def platform_of_its_own(label: str, workers: int, bots: int, **changes: Any) -> Any:
    """A module-scoped fixture: ``own_platform`` (with these arguments) for the module's tests,
    its logs in a temporary folder named ``label``. Assign it to the fixture's name."""

    @pytest.fixture(scope="module")
    async def platform(
        service_urls: tuple[str, str], tmp_path_factory: pytest.TempPathFactory
    ) -> AsyncIterator[Cluster]:
        logs = tmp_path_factory.mktemp(label)
        async with own_platform(service_urls, logs, label, workers, bots, **changes) as running:
            yield running

    return platform
