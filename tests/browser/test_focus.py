"""Where the keyboard's focus lands: on the lobby's game picker once signed in (not on the page's
top, seven Tabs away), and at a Euchre call on the call itself, never on the Go alone toggle
(a reflexive Enter would switch it)."""

from __future__ import annotations

import asyncio
import contextlib

from playwright.async_api import Browser, expect
from playwright.async_api import TimeoutError as PlaywrightTimeout

from tests.browser.support import browsing, quick_play, sign_up
from tests.browser.test_euchre_table import plaque_kind, take_decision
from tests.browser.test_quickplay import bots_running
from tests.services.cluster import Cluster

FOCUSED = "() => { const e = document.activeElement; return e ? e.outerHTML.slice(0, 200) : '' }"


async def test_signing_in_puts_the_focus_on_the_game_picker(
    cluster: Cluster, browser: Browser
) -> None:
    async with browsing(browser) as (_, page, errors):
        await sign_up(page, cluster.base, "Fern")
        picked = page.locator("input[name='lobby-game']:checked")
        await expect(picked).to_be_focused()
        errors.check()


async def test_a_euchre_call_takes_the_focus_not_go_alone(
    cluster: Cluster, browser: Browser
) -> None:
    with bots_running(cluster):
        async with browsing(browser) as (_, page, errors):
            await sign_up(page, cluster.base, "Hale")
            await quick_play(page, "Euchre")
            # Play on to the first call of yours that offers Go alone (ordering up, or naming
            # trump): the bots may make trump before your turn comes.
            toggle = page.locator(".plaque .alone-toggle")
            seen: dict[str, int] = {}
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 240
            while not await toggle.count():
                assert loop.time() < deadline, f"no call with Go alone came: {seen}"
                kind = await plaque_kind(page)
                if kind is not None:
                    with contextlib.suppress(AssertionError, PlaywrightTimeout):
                        await take_decision(page, kind, False, seen)
                await asyncio.sleep(0.15)
            first = page.locator(".plaque button[data-choice]:not([disabled])").first
            await expect(first).to_be_focused()
            assert "alone-toggle" not in await page.evaluate(FOCUSED)
            errors.check()
