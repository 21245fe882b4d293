"""Six seats stay readable: each card of the trick lies in front of its player, named for the
eye and for screen readers; the winner's card is marked before the trick is gathered; the last
trick can be looked at again at any phase."""

from __future__ import annotations

import contextlib
from typing import Any

from playwright.async_api import Browser, expect

from tests.browser.support import (
    VIEWPORTS,
    axe_violations,
    browsing,
    decide,
    seated_page,
    shoot,
)
from tests.services.cluster import Cluster


async def test_six_seats_trick_cards_are_named_and_the_winner_marked(
    cluster: Cluster, browser: Browser, size: str
) -> None:
    names = ["Ann", "Bea", "Cal", "Dov", "Eve"]
    seated = seated_page(cluster.base, browsing(browser, VIEWPORTS[size]), names, "Fay")
    async with seated as (_, _, page, errors, seats):
        # Play until a trick is finished: its cards, then the winner's mark, show on the felt
        # (until the next lead: read them at once).
        read = """trick => [...trick.querySelectorAll('.trick-card')].map(card => {
            const name = card.querySelector('.trick-name').getBoundingClientRect();
            return {
                label: card.getAttribute('aria-label'),
                winner: card.classList.contains('winner'),
                name: card.querySelector('.trick-name').textContent,
                box: [name.left, name.top, name.right, name.bottom],
            };
        })"""
        cards: list[dict[str, Any]] = []
        for _ in range(600):
            if await page.locator(".trick .trick-card.winner").count():
                with contextlib.suppress(Exception):
                    cards = await page.locator(".trick").first.evaluate(read, timeout=1000)
                if any(card["winner"] for card in cards):
                    await shoot(page, f"six-seats-trick-won-{size}")
                    break
            await decide(page)
            await page.wait_for_timeout(50)
        labels = [card["label"] for card in cards]
        named = [card["name"] for card in cards]
        assert len(labels) >= 3, cards
        assert all(" played " in text for text in labels), labels
        assert sum("won the trick" in text for text in labels) == 1
        assert sum(card["winner"] for card in cards) == 1
        assert set(named) <= {*names, "You"}, named
        # No two cards of the trick cover each other's name.
        boxes = [card["box"] for card in cards]
        for i, a in enumerate(boxes):
            for b in boxes[i + 1 :]:
                apart = a[2] <= b[0] + 1 or b[2] <= a[0] + 1 or a[3] <= b[1] + 1 or b[3] <= a[1] + 1
                assert apart, (a, b)

        # "Last trick" shows it again, at whatever phase the table is now.
        await page.get_by_role("button", name="Last trick").click()
        panel = page.get_by_role("group", name="The last trick")
        await expect(panel).to_be_visible()
        await expect(panel.locator("li")).to_have_count(len(labels))
        await expect(panel).to_contain_text("won it.")
        assert not await axe_violations(page)
        await seats.stop()
        errors.check()
