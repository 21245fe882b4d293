"""Signed-up players for the service tests (the ``cluster`` fixture is in ``tests/conftest.py``)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.services.client import Player, signed_up
from tests.services.cluster import Cluster


@pytest.fixture(autouse=True)
def whole_platform(whole_platform: None) -> None:
    """Each test starts from the standard lineup (``tests/conftest.py``'s fixture, made
    autouse here; a module with a platform of its own overrides it)."""


@pytest.fixture
async def players(cluster: Cluster) -> AsyncIterator[list[Player]]:
    """Three signed-up, connected players; more with ``new_player``."""
    async with signed_up(cluster.base, "Alice", "Bob", "Carol") as made:
        yield made


@pytest.fixture
async def four(cluster: Cluster, players: list[Player]) -> AsyncIterator[list[Player]]:
    """The three ``players`` and Dave: a four-seat game's people."""
    async with signed_up(cluster.base, "Dave") as (dave,):
        yield [*players, dave]
