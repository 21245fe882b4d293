"""A player whose connection drops, or who closes the page mid-hand, finds their seat and cards
again: the client reconnects with backoff, watches the table and takes the snapshot."""

from __future__ import annotations

from playwright.async_api import Browser, Page, expect

from tests.browser.support import (
    browsing,
    drop_connection,
    hold_still,
    last_hand,
    play_until,
    seated_page,
)
from tests.services.cluster import Cluster


async def my_cards(page: Page) -> list[str]:
    cards: list[str] = await page.locator(".hand .hand-card[data-card]").evaluate_all(
        "cards => cards.map(c => c.dataset.card)"
    )
    return sorted(cards)


async def test_reconnect_mid_hand(cluster: Cluster, browser: Browser) -> None:
    seated = seated_page(cluster.base, browsing(browser), ["Hal", "Ivy"], "Rae")
    async with seated as (table, players, page, errors, seats):
        # Play until this player holds three cards it can see, in a hand in progress.
        async def holding() -> bool:
            view = players[0].views[table]
            return view["phase"] in ("knock", "draw", "tricks") and len(await my_cards(page)) >= 3

        await play_until([page], holding, within=45)
        # Nothing moves while this player is away.
        seat = await hold_still(page, seats, table)
        assert seat >= 0
        before = await my_cards(page)
        assert before, "holds cards mid-hand"

        # 1. The connection drops: the banner says so, and the client reconnects by itself.
        await drop_connection(page)
        assert await my_cards(page) == before
        assert await page.evaluate("window.__sockets.length") >= 2

        # 2. The page is closed and opened again: same seat, same cards.
        await page.close()
        again = await page.context.new_page()
        errors.attach(again)
        await again.goto(f"{cluster.base}/#/")
        await again.get_by_role("link", name="Return to your table").click()
        await again.locator(".seat.me").wait_for()
        assert await again.locator(".seat.me").get_attribute("data-seat") == str(seat)
        await expect(again.locator(".hand .hand-card[data-card]")).to_have_count(len(before))
        assert await my_cards(again) == before
        assert "Rae" in await again.locator(".seat.me").inner_text()

        # The hand goes on and ends from the reopened page.
        seats.resume()

        async def settled() -> bool:
            return await last_hand(again) >= 1

        await play_until([again], settled, within=60)
        assert "Rae" in await again.locator(".seat.me").inner_text()
        await seats.stop()
        errors.check()
