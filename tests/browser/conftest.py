"""The browser tests drive Debian's Chromium (``/usr/bin/chromium``) with Playwright's async API,
against the real services of the ``cluster`` fixture (``tests/conftest.py``)."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from playwright.async_api import Browser, async_playwright

from tests.browser.support import VIEWPORTS
from tests.conftest import REQUIRED
from tests.services.conftest import whole_platform  # noqa: F401  (the same lineup for every test)

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
