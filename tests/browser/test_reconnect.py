"""A player whose connection drops, or who closes the page mid-hand, finds their seat and cards
again: the client reconnects with backoff, watches the table and takes the snapshot."""

from __future__ import annotations

from playwright.async_api import Browser, Page, expect

from tests.browser.support import (
    PageErrors,
    Seats,
    decide,
    last_hand,
    new_context,
    play_until,
    python_table,
    sign_up,
    start_game,
)
from tests.services.cluster import Cluster


async def my_cards(page: Page) -> list[str]:
    cards: list[str] = await page.locator(".hand .hand-card[data-card]").evaluate_all(
        "cards => cards.map(c => c.dataset.card)"
    )
    return sorted(cards)


async def test_reconnect_mid_hand(cluster: Cluster, browser: Browser) -> None:
    async with python_table(cluster.base, ["Hal", "Ivy"]) as (table, players):
        context = await new_context(browser)
        page = await context.new_page()
        errors = PageErrors()
        errors.attach(page)
        await sign_up(page, cluster.base, "Rae", f"/#/table/{table}/join")
        await page.locator(".seat.me").wait_for()
        seats = Seats(players, table)
        seats.start()
        await start_game(players[0], table)

        # Play until this player holds three cards it can see, in a hand in progress.
        async def holding() -> bool:
            view = players[0].views[table]
            return view["phase"] in ("knock", "draw", "tricks") and len(await my_cards(page)) >= 3

        await play_until([page], holding, within=45)
        # Nothing moves while this player is away: the others wait, and it is not this
        # player's turn (an away seat's turn would be decided for it after a short grace).
        seats.pause()
        seat = await page.locator(".seat.me").get_attribute("data-seat")
        assert seat is not None
        for _ in range(20):
            await page.wait_for_timeout(300)
            if int(seat) not in players[0].views[table]["to_act"]:
                break
            await decide(page)
        before = await my_cards(page)
        assert before, "holds cards mid-hand"

        # 1. The connection drops: the banner says so, and the client reconnects by itself.
        await page.evaluate("window.__sockets.at(-1).close()")
        banner = page.locator(".banner")
        await expect(banner).to_contain_text("Connection lost")
        await expect(banner).to_be_hidden(timeout=15_000)
        assert await my_cards(page) == before
        assert await page.evaluate("window.__sockets.length") >= 2

        # 2. The page is closed and opened again: same seat, same cards.
        await page.close()
        page = await context.new_page()
        errors.attach(page)
        await page.goto(f"{cluster.base}/#/")
        await page.get_by_role("link", name="Return to your table").click()
        await page.locator(".seat.me").wait_for()
        assert await page.locator(".seat.me").get_attribute("data-seat") == seat
        await expect(page.locator(".hand .hand-card[data-card]")).to_have_count(len(before))
        assert await my_cards(page) == before
        assert "Rae" in await page.locator(".seat.me").inner_text()

        # The hand goes on and ends from the reopened page.
        seats.resume()

        async def settled() -> bool:
            return await last_hand(page) >= 1

        await play_until([page], settled, within=60)
        assert "Rae" in await page.locator(".seat.me").inner_text()
        await seats.stop()
        errors.check()
        await context.close()
