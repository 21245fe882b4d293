"""The first page, where a newcomer picks a name, presents the three games of the site: Swick,
Euchre and Contract Whist, each named with a line on how it plays, the same lines as the
lobby's game picker. It fits a phone and passes axe-core."""

from __future__ import annotations

from playwright.async_api import Browser, expect

from tests.browser.support import VIEWPORTS, axe_violations, browsing, no_overflow, shoot
from tests.services.cluster import Cluster

GAMES = ["Swick", "Euchre", "Contract Whist"]


async def test_the_welcome_page_presents_every_game(
    cluster: Cluster, browser: Browser, size: str
) -> None:
    async with browsing(browser, VIEWPORTS[size]) as (_, page, errors):
        await page.goto(cluster.base)
        welcome = page.locator("main.gate")
        await expect(welcome.get_by_role("heading", level=1)).to_have_text(
            "Welcome to Swick Online"
        )
        games = welcome.get_by_role("list", name="The games").get_by_role("listitem")
        await expect(games).to_have_count(len(GAMES))
        blurbs: list[str] = []
        for game, item in zip(GAMES, await games.all(), strict=True):
            await expect(item.locator(".gate-game-name")).to_have_text(game)
            blurb = (await item.locator(".gate-game-blurb").inner_text()).strip()
            assert len(blurb) > 20, blurb
            blurbs.append(blurb)
        await expect(welcome.locator("#name-input")).to_be_visible()
        await no_overflow(page)
        violations = await axe_violations(page)
        assert not violations, f"the welcome page at {size} size: {violations}"
        await shoot(page, f"welcome-{size}")

        # The lobby's game picker says the same of each game.
        await page.fill("#name-input", "Nell")
        await page.press("#name-input", "Enter")
        picker = page.locator(".game-picker")
        for game, blurb in zip(GAMES, blurbs, strict=True):
            await expect(picker.get_by_text(game, exact=True)).to_be_visible()
            await expect(picker).to_contain_text(blurb)
        errors.check()
