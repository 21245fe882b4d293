"""A reloaded table page shows the hand log and the chat it showed before (the server sends the
recent history with the snapshot), each line once; a reconnect without a reload doubles nothing.
"""

from __future__ import annotations

from playwright.async_api import Browser, Page, expect

from tests.browser.support import (
    browsing,
    drop_connection,
    hold_still,
    play_until,
    seated_page,
)
from tests.services.cluster import Cluster


async def hand_log(page: Page) -> list[str]:
    """The hand log's lines, oldest first (the page lists them newest first)."""
    lines: list[str] = await page.locator(".hand-log li:not(.muted)").all_inner_texts()
    return lines[::-1]


async def chat_lines(page: Page) -> list[str]:
    await page.locator("#tab-chat").click()
    lines: list[str] = await page.locator(".chat-log li:not(.muted)").all_inner_texts()
    await page.locator("#tab-log").click()
    return [" ".join(line.split()) for line in lines]


async def test_reload_keeps_the_hand_log_and_the_chat(cluster: Cluster, browser: Browser) -> None:
    seated = seated_page(cluster.base, browsing(browser), ["Hal", "Ivy"], "Rae")
    async with seated as (table, players, page, errors, seats):
        # Two people chat: this page, and Hal over his socket.
        await page.locator("#tab-chat").click()
        await page.fill("#chat-input", "good luck all")
        await page.press("#chat-input", "Enter")
        answer = await players[0].request({"type": "chat", "table": table, "text": "thanks Rae"})
        assert answer["type"] == "ack", answer
        await expect(page.locator(".chat-log")).to_contain_text("thanks Rae")
        await page.locator("#tab-log").click()

        # Part of a hand: into the tricks, a card or more played.
        async def into_tricks() -> bool:
            view = players[0].views[table]
            return view["phase"] == "tricks" and (len(view["trick"]) + len(view["played"])) >= 2

        await play_until([page], into_tricks, within=60)
        # Nothing moves while the page reloads.
        await hold_still(page, seats, table)
        await page.wait_for_timeout(500)
        log, chat = await hand_log(page), await chat_lines(page)
        assert any(line.startswith("Hand 1 dealt") for line in log), log
        assert any(" played " in line for line in log), log
        assert chat == ["Rae good luck all", "Hal thanks Rae"], chat

        # 1. The page is reloaded: the same log and chat, each line once.
        await page.reload()
        await page.locator(".seat.me").wait_for()
        await expect(page.locator(".hand-log")).to_contain_text("Hand 1 dealt")
        again = await hand_log(page)
        # The replay may reach further back than the page saw (before this player watched).
        assert again[-len(log) :] == log, (again, log)
        assert sum(line.startswith("Hand 1 dealt") for line in again) == 1, again
        assert await chat_lines(page) == chat

        # 2. The connection drops and comes back, no reload: nothing doubles.
        await drop_connection(page)
        await page.wait_for_timeout(500)
        assert await hand_log(page) == again
        assert await chat_lines(page) == chat

        # A later line is added once, as before.
        await players[1].request({"type": "chat", "table": table, "text": "back to it"})
        await page.locator("#tab-chat").click()
        await expect(page.locator(".chat-log")).to_contain_text("back to it")
        await page.locator("#tab-log").click()
        assert await chat_lines(page) == [*chat, "Ivy back to it"]
        await seats.stop()
        errors.check()
