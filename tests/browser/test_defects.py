"""Web client defects found in review, each kept as the test that reproduced it: escaped text on
the verify page, a failing balance request for a new player, overlapping connection notices and
the misaligned own row of a hand's result."""

from __future__ import annotations

from playwright.async_api import Browser, ConsoleMessage, Response, expect

from tests.browser.support import PageErrors, new_context, sign_up, token_of
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


async def test_a_new_players_first_page_has_no_failed_request(
    cluster: Cluster, browser: Browser
) -> None:
    context = await new_context(browser)
    page = await context.new_page()
    failed: list[str] = []
    console: list[str] = []

    def answered(response: Response) -> None:
        if response.status >= 400:
            failed.append(f"{response.status} {response.url}")

    def logged(message: ConsoleMessage) -> None:
        if message.type == "error":
            console.append(message.text)

    page.on("response", answered)
    page.on("console", logged)
    await sign_up(page, cluster.base, "Newcomer")
    chips = page.get_by_role("region", name="Your chips")
    await expect(chips).to_contain_text("welcome chips", timeout=15_000)
    await expect(chips).to_contain_text("No hands played yet")
    await expect(page.get_by_role("region", name="Open tables")).to_be_visible()
    session = await token_of(page)
    reply = await page.request.get(
        f"{cluster.base}/api/me/balance", headers={"authorization": f"Bearer {session['token']}"}
    )
    assert reply.status == 200
    answer = await reply.json()
    assert answer["player_id"] == session["id"] and answer["balance"] is None, answer
    assert answer["starting_grant"] > 0, answer
    await expect(chips).to_contain_text(f"{answer['starting_grant']:,}¢ of welcome chips")
    # A reload, as a returning visitor's page load.
    await page.reload()
    await expect(chips).to_contain_text("welcome chips", timeout=15_000)
    await page.wait_for_load_state("networkidle")
    assert failed == [], failed
    assert console == [], console
    await context.close()
