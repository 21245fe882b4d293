"""The browser tests drive Debian's Chromium (``/usr/bin/chromium``) with Playwright's async API,
against the real services of the ``cluster`` fixture (``tests/conftest.py``)."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from playwright.async_api import Browser, async_playwright

from tests.browser.support import VIEWPORTS
from tests.browser.test_quickplay import bots_running
from tests.conftest import REQUIRED
from tests.services.client import Player
from tests.services.cluster import Cluster
from tests.services.conftest import whole_platform  # noqa: F401  (the same lineup for every test)
from tests.services.play import finished_with_bots

CHROMIUM = Path("/usr/bin/chromium")
INSTALLED = CHROMIUM.exists()
ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run the browser tests last: they share the session's ``cluster`` with ``tests/services``
    and so start it no earlier than those tests do (the suites before them use the session's
    database and bus with no platform running)."""
    here = Path(__file__).parent
    items.sort(key=lambda item: item.path.is_relative_to(here))  # a stable sort: others first


@pytest.fixture(scope="session")
async def browser() -> AsyncIterator[Browser]:
    if not INSTALLED:
        message = "Chromium is not installed: apt-get install -y chromium"
        if REQUIRED or os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield launched
        finally:
            await launched.close()


@pytest.fixture(params=sorted(VIEWPORTS))
def size(request: pytest.FixtureRequest) -> str:
    """The name of each window size of ``VIEWPORTS`` in turn, for a test to run at each."""
    value: str = request.param
    return value


@pytest.fixture
async def finished(cluster: Cluster) -> AsyncIterator[tuple[Player, str]]:
    """A player whose one-round Contract Whist game against three bots (medium, hard, easy) is
    over, played to its end by the player's own Python client (quick and sure), and its table;
    a page then signs in as that player (``support.signed_in_as``)."""
    with bots_running(cluster):
        player = Player(cluster.base, "Rhea")
        await player.sign_up()
        await player.connect()
        table = (await finished_with_bots(player, game="contract-whist", rounds=1))["id"]
        await player.close()  # the page is this player's one socket from now on
        yield player, table
