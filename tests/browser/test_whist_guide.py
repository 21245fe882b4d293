"""How to play Contract Whist (#/rules/contract-whist): its sections in order, the hook and two
tricks drawn with the real card faces, the points table; it fits a phone and passes axe-core.
The Contract Whist table's Rules link and its side panel lead there, and so do the lobby and
the other games' guides."""

from __future__ import annotations

import re

from playwright.async_api import Browser, Locator, Page, expect

from tests.browser.support import (
    VIEWPORTS,
    axe_violations,
    browsing,
    no_overflow,
    quick_play,
    shoot,
    sign_up,
)
from tests.browser.test_guide import headings_in_order
from tests.browser.test_quickplay import bots_running
from tests.services.cluster import Cluster

SECTIONS = [
    "Players and the deal",
    "The rounds",
    "Bidding and the hook",
    "Trump",
    "The tricks",
    "Points",
    "The end",
    "At the online table",
    "Why it is fair",
]
TITLE = "How to play Contract Whist"


async def trick_shown(trick: Locator, codes: list[str], winner: str) -> None:
    """A trick drawn card by card, in the order played, with its one winner marked."""
    shown = [await c.get_attribute("data-code") for c in await trick.locator(".card").all()]
    assert shown == codes, shown
    await expect(trick.locator("li.winner")).to_have_count(1)
    await expect(trick.locator("li.winner")).to_contain_text(winner)


async def test_the_contract_whist_guide(cluster: Cluster, browser: Browser, size: str) -> None:
    async with browsing(browser, VIEWPORTS[size]) as (_, page, errors):
        await page.goto(f"{cluster.base}/#/rules/contract-whist")
        guide = page.locator("main.whist-guide")
        await expect(guide.get_by_role("heading", level=1)).to_have_text(TITLE)
        headings = await headings_in_order(page)
        assert [text for level, text in headings if level == 2] == SECTIONS

        # The schedule: 17 rounds, 10 cards down to 2 and back up to 10.
        texts = await guide.locator(".wh-schedule li").all_inner_texts()
        schedule = [int(text.split()[-1]) for text in texts]
        assert schedule == [*range(10, 1, -1), *range(3, 11)], schedule

        # The hook: after 3, 2 and 1 with 10 cards, the last bidder may not bid 4.
        bids = guide.locator(".wh-guide-bids li")
        await expect(bids).to_have_count(4)
        await expect(bids.last).to_have_text(re.compile(r"Dev\s+not 4"))

        # Two tricks with real card faces: a low trump beats the ace led; at no trumps the
        # highest card of the suit led wins and an off-suit ace does not.
        tricks = guide.locator(".guide-trick")
        await expect(tricks).to_have_count(2)
        await trick_shown(tricks.nth(0), ["AH", "KH", "2S", "5H"], "Cleo")
        await trick_shown(tricks.nth(1), ["QH", "JH", "AD", "4H"], "Ana")
        await expect(tricks.nth(0).get_by_role("img", name="two of spades")).to_be_visible()
        assert await guide.locator(".shown-card .card.face").count() >= 13

        # The points of a round, as the engine scores them.
        rows = guide.locator(".rules-table tbody tr")
        await expect(rows).to_have_count(4)
        await expect(rows.first).to_contain_text("the cards + your bid")
        await expect(guide).to_contain_text("10 cards, bid 3, took 3: 10 + 3 = 13.")

        await no_overflow(page)
        violations = await axe_violations(page)
        assert not violations, f"the Contract Whist guide at {size} size: {violations}"
        await shoot(page, f"whist-guide-{size}")
        errors.check()


async def follow(page: Page, link: str) -> None:
    await page.get_by_role("link", name=link).first.click()
    await expect(page.get_by_role("heading", level=1)).to_have_text(TITLE)


async def test_the_whist_table_and_the_lobby_lead_to_the_guide(
    cluster: Cluster, browser: Browser
) -> None:
    with bots_running(cluster):
        async with browsing(browser) as (_, page, errors):
            await sign_up(page, cluster.base, "Gwen")
            await page.locator(".game-picker").get_by_text("Contract Whist", exact=True).click()
            await follow(page, TITLE)
            await page.go_back()
            await quick_play(page, "Contract Whist")
            await page.locator(".whist-page").wait_for()
            rules = page.get_by_role("navigation", name="Main").get_by_role("link", name="Rules")
            await expect(rules).to_have_attribute("href", "#/rules/contract-whist")
            await rules.click()
            await expect(page.get_by_role("heading", level=1)).to_have_text(TITLE)
            await page.go_back()
            await page.locator(".whist-page").wait_for()
            await follow(page, TITLE)
            # Away from a table, Rules is Swick's guide, which leads to the other games'.
            rules = page.get_by_role("navigation", name="Main").get_by_role("link", name="Rules")
            await expect(rules).to_have_attribute("href", "#/rules")
            await rules.click()
            await expect(page.get_by_role("heading", level=1)).to_have_text("How to play Swick")
            await follow(page, TITLE)
            await page.goto(f"{cluster.base}/#/rules/euchre")
            await follow(page, TITLE)
            errors.check()
