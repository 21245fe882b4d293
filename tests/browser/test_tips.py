"""A mouse gets the same explanations a finger does: resting the pointer on a seat's plate shows
its tip in the page's own bubble (not only the browser's plain tooltip, which then stays away
so the words do not show twice), and moving off puts it away."""

from __future__ import annotations

import httpx
from playwright.async_api import Browser, expect

from tests.browser.support import browsing, sign_up, token_of
from tests.services.cluster import Cluster


async def test_a_resting_mouse_shows_the_tip(cluster: Cluster, browser: Browser) -> None:
    async with browsing(browser) as (_, page, errors):
        await sign_up(page, cluster.base, "Ivy")
        # A table not yet started: its plates hold still while the mouse rests on one.
        token = (await token_of(page))["token"]
        async with httpx.AsyncClient(base_url=cluster.base) as http:
            reply = await http.post(
                "/api/tables",
                json={"seats": 3, "bots": {"1": "easy"}},
                headers={"authorization": f"Bearer {token}"},
            )
        assert reply.status_code == 200, reply.text
        await page.goto(f"{cluster.base}/#/table/{reply.json()['id']}")
        plate = page.locator(".seat:not(.me) .plate").first
        await plate.wait_for()
        words = await plate.get_attribute("data-tip") or ""
        assert words
        await plate.hover()
        bubble = page.locator(".tip-bubble")
        await expect(bubble).to_be_visible()
        await expect(bubble).to_have_text(words)
        assert await plate.get_attribute("title") is None  # no second, native tooltip
        await page.mouse.move(2, 2)
        await expect(bubble).to_be_hidden()
        await expect(plate).to_have_attribute("title", words)
        errors.check()
