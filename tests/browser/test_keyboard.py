"""A whole hand played with the keyboard alone: Tab between the controls and the hand, arrow keys
along the hand, Enter to lift and Enter again to play; M mutes; turns are announced."""

from __future__ import annotations

import re

from playwright.async_api import Browser, Page, expect

from tests.browser.support import (
    Seats,
    browsing,
    decision,
    last_hand,
    python_table,
    start_game,
)
from tests.services.cluster import Cluster

BUTTONS = {
    "ante": r"^Ante \d+¢$",
    "ready": r"^Ready$",
    "trump": r"^Leave it$",
    "knock": r"^Knock$",
    "face_trump": r"^Play$",
    "next_hand": r"^Next hand$",
}


async def focused(page: Page, script: str) -> bool:
    test = f"(() => {{ const el = document.activeElement; return {script}; }})()"
    return bool(await page.evaluate(test))


async def tab_to(page: Page, script: str, limit: int = 80) -> None:
    """Press Tab until the focused element satisfies ``script`` (a JS expression over ``el``)."""
    for _ in range(limit):
        if await focused(page, script):
            return
        await page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {script}")


def button(pattern: str) -> str:
    return (
        f"el && el.tagName === 'BUTTON' && !el.disabled && "
        f"new RegExp({pattern!r}).test(el.textContent.trim())"
    )


IN_HAND = "el && el.classList.contains('hand-card')"
LEGAL_CARD = "el && el.classList.contains('hand-card') && el.classList.contains('legal')"


async def to_legal_card(page: Page) -> None:
    await tab_to(page, IN_HAND)
    for _ in range(6):
        if await focused(page, LEGAL_CARD):
            return
        await page.keyboard.press("ArrowRight")
    raise AssertionError("no legal card in the hand")


async def decide_by_keys(page: Page) -> str | None:
    kind = await decision(page)
    if kind is None:
        return None
    if kind in BUTTONS:
        await tab_to(page, button(BUTTONS[kind]))
        await page.keyboard.press("Enter")
    elif kind == "draw":
        await to_legal_card(page)
        await page.keyboard.press("Enter")  # mark it to discard
        assert await focused(page, "el.getAttribute('aria-pressed') === 'true'")
        await tab_to(page, button(r"^Discard 1 & draw 1$"))
        await page.keyboard.press("Enter")
    else:  # play, or the dealer's fourth-card discard: lift, then confirm
        await to_legal_card(page)
        await page.keyboard.press("Enter")
        assert await focused(page, "el.classList.contains('lifted')")
        await page.keyboard.press("Enter")
    return kind


async def test_keyboard_only_hand(cluster: Cluster, browser: Browser) -> None:
    async with (
        python_table(cluster.base, ["Kim", "Lou"]) as (table, players),
        browsing(browser) as (_, page, errors),
    ):
        await page.goto(f"{cluster.base}/#/table/{table}/join")
        await page.keyboard.type("Kay")
        await page.keyboard.press("Enter")
        await page.locator(".seat.me").wait_for()

        # M mutes and unmutes the sounds, from anywhere but a text field.
        mute = page.get_by_role("button", name=re.compile("Mute sounds"))
        before = await mute.get_attribute("aria-pressed")
        await page.keyboard.press("m")
        await expect(mute).not_to_have_attribute("aria-pressed", before or "")
        await page.keyboard.press("m")
        await expect(mute).to_have_attribute("aria-pressed", before or "false")

        seats = Seats(players, table)
        seats.start()
        await start_game(players[0], table)
        taken: list[str] = []
        announced: set[str] = set()
        loop_deadline = 90
        for _ in range(loop_deadline * 4):
            if await last_hand(page) >= 1:
                break
            text = await page.locator("#announcer").inner_text()
            announced.add(text)
            try:
                kind = await decide_by_keys(page)
            except AssertionError:
                kind = None  # the view changed while we tabbed: look again
            if kind:
                taken.append(kind)
            await page.wait_for_timeout(250)
        else:
            raise AssertionError(f"the hand did not end; decisions taken: {taken}")
        assert "ready" in taken or "ante" in taken, taken
        assert any(k in taken for k in ("knock", "trump")), taken
        headline = await page.locator(".last-hand p").first.inner_text()
        if headline.startswith("Tricks:"):
            assert "play" in taken, taken  # everyone knocks in, so there were tricks to play
        assert any("Your turn" in text for text in announced), announced
        log = await page.locator(".hand-log").inner_text()
        assert "Kay" not in log or "You" in log  # the log speaks to the player as "you"
        await seats.stop()
        errors.check()
