"""The lobby and a table mid-hand at desktop and phone sizes: screenshots to
``artifacts/screenshots/`` and an axe-core check (no serious or critical violations), which the
name page, the rules and the verify page pass too."""

from __future__ import annotations

import contextlib

from playwright.async_api import Browser, Page, expect

from tests.browser.support import (
    DESKTOP,
    PHONE,
    Seats,
    axe_violations,
    browsing,
    decision,
    play_until,
    python_table,
    shoot,
    sign_up,
    start_game,
)
from tests.services.cluster import Cluster


async def both_sizes(page: Page, name: str) -> None:
    """Screenshots and the accessibility check at desktop, then phone size."""
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        await page.set_viewport_size(viewport)  # type: ignore[arg-type]
        await page.wait_for_timeout(400)
        await shoot(page, f"{name}-{size}")
        violations = await axe_violations(page)
        assert not violations, f"{name} at {size} size: {violations}"
    await page.set_viewport_size(DESKTOP)  # type: ignore[arg-type]


async def test_screens_and_accessibility(cluster: Cluster, browser: Browser) -> None:
    async with (
        python_table(cluster.base, ["Mia", "Ned"]) as (table, players),
        browsing(browser) as (_, page, errors),
    ):
        # Picking a name, then the lobby with this table in its list.
        await page.goto(cluster.base + "/")
        await page.locator("#name-input").wait_for()
        violations = await axe_violations(page)
        assert not violations, f"name page: {violations}"
        await sign_up(page, cluster.base, "Sam")
        await expect(page.locator(".lobby-table")).to_contain_text("Mia")
        await both_sizes(page, "lobby")

        # The table, mid-hand: cards in the trick, this player's turn to play.
        await page.goto(f"{cluster.base}/#/table/{table}/join")
        await page.locator(".seat.me").wait_for()
        seats = Seats(players, table)
        seats.start()
        await start_game(players[0], table)

        async def trick_to_follow() -> bool:
            return await decision(page) == "play" and await page.locator(".trick-card").count() > 0

        with contextlib.suppress(AssertionError):
            await play_until([page], trick_to_follow, within=40)
        seats.pause()
        await page.locator(".hand .hand-card").first.wait_for()
        legal = page.locator(".hand-card.legal")
        if await legal.count():
            await legal.first.click()  # lift a card, as a player about to play would
        await both_sizes(page, "table")

        # The rules, rendered from SWICK_RULES.md.
        await page.goto(f"{cluster.base}/#/rules/exact")
        await expect(page.locator(".rules-text h2").first).to_be_visible()
        assert await page.locator(".rules-table").count() >= 2
        violations = await axe_violations(page)
        assert not violations, f"rules page: {violations}"
        await page.goto(f"{cluster.base}/#/verify")
        await page.locator("#record-input").wait_for()
        violations = await axe_violations(page)
        assert not violations, f"verify page: {violations}"
        # Installable: the page links a manifest whose icons are served.
        href = await page.locator("link[rel=manifest]").get_attribute("href")
        manifest = await page.request.get(f"{cluster.base}{href}")
        assert manifest.ok
        data = await manifest.json()
        assert data["display"] == "standalone" and data["start_url"]
        for icon in data["icons"]:
            assert (await page.request.get(f"{cluster.base}{icon['src']}")).ok, icon
        await seats.stop()
        errors.check()
