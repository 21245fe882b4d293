"""Keyboard players: on your turn focus goes to the decision (not while typing in chat), digits
take the decision's buttons, and "?" lists the shortcuts."""

from __future__ import annotations

from playwright.async_api import Browser, expect

from tests.browser.support import (
    axe_violations,
    browsing,
    decision,
    newer_than,
    seated_page,
    start_game,
)
from tests.services.cluster import Cluster

IN_DECISION = ".my-area :focus"  # the focused element, inside the player's own area


async def test_focus_follows_the_turn_and_shortcuts_take_decisions(
    cluster: Cluster, browser: Browser
) -> None:
    seated = seated_page(cluster.base, browsing(browser), ["Ula", "Vic"], "Wes", deal=False)
    async with seated as (table, players, page, errors, seats):
        # "?" opens the list of shortcuts as a dialog, with focus in it. A decision that comes
        # meanwhile leaves the focus in the dialog, and takes it once Escape closes it.
        await page.locator("body").press("?")
        dialog = page.get_by_role("dialog", name="Keyboard shortcuts")
        await expect(dialog).to_be_visible()
        await expect(dialog.get_by_role("button", name="Close")).to_be_focused()
        assert not await axe_violations(page)
        await start_game(players[0], table)
        await page.locator(".my-area [data-decision]").wait_for()
        await expect(dialog.get_by_role("button", name="Close")).to_be_focused()
        await page.keyboard.press("Escape")
        await expect(dialog).to_be_hidden()
        await expect(page.locator(IN_DECISION)).to_have_count(1)

        # Decisions come: each time, focus is already in the decision, and a digit takes it.
        taken = 0
        for _ in range(200):
            kind = await decision(page)
            if kind in ("ante", "ready", "trump", "knock"):
                await expect(page.locator(IN_DECISION)).to_have_count(1, timeout=15_000)
                before = players[0].views[table]["seq"]
                await page.keyboard.press("1")
                await players[0].until(table, newer_than(before), 10)
                await expect(page.locator(f".my-area [data-decision='{kind}']")).to_have_count(0)
                taken += 1
                if taken >= 3:
                    break
            elif kind in ("draw", "play", "discard", "face_trump"):
                await expect(page.locator(IN_DECISION)).to_have_count(1, timeout=15_000)
                await page.keyboard.press("Enter")  # a card: lift (or mark) it
                await page.keyboard.press("Enter")  # and play it
                if kind == "draw":
                    await page.get_by_role("button", name="Keep all").click()
                elif kind == "face_trump":
                    await page.keyboard.press("1")
            await page.wait_for_timeout(150)
        assert taken >= 3

        # While typing in chat, a turn does not take the focus away.
        seats.pause()
        await page.keyboard.press("c")
        chat = page.locator("#chat-input")
        await expect(chat).to_be_focused()
        await chat.type("hello")
        seats.resume()
        for _ in range(100):
            if await decision(page):
                break
            await page.wait_for_timeout(150)
        await page.wait_for_timeout(300)
        await expect(chat).to_be_focused()
        assert await chat.input_value() == "hello"
        await seats.stop()
        errors.check()
