"""Where the keyboard's focus lands: on the lobby's game picker once signed in (not on the page's
top, seven Tabs away), and at a Euchre call on the call itself, never on the Go alone toggle
(a reflexive Enter would switch it)."""

from __future__ import annotations

from playwright.async_api import Browser, expect

from tests.browser.support import browsing, quick_play, sign_up
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
            # The first call of yours that offers Go alone (ordering up, or naming trump).
            toggle = page.locator(".plaque .alone-toggle")
            await expect(toggle).to_be_visible(timeout=60_000)
            first = page.locator(".plaque button[data-choice]:not([disabled])").first
            await expect(first).to_be_focused()
            assert "alone-toggle" not in await page.evaluate(FOCUSED)
            errors.check()
