"""Three people in three browsers: one opens a table, two follow its invite link, and they play."""

from __future__ import annotations

import re

from playwright.async_api import Browser, Page, expect

from tests.browser.support import (
    PageErrors,
    last_hand,
    money,
    new_context,
    play_until,
    sign_up,
)
from tests.services.cluster import Cluster


async def test_three_people_play_a_hand(cluster: Cluster, browser: Browser) -> None:
    contexts = [await new_context(browser) for _ in range(3)]
    pages: list[Page] = [await context.new_page() for context in contexts]
    errors = PageErrors()
    for page in pages:
        errors.attach(page)
    alice, bob, carol = pages

    # Alice opens a three-seat table with no bots from the lobby's form.
    await sign_up(alice, cluster.base, "Alice")
    await alice.get_by_role("button", name=re.compile("Create a table")).click()
    await alice.locator(".segmented label", has_text=re.compile(r"^\s*3\s*$")).click()
    await alice.select_option("#bot-1", "")
    await alice.select_option("#bot-2", "")
    await alice.get_by_role("button", name="Open the table").click()
    await alice.wait_for_url("**/#/table/*")
    invite = await alice.locator("#invite-link").input_value()
    assert "#/join/" in invite

    # Bob and Carol follow the link, pick a name, and take a seat.
    for page, name in ((bob, "Bob"), (carol, "Carol")):
        await page.goto(invite)
        await page.fill("#name-input", name)
        await page.press("#name-input", "Enter")
        await page.get_by_role("link", name="Take a seat").click()
        await page.locator(".seat.me").wait_for()
        assert name in await page.locator(".seat.me").inner_text()
    await expect(alice.locator(".seat:not(.empty)")).to_have_count(3)

    # Alice is the host: she starts the game.
    start = alice.get_by_role("button", name="Start game")
    await expect(start).to_be_enabled()
    await start.click()
    for page in pages:
        await page.locator(".fair-pill").wait_for()
    pills = {await page.locator(".fair-pill code").inner_text() for page in pages}
    assert len(pills) == 1, "everyone sees the same seed fingerprint"

    # Each player sees only their own cards: three face-up cards each once dealt (the dealer's
    # stay face down until the dealer's knock), and the others' cards as backs.
    async def dealt() -> bool:
        return all([await p.locator(".hand .hand-card").count() >= 3 for p in pages])

    await play_until(pages, dealt, within=30)
    hands = [
        await p.locator(".hand .hand-card[data-card]").evaluate_all(
            "cards => cards.map(c => c.dataset.card)"
        )
        for p in pages
    ]
    shown = [card for hand in hands for card in hand]
    assert len(shown) == len(set(shown)), f"a card in two hands: {hands}"

    # Chat with the table.
    await alice.get_by_role("tab", name=re.compile("Chat")).click()
    await alice.fill("#chat-input", "Good luck, all!")
    await alice.press("#chat-input", "Enter")
    await bob.get_by_role("tab", name=re.compile("Chat")).click()
    await expect(bob.locator(".chat-log")).to_contain_text("Good luck, all!")

    async def settled() -> bool:
        return all([await last_hand(p) >= 1 for p in pages])

    await play_until(pages, settled, within=60, discard_one=True)
    # Money is conserved: the three changes and what carries over add up to nothing.
    changes = [money(await p.locator(".last-hand .my-change strong").inner_text()) for p in pages]
    carried = await alice.locator(".last-hand").inner_text()
    match = re.search(r"([\d,]+)¢ carries over", carried)
    carry = money(match.group(1)) if match else 0
    assert sum(changes) + carry == 0, (changes, carry)
    errors.check()
    for context in contexts:
        await context.close()
