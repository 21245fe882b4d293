"""The accessibility check judges the page at rest: a card caught mid-flight (faded on its way)
is not a contrast failure, while text that stays faint still is."""

from __future__ import annotations

from typing import Any

from playwright.async_api import Browser, Page

from tests.browser.support import axe_violations

# A gold name plate like the trick winner's, and a grey line that is faint for good.
PAGE = """<!doctype html><html lang="en"><head><title>Check</title></head>
<body style="background:#0f3d2e"><main>
<p id="plate" style="background:#f2c14e;color:#10151c;padding:4px">Ann won the trick</p>
{faint}
</main></body></html>"""
FAINT = '<p id="faint" style="color:#777;background:#888">Faint for good</p>'
FADE = """() => document.getElementById('plate').animate(
    [{ opacity: 1 }, { opacity: 0.2 }], { duration: 10000, fill: 'forwards' }
).currentTime = 9000"""


def contrast(violations: list[dict[str, Any]]) -> list[Any]:
    return [v["nodes"] for v in violations if v["id"] == "color-contrast"]


async def raw_contrast(page: Page) -> list[Any]:
    """What axe alone finds, with no regard for motion."""
    result: dict[str, Any] = await page.evaluate(
        "() => axe.run(document, { runOnly: ['color-contrast'], resultTypes: ['violations'] })"
    )
    return [v["nodes"] for v in result["violations"]]


async def test_a_fading_card_is_judged_where_it_comes_to_rest(browser: Browser) -> None:
    page = await browser.new_page()
    try:
        await page.set_content(PAGE.format(faint=""))
        assert not contrast(await axe_violations(page))  # loads axe; the plate at rest is clear
        await page.evaluate(FADE)
        assert await raw_contrast(page), "a plate at a fifth of its opacity reads as faint"
        assert not contrast(await axe_violations(page))
        # The page keeps the motion setting it had.
        assert not await page.evaluate("matchMedia('(prefers-reduced-motion: reduce)').matches")
    finally:
        await page.close()


async def test_text_faint_at_rest_is_still_a_failure(browser: Browser) -> None:
    page = await browser.new_page()
    try:
        await page.set_content(PAGE.format(faint=FAINT))
        await page.evaluate(FADE)
        assert contrast(await axe_violations(page)) == [[["#faint"]]]
    finally:
        await page.close()
