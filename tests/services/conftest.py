"""Signed-up players for the service tests (the ``cluster`` fixture is in ``tests/conftest.py``)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.services.client import Player
from tests.services.cluster import Cluster


@pytest.fixture(autouse=True)
async def whole_platform(cluster: Cluster) -> AsyncIterator[None]:
    """Each test starts from the standard lineup, whatever the one before it stopped."""
    await cluster.restore()
    yield


@pytest.fixture
async def players(cluster: Cluster) -> AsyncIterator[list[Player]]:
    """Three signed-up, connected players; more with ``new_player``."""
    made = [Player(cluster.base, name) for name in ("Alice", "Bob", "Carol")]
    for player in made:
        await player.sign_up()
        await player.connect()
    yield made
    for player in made:
        await player.close()
