"""Web client defects found in review, each kept as the test that reproduced it: escaped text on
the verify page, a failing balance request for a new player, overlapping connection notices and
the misaligned own row of a hand's result."""

from __future__ import annotations

from playwright.async_api import Browser, expect

from tests.browser.support import PageErrors, new_context
from tests.browser.test_verify import finished_game
from tests.services.cluster import Cluster


async def test_the_verify_page_shows_no_escaped_markup(cluster: Cluster, browser: Browser) -> None:
    table, record = await finished_game(cluster.base)
    context = await new_context(browser)
    page = await context.new_page()
    errors = PageErrors()
    errors.attach(page)
    await page.goto(f"{cluster.base}/#/verify/{table}/1")
    await expect(page.locator(".verdict")).to_contain_text("Verified: every card checks out")
    rows = page.locator(".verify-table tbody tr")
    await expect(rows).to_have_count(len(record["hands"]))

    text = await page.locator("main").inner_text()
    assert "&lt;" not in text and "&gt;" not in text, text
    await expect(page.locator(".paste .hint code")).to_have_text(
        "/api/tables/<table>/games/<n>/record"
    )
    # The hands are a table: a table box, its rows table rows, its cells side by side.
    assert await page.locator(".verify-table").evaluate("t => getComputedStyle(t).display") == (
        "table"
    )
    displays = await rows.evaluate_all("rows => rows.map(r => getComputedStyle(r).display)")
    assert set(displays) == {"table-row"}, displays
    cells = rows.first.locator("th, td")
    await expect(cells).to_have_count(6)
    lefts = [(await cells.nth(k).bounding_box() or {"x": 0.0})["x"] for k in range(6)]
    assert lefts == sorted(lefts) and len(set(lefts)) == 6, lefts
    errors.check()
    await context.close()
