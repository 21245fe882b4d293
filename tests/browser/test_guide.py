"""The Rules page is the player's guide: how a hand goes, with pictures drawn by the real card
faces and chips, and a real hand's money worked through (the engine checks the same figures in
tests/engine/test_guide_example.py). The exact rules are one click away. It fits a phone, passes
axe-core, and can be gone through with the keyboard."""

from __future__ import annotations

import itertools
import re

from playwright.async_api import Browser, Page, expect

from tests.browser.support import (
    DESKTOP,
    PHONE,
    SHOTS,
    axe_violations,
    browsing,
    new_context,
    shoot,
)
from tests.browser.test_phone import OVERFLOW
from tests.engine.test_guide_example import example
from tests.services.cluster import Cluster

SECTIONS = [
    "The aim",
    "A hand step by step",
    "Going set and the carry",
    "Free rides",
    "Timers and being away",
    "Fair deals",
]
STEPS = [
    "1. Ante",
    "2. Deal and trump",
    "3. Knock or pass",
    "4. Draw",
    "5. The three tricks",
    "6. Settling",
]

HEADINGS = """
() => [...document.querySelectorAll('main h1, main h2, main h3, main h4')]
  .map((h) => [Number(h.tagName[1]), h.textContent.trim()])
"""


def cents(amount: int) -> str:
    return f"{'−' if amount < 0 else ''}{abs(amount)}¢"


def signed(amount: int) -> str:
    return f"+{amount}¢" if amount > 0 else "±0¢" if amount == 0 else cents(amount)


async def headings_in_order(page: Page) -> list[tuple[int, str]]:
    found = [tuple(h) for h in await page.evaluate(HEADINGS)]
    assert found and found[0][0] == 1, found
    for (before, _), (level, text) in itertools.pairwise(found):
        assert level <= before + 1, f"heading {text!r} skips a level: {found}"
    return found


async def fits_and_passes(page: Page, name: str) -> None:
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        await page.set_viewport_size(viewport)  # type: ignore[arg-type]
        await page.wait_for_timeout(300)
        await shoot(page, f"{name}-{size}")
        await page.screenshot(path=str(SHOTS / f"{name}-{size}-whole.png"), full_page=True)
        if size == "phone":
            found = await page.evaluate(OVERFLOW)
            assert not found, f"{name} at 390 px: wider than the screen: {found}"
        violations = await axe_violations(page)
        assert not violations, f"{name} at {size} size: {violations}"
    await page.set_viewport_size(DESKTOP)  # type: ignore[arg-type]


async def test_the_rules_page_is_a_player_s_guide(cluster: Cluster, browser: Browser) -> None:
    async with browsing(browser) as (_, page, errors):
        await page.goto(f"{cluster.base}/#/rules")
        guide = page.locator("main.guide")
        await expect(guide.get_by_role("heading", level=1)).to_have_text("How to play Swick")

        # Its sections, in order, and the steps of a hand.
        headings = await headings_in_order(page)
        assert [text for level, text in headings if level == 2] == SECTIONS
        assert [text for level, text in headings if level == 3] == STEPS

        # Pictures: real card faces (hands, the trump card, tricks with their winners) and chips.
        x = example("EXAMPLE")
        assert await guide.locator(".shown-card .card.face").count() >= 20
        trump = guide.locator(
            f'.shown-card[aria-label="nine of spades"] [data-code="{x["trump"]}"]'
        )
        await expect(trump.first).to_be_visible()
        tricks = guide.locator("#guide-hand .guide-trick")
        await expect(tricks).to_have_count(3)
        for k, trick in enumerate(x["tricks"]):
            shown = tricks.nth(k)
            codes = [await c.get_attribute("data-code") for c in await shown.locator(".card").all()]
            assert codes == [code for _, code in trick["plays"]]
            await expect(shown.locator("li.winner")).to_have_count(1)
            await expect(shown.locator("li.winner")).to_contain_text(f"{trick['winner']}")
            await expect(shown.locator("li.winner .guide-wins")).to_have_text("Wins")
        assert await guide.locator(".chips").count() >= 8
        await expect(guide.locator(".countdown")).to_have_count(1)
        fingerprint = guide.locator(".guide-fingerprint code")
        await expect(fingerprint).to_have_text(re.compile(r"^[0-9a-f]{64}$"))

        # The worked example's money, figure by figure, as the engine settles it.
        pot = guide.locator('[data-sum="pot"]')
        await expect(pot).to_contain_text(f"{len(x['seats'])} × {x['ante']}¢ + 3¢ = {x['pot']}¢")
        await expect(pot).to_contain_text(f"{x['pot']}¢ ÷ 3 = {x['trickValue']}¢")
        money = guide.locator("#guide-hand .guide-money")
        for name in x["seats"]:
            row = money.locator(f'tr[data-player="{name}"]')
            await expect(row.locator("td").first).to_have_text(cents(-x["antes"][name]))
            await expect(row.locator("td.net")).to_have_text(signed(x["delta"][name]))
            penalty = x["penalties"][name]
            await expect(row.locator("td").nth(3)).to_have_text(cents(-penalty) if penalty else "—")
        await expect(money.locator("tfoot")).to_contain_text(f"{x['carry']}¢")
        total = sum(x["delta"].values())
        await expect(guide.locator('[data-sum="check"]')).to_contain_text(
            f"add up to {cents(total)}, exactly the {x['carry']}¢"
        )
        d = example("DOUBLE")
        double = guide.locator('[data-sum="double"]')
        await expect(double).to_contain_text(f"2 × {d['pot']}¢ = {d['penalties']['Ana']}¢")
        await expect(double).to_contain_text(signed(d["delta"]["Ana"]))
        await expect(double).to_contain_text(f"= {d['carry']}¢")
        free = guide.locator('[data-sum="free"]')
        await expect(free).to_contain_text(f"{x['carry']}¢ carried + 3¢ = {x['next']['pot']}¢")
        await expect(free).to_contain_text(f"{x['next']['trickValue']}¢")

        await fits_and_passes(page, "guide")

        # The exact rules, one click away, and back.
        exact = page.get_by_role("link", name="The exact rules").first
        await expect(exact).to_be_visible()
        await exact.click()
        await expect(page).to_have_url(f"{cluster.base}/#/rules/exact")
        await expect(page.locator(".rules-text h2").first).to_be_visible()
        assert await page.locator(".rules-table").count() >= 2
        await expect(page.locator(".rules-text")).to_contain_text("Going set")
        await fits_and_passes(page, "guide-exact-rules")
        await page.get_by_role("link", name="How to play Swick").click()
        await expect(page.get_by_role("heading", level=1)).to_have_text("How to play Swick")
        errors.check()


async def test_the_guide_by_keyboard(cluster: Cluster, browser: Browser) -> None:
    context = await new_context(browser)
    page = await context.new_page()
    await page.goto(f"{cluster.base}/#/rules")
    await page.locator("main.guide h1").wait_for()
    # Tab reaches the link to the exact rules, and Enter follows it.
    for _ in range(30):
        await page.keyboard.press("Tab")
        focused = await page.evaluate("document.activeElement.textContent.trim()")
        if focused == "The exact rules":
            break
    else:
        raise AssertionError("Tab never reached “The exact rules”")
    await page.keyboard.press("Enter")
    await expect(page).to_have_url(f"{cluster.base}/#/rules/exact")
    await expect(page.locator(".rules-text h2").first).to_be_visible()
    await context.close()
