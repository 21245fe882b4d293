"""Between hands: the result shows in a panel while the table pauses, with "Next hand" to press;
the next hand asks nothing before everyone has seen it, and its decisions are never covered."""

from __future__ import annotations

import re

from playwright.async_api import Browser, expect

from tests.browser.support import (
    VIEWPORTS,
    axe_violations,
    browsing,
    decide,
    decision,
    seated_page,
    shoot,
)
from tests.services.cluster import Cluster


async def test_the_result_holds_the_next_hand_until_everyone_has_seen_it(
    cluster: Cluster, browser: Browser, size: str
) -> None:
    seated = seated_page(
        cluster.base,
        browsing(browser, VIEWPORTS[size]),
        ["Gus", "Hedy"],
        "Iris",
        interlude_seconds=30,
    )
    async with seated as (table, players, page, errors, seats):
        # Play the first hand through, up to its result.
        for _ in range(900):
            # The check and the click are one step: the result may come between two steps.
            if await decide(page, leave=("next_hand",)) == "next_hand":
                break
            await page.wait_for_timeout(100)
        assert await decision(page) == "next_hand"
        view = players[0].views[table]
        assert view["phase"] == "interlude" and view["result"]["hand_no"] == 1
        panel = page.locator(".result-panel")
        await expect(panel).to_be_visible()
        next_hand = page.get_by_role("button", name="Next hand", exact=True)
        await expect(next_hand).to_be_visible()
        await shoot(page, f"interlude-{size}")
        assert not await axe_violations(page)

        # The others have pressed Next hand; the table waits for this player (the pause is
        # 30 s): nothing of hand 2 is asked meanwhile.
        await players[0].until(table, lambda v: len(v["to_act"]) == 1, 10)
        assert players[0].views[table]["phase"] == "interlude"
        await next_hand.click()
        await players[0].until(table, lambda v: v["phase"] != "interlude", 10)

        # The next hand's first decision comes with the result put away: nothing covers it.
        for _ in range(300):
            if await decision(page) in ("ante", "ready"):
                break
            await page.wait_for_timeout(100)
        await expect(panel).to_be_hidden()
        for button in await page.locator(".my-area [data-decision] button").all():
            box = await button.bounding_box()
            assert box is not None
            covering = await page.evaluate(
                "([x, y]) => document.elementFromPoint(x, y)?.closest('button')?.textContent",
                [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
            )
            assert covering == await button.text_content()
        await seats.stop()
        errors.check()


async def test_a_short_pause_between_hands_is_not_shown_as_a_deadline(
    cluster: Cluster, browser: Browser
) -> None:
    """A pause of a few seconds is all "last seconds": its ring stays calm (red is a decision's
    time running out, and nobody misses a pause) and says what it counts down to."""
    seated = seated_page(cluster.base, browsing(browser), ["Jo", "Kit"], "Lev", interlude_seconds=5)
    async with seated as (_, _players, page, errors, seats):
        for _ in range(900):
            if await decide(page, leave=("next_hand",)) == "next_hand":
                break
            await page.wait_for_timeout(100)
        ring = page.locator(".my-area [data-decision] .countdown")
        await expect(ring).to_be_visible()
        assert "before the next hand" in (await ring.get_attribute("title") or "")
        await expect(ring).not_to_have_class(re.compile(r"\burgent\b"))
        await seats.stop()
        errors.check()
